import { z } from 'zod';
import { ZAccessorial } from '../accessorials/accessorial.schemas.js';
import { ZDeduction } from '../deductions/deduction.schemas.js';
import { DRIVER_STATEMENT_STATUSES } from '../shared/statuses.js';
import { ZDateTimeInput } from '../shared/money-input.js';
import { input } from '../shared/schemas.js';
import { ZSearchPage, pageOf } from '../shared/search-page.js';
import { ZStatementNumber } from './settlement.schemas.js';

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-15T00:00:00.000Z' });

export const ZDriverSettlementStatement = z
  .object({
    Number: z.number().int(),
    Status: z.enum(DRIVER_STATEMENT_STATUSES).meta({ description: 'Open until processed; credits post to the earliest Open statement.' }),
    StatementDate: ZDateTimeOut,
    SubsidiaryId: z.string().nullable(),
    DriverId: z.string(),
    Items: z.array(ZDeduction).meta({ description: 'Deductions and credits posted to the statement, by Date.' }),
    Accessorials: z.array(ZAccessorial).meta({ description: 'Driver accessorials the statement holds.' }),
  })
  .meta({ id: 'DriverSettlementStatement' });
export type TDriverSettlementStatement = z.infer<typeof ZDriverSettlementStatement>;

export const ZGetDriverStatementInput = input({ number: ZStatementNumber });

export const ZSearchDriverStatementsInput = input({
  ...ZSearchPage,
  DriverId: z.string().min(1).max(200).nullish(),
  Status: z.enum(DRIVER_STATEMENT_STATUSES).nullish(),
  StatementDateFrom: ZDateTimeInput.nullish().meta({ description: 'StatementDate on or after.' }),
  StatementDateTo: ZDateTimeInput.nullish().meta({ description: 'StatementDate on or before.' }),
});
export type TSearchDriverStatementsInput = z.infer<typeof ZSearchDriverStatementsInput>;

export const ZDriverSettlementStatementPage = pageOf(ZDriverSettlementStatement).meta({ id: 'DriverSettlementStatementPage' });
