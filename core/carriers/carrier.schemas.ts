import { z } from 'zod';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZPathId, input } from '../shared/schemas.js';
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
    McNumber: z.string().nullable(),
    DotNumber: z.string().nullable(),
    Status: z.enum(CARRIER_STATUSES),
    Address: ZPostalAddress.nullable(),
    Email: z.array(z.string()),
    Phone: z.array(z.string()),
    InsuranceInfo: z.array(ZCarrierInsurance),
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
});

export const ZSearchCarriersInput = input({
  ...ZSearchPage,
  Statuses: bodyEnumList(CARRIER_STATUSES).nullish(),
  Ids: ZIdList.nullish().meta({ description: 'Carrier ids, any of them; at most 100.' }),
  McNumbers: ZIdList.nullish().meta({ description: 'Exact MC numbers, any of them; at most 100.' }),
  DotNumbers: ZIdList.nullish().meta({ description: 'Exact DOT numbers, any of them; at most 100.' }),
  Name: ZContainsText.nullish().meta({ description: 'Matches the Name anywhere, case-insensitively.' }),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
});

/** What GET /carriers and POST /carriers/search filter by, after validation. */
export type TCarrierFilter = z.output<typeof ZSearchCarriersInput>;
