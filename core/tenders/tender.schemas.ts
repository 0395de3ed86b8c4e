import { z } from 'zod';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { ZDateTimeRange, ZIdList } from '../shared/master-data-filters.js';
import { ZAmountInput, ZCurrencyInput, ZDateTimeInput, ZText } from '../shared/money-input.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZCoordinates, ZCoordinatesInput } from '../shared/place.schemas.js';
import { ZPathId, firstItemHas, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';
import { ZStopWindow } from '../trips/trip.schemas.js';

export const TENDER_STATUSES = ['Pending', 'Accepted', 'Rejected', 'Cancelled', 'Expired'] as const;
export type TenderStatus = (typeof TENDER_STATUSES)[number];
export const TENDER_STOP_TYPES = ['Pickup', 'Delivery'] as const;

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-24T14:00:00.000Z' });

export const ZTenderReference = z
  .object({ Name: z.string().max(50), Value: z.string().max(40) })
  .meta({ id: 'TenderReference' });

export const ZTenderStop = z
  .object({
    StopType: z.enum(TENDER_STOP_TYPES),
    ScheduleType: z.enum(['APPT', 'FCFS']),
    AppointmentDate: ZDateTimeOut.nullable().meta({ description: 'Set when ScheduleType is APPT.' }),
    StopWindow: ZStopWindow.nullable().meta({ description: 'Set when ScheduleType is FCFS.' }),
    LoadingType: z.string().nullable(),
    Address: z.object({ Street: z.string(), City: z.string(), State: z.string(), ZipCode: z.string(), Country: z.string().nullable() }),
    Coordinates: ZCoordinates.nullable(),
    LocationId: z.string().nullable(),
    CompanyName: z.string().nullable().meta({ description: 'The company at the stop (an EDI 204 names it in the stop\'s N1); null when not given.' }),
    References: z.array(ZTenderReference).meta({ description: "The stop's own references (an EDI 204's stop L11s); empty when none." }),
  })
  .meta({ id: 'TenderStop' });
export type TTenderStop = z.infer<typeof ZTenderStop>;

export const ZTender = z
  .object({
    Id: z.string(),
    ExternalId: z.string().meta({ description: "The sender's tender id; with CustomerId the idempotency key of POST /tenders." }),
    Status: z.enum(TENDER_STATUSES).meta({ description: 'A Pending tender whose RespondBy has passed reads Expired.' }),
    CustomerId: z.string(),
    SubsidiaryId: z.string().nullable().meta({ description: "The customer's subsidiary; null when it has none." }),
    ReceivedAt: ZDateTimeOut,
    RespondBy: ZDateTimeOut.nullable(),
    RespondedAt: ZDateTimeOut.nullable(),
    RejectionReason: z.string().nullable(),
    LoadNumber: z.string().nullable().meta({ description: 'The load an acceptance created.' }),
    Rate: ZMoney,
    Equipment: z.string().nullable(),
    References: z.array(ZTenderReference),
    Stops: z.array(ZTenderStop),
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'Tender' });
export type TTender = z.infer<typeof ZTender>;

export const ZTenderPage = pageOf(ZTender).meta({ id: 'TenderPage' });

export const ZTenderIdInput = input({ id: ZPathId });

const ZReferenceInput = z.strictObject({ Name: ZText(50), Value: ZText(40) });

const ZAddressInput = z.strictObject({
  Street: ZText(200),
  City: ZText(100),
  State: ZText(100),
  ZipCode: ZText(20),
  Country: ZText(100).nullish(),
});

const stopInputFields = {
  StopType: z.enum(TENDER_STOP_TYPES),
  LoadingType: ZText(50).nullish().meta({ description: 'Live, Drop, Hook, Drop&Hook, …' }),
  Address: ZAddressInput,
  Coordinates: ZCoordinatesInput.nullish(),
  LocationId: ZPathId.nullish().meta({ description: "A location of the tenant (404 when it does not exist); the stop takes its time zone when it has no Coordinates." }),
  CompanyName: ZText(100).nullish().meta({ description: 'The company at the stop.' }),
  References: z.array(ZReferenceInput).max(50).optional().meta({ description: "The stop's own references." }),
};

/**
 * A tender's stop as sent. ScheduleType decides what it carries, as for a load's stops
 * (docs/api-rules.md#tenders: APPT stops have an AppointmentDate, FCFS stops a StopWindow), so the two are
 * alternatives the document states as a oneOf.
 */
export const ZTenderStopInput = z.discriminatedUnion('ScheduleType', [
  z.strictObject({
    ScheduleType: z.literal('APPT'),
    AppointmentDate: ZDateTimeInput,
    ...stopInputFields,
  }),
  z.strictObject({
    ScheduleType: z.literal('FCFS'),
    StopWindow: z
      .strictObject({ Begin: ZDateTimeInput, End: ZDateTimeInput })
      .refine((window) => window.End >= window.Begin, { path: ['End'], message: 'must not be before StopWindow.Begin' })
      .meta({ description: 'End must not be before Begin.' }),
    ...stopInputFields,
  }),
]);
export type TTenderStopInput = z.output<typeof ZTenderStopInput>;

/**
 * What a sender states about a tender: POST /tenders takes them with its CustomerId, and an
 * EDI 204 (its original and its change) maps to them (docs/edi.md#204-to-tender).
 */
export const tenderTermFields = {
  RespondBy: ZDateTimeInput.nullish().meta({ description: 'When the offer lapses; a Pending tender reads Expired after it. Left out: no deadline.' }),
  Rate: z.strictObject({ Amount: ZAmountInput.refine((value) => value >= 0, 'must not be negative').meta({ minimum: 0 }), Currency: ZCurrencyInput }),
  Equipment: ZText(100).nullish(),
  References: z.array(ZReferenceInput).max(50).optional(),
  Stops: z
    .array(ZTenderStopInput)
    .min(2)
    .max(50)
    .superRefine((stops, ctx) => {
      if (stops[0] && stops[0].StopType !== 'Pickup') ctx.addIssue({ code: 'custom', path: [0, 'StopType'], message: 'The first stop must be a Pickup.' });
      const last = stops.length - 1;
      if (last > 0 && stops[last]!.StopType !== 'Delivery') ctx.addIssue({ code: 'custom', path: [last, 'StopType'], message: 'The last stop must be a Delivery.' });
    })
    // JSON Schema pins the first item; the last one only the description can.
    .meta({ description: 'At least two: the first a Pickup, the last a Delivery.', ...firstItemHas('StopType', 'Pickup') }),
};

export const ZTenderTerms = z.strictObject(tenderTermFields);
export type TTenderTerms = z.output<typeof ZTenderTerms>;

export const ZCreateTenderInput = input({
  ExternalId: z.string().min(1).max(128).meta({
    description:
      "The sender's tender id. With CustomerId the idempotency key: a retry with the same values answers the first tender " +
      '(`Idempotent-Replayed: true`), other values are 409 Conflict/IdempotencyKeyReuse.',
  }),
  CustomerId: ZPathId,
  ...tenderTermFields,
});
export type TCreateTenderInput = z.output<typeof ZCreateTenderInput>;

export const ZAcceptTenderInput = input({ id: ZPathId });
export const ZRejectTenderInput = input({ id: ZPathId, Reason: ZText(200) });
export const ZCancelTenderInput = input({ id: ZPathId, Reason: ZText(200).nullish() });

export const ZFindTendersInput = input({
  ...ZQueryPage,
  Status: queryEnumList(TENDER_STATUSES).optional(),
  CustomerId: ZPathId.optional().meta({ description: "The customer's tenders." }),
});

export const ZSearchTendersInput = input({
  ...ZSearchPage,
  Statuses: bodyEnumList(TENDER_STATUSES).nullish(),
  CustomerIds: ZIdList.nullish().meta({ description: 'Tenders of any of these customers; an empty list is a 400.' }),
  ReceivedAtRange: ZDateTimeRange('ReceivedAt'),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
});

/** What GET /tenders and POST /tenders/search filter by, after validation. */
export type TTenderFilter = z.output<typeof ZSearchTendersInput>;
