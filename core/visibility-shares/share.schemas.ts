import { z } from 'zod';
import { ZDateTimeRange } from '../shared/master-data-filters.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';
import { ZAddress } from '../shared/place.schemas.js';

const ZDateTimeOut = z.iso.datetime();

export const SHARE_EVENT_TYPES = ['Location', 'Arrival', 'Departure', 'EstimatedDelivery', 'ProofOfDelivery'] as const;
export const ZShareEventType = z.enum(SHARE_EVENT_TYPES);
export type TShareEventType = z.infer<typeof ZShareEventType>;

const ZShareCoordinates = z
  .object({ Latitude: z.string().meta({ example: '39.0997' }), Longitude: z.string().meta({ example: '-94.5786' }) })
  .meta({ id: 'VisibilityCoordinates' });

// A share's address is a reading's: the one Address shape of asset locations.
export const ZShareAddress = ZAddress;
export type TShareAddress = z.infer<typeof ZShareAddress>;

export const ZShare = z
  .object({
    Id: z.string().meta({ description: 'The share id.', example: 'vis_0b7c2f0e-3d0a-4a53-9d7e-5a8f2b8f4c11' }),
    LoadNumber: z.string(),
    TripNumber: z.string().nullable().meta({ description: 'Null for a Proof of Delivery.' }),
    EventType: ZShareEventType.meta({
      description:
        'Location (`tracking.location`), Arrival (`tracking.arrival`), Departure (`tracking.departure`), EstimatedDelivery ' +
        '(`tracking.eta`), ProofOfDelivery (the document post, type `document`).',
    }),
    SharedAt: ZDateTimeOut.meta({ description: 'When the share was queued (in the transaction of the change it reports).' }),
    StopId: z.string().nullable(),
    Coordinates: ZShareCoordinates.nullable(),
    Address: ZShareAddress.nullable(),
    Status: z.enum(['Pending', 'Completed', 'Failed']).meta({
      description:
        'Pending until the first delivery attempt; then the outcome of the last attempt. A Failed share is retried on the ' +
        'webhook retry schedule (WEBHOOK_RETRY_DELAYS) and becomes Completed when an attempt succeeds.',
    }),
    Error: z.string().nullable().meta({ description: "Why the last attempt failed (the receiver's status, a timeout, …); null otherwise." }),
  })
  .meta({ id: 'VisibilityShare' });
export type TShare = z.infer<typeof ZShare>;
export const ZSharePage = pageOf(ZShare).meta({ id: 'VisibilitySharePage' });

const ZLoadNumberPath = ZPathId.meta({ description: 'The load number.', example: 'L-10042' });

export const ZLoadHistoryInput = input({ loadNumber: ZLoadNumberPath, ...ZQueryPage });
export type TLoadHistoryInput = z.output<typeof ZLoadHistoryInput>;

export const ZShareErrorsInput = input({
  ...ZSearchPage,
  TimeRange: ZDateTimeRange('SharedAt'),
});
export type TShareErrorsInput = z.output<typeof ZShareErrorsInput>;

export const ZInboundEvent = z
  .object({
    Id: z.string().meta({
      description: '`position:<id>`, `arrival:<stopId>`, `departure:<stopId>` or `checkcall:<checkCallId>`.',
      example: 'arrival:stop_3',
    }),
    EventType: z.enum(['Location', 'Arrival', 'Departure', 'CheckCall']).meta({
      description: 'Location (a position), Arrival and Departure (a stop\'s), CheckCall (a check call on one of the trips).',
    }),
    ReceivedAt: ZDateTimeOut.nullable().meta({
      description:
        "When the server received the position, recorded the stop's arrival (departure) or recorded the check call; for seeded data, when it was loaded.",
    }),
    RecordedAt: ZDateTimeOut.meta({ description: "The position's or check call's RecordedAt, or the stop's ArrivedAt / DepartedAt. The list's order." }),
    AssetId: z.string().nullable().meta({ description: 'The asset that reported the position; null for stop events and check calls.' }),
    AssetType: z.enum(['Driver', 'Truck', 'Trailer']).nullable(),
    TripId: z.string(),
    StopId: z.string().nullable().meta({ description: "The stop arrived at or departed from; for a check call, the trip's next Open stop then." }),
    Coordinates: ZShareCoordinates.nullable(),
    Address: ZShareAddress.nullable(),
    Source: z.string().meta({
      description: "The position's Source (`PublicApi`, …); `StopUpdate` for stop arrivals and departures recorded through the stop routes or a fixture, `Geofence` for those the positions recorded; `CheckCall` for check calls.",
    }),
  })
  .meta({ id: 'VisibilityInboundEvent' });
export type TInboundEvent = z.infer<typeof ZInboundEvent>;
export const ZInboundEventPage = pageOf(ZInboundEvent).meta({ id: 'VisibilityInboundEventPage' });
