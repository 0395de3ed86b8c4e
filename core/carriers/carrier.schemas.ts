import { z } from 'zod';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';
import { ZExternalIdFilter, ZExternalIds, ZExternalIdsPatch } from '../external-ids/external-ids.schemas.js';
import { ZContactList, ZPostalAddressInput, ZPostalAddressPatch } from '../shared/master-data-input.js';
import { ZDateTimeInput, ZText } from '../shared/money-input.js';
import { ZMoneyObjectInput } from '../shared/money-object-input.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';
import { ZPostalAddress } from '../locations/location.schemas.js';
import { ZContainsText, ZDateTimeRange, ZIdList } from '../shared/master-data-filters.js';

export const CARRIER_STATUSES = ['Pending', 'Active', 'Inactive'] as const;

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });

export const ZCarrierInsurance = z
  .object({
    Type: z.string().meta({ example: 'Cargo' }),
    Agent: z.string().nullable(),
    PolicyNumber: z.string().nullable(),
    ExpirationDate: ZDateTimeOut.nullable(),
    Amount: ZMoney.meta({ description: 'The coverage.' }),
  })
  .meta({ id: 'CarrierInsurance' });

export const ZCarrier = z
  .object({
    Id: z.string(),
    Name: z.string(),
    McNumber: z.string().nullable().meta({ description: 'Unique per tenant when set.' }),
    DotNumber: z.string().nullable().meta({ description: 'Unique per tenant when set.' }),
    Status: z.enum(CARRIER_STATUSES),
    Address: ZPostalAddress.nullable(),
    Email: z.array(z.string()),
    Phone: z.array(z.string()),
    InsuranceInfo: z.array(ZCarrierInsurance),
    ExternalIds: ZExternalIds,
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'Carrier' });
export type TCarrier = z.infer<typeof ZCarrier>;

export const ZCarrierPage = pageOf(ZCarrier).meta({ id: 'CarrierPage' });

export const ZCarrierIdInput = input({ carrierId: ZPathId });

const ZNumber = z.string().min(1).max(200);

export const ZFindCarriersInput = input({
  ...ZQueryPage,
  Status: queryEnumList(CARRIER_STATUSES).optional(),
  Name: ZContainsText.optional().meta({ description: 'Matches the Name anywhere, case-insensitively.' }),
  McNumber: ZNumber.optional().meta({ description: 'Exact MC number.' }),
  DotNumber: ZNumber.optional().meta({ description: 'Exact DOT number.' }),
  ExternalId: ZExternalIdFilter.optional(),
});

export const ZSearchCarriersInput = input({
  ...ZSearchPage,
  Statuses: bodyEnumList(CARRIER_STATUSES).nullish(),
  Ids: ZIdList.nullish().meta({ description: 'Carrier ids, any of them; at most 100.' }),
  McNumbers: ZIdList.nullish().meta({ description: 'Exact MC numbers, any of them; at most 100.' }),
  DotNumbers: ZIdList.nullish().meta({ description: 'Exact DOT numbers, any of them; at most 100.' }),
  Name: ZContainsText.nullish().meta({ description: 'Matches the Name anywhere, case-insensitively.' }),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
  ExternalId: ZExternalIdFilter.nullish(),
});

/** What GET /carriers and POST /carriers/search filter by, after validation. */
export type TCarrierFilter = z.output<typeof ZSearchCarriersInput>;

const ZCarrierNumber = ZText(50);

const ZInsuranceInput = z.strictObject({
  Type: ZText(100).meta({ example: 'Cargo' }),
  Agent: ZText(200).nullish(),
  PolicyNumber: ZText(100).nullish(),
  ExpirationDate: ZDateTimeInput.nullish(),
  Amount: ZMoneyObjectInput({ description: 'The coverage.', example: 100000 }),
});
export type TInsuranceInput = z.output<typeof ZInsuranceInput>;

const ZInsuranceList = z.array(ZInsuranceInput).max(20).meta({ description: 'The policies, in order; at most 20.' });

export const ZCreateCarrierInput = input({
  Name: ZText(200),
  McNumber: ZCarrierNumber.nullish().meta({ description: 'Unique per tenant when set (409 Conflict/Duplicate).', example: 'MC-812345' }),
  DotNumber: ZCarrierNumber.nullish().meta({ description: 'Unique per tenant when set (409 Conflict/Duplicate).', example: '2987654' }),
  Status: z.enum(CARRIER_STATUSES).optional().meta({ description: 'Pending when left out.' }),
  Address: ZPostalAddressInput.nullish(),
  Email: ZContactList.optional(),
  Phone: ZContactList.optional(),
  InsuranceInfo: ZInsuranceList.optional(),
  ExternalIds: ZExternalIds.optional().meta({ description: 'Ids in other systems by source, {} when left out; each pair unique per tenant among carriers.' }),
});
export type TCreateCarrierInput = z.output<typeof ZCreateCarrierInput>;

export const CARRIER_PATCH_FIELDS = ['Name', 'McNumber', 'DotNumber', 'Status', 'Address', 'Email', 'Phone', 'InsuranceInfo', 'ExternalIds'] as const;

export const ZUpdateCarrierInput = input({
  carrierId: ZPathId,
  Name: ZText(200).optional(),
  McNumber: ZCarrierNumber.nullish().meta({ description: 'null clears it.' }),
  DotNumber: ZCarrierNumber.nullish().meta({ description: 'null clears it.' }),
  Status: z.enum(CARRIER_STATUSES).optional().meta({ description: 'Inactive retires the carrier (409 Conflict/InUse while it is on an open trip).' }),
  Address: ZPostalAddressPatch.nullish(),
  Email: ZContactList.optional(),
  Phone: ZContactList.optional(),
  InsuranceInfo: ZInsuranceList.optional().meta({ description: 'Replaces every policy.' }),
  ExternalIds: ZExternalIdsPatch.optional(),
})
  .superRefine((value, ctx) => {
    if (CARRIER_PATCH_FIELDS.every((field) => value[field] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `Send at least one of ${CARRIER_PATCH_FIELDS.join(', ')}.` });
    }
  })
  .register(bodyRules, atLeastOneOf(CARRIER_PATCH_FIELDS));
export type TUpdateCarrierInput = z.output<typeof ZUpdateCarrierInput>;
