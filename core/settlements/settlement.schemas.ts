import { z } from 'zod';
import { ZDateTimeInput } from '../shared/money-input.js';
import { ZMoney } from '../shared/money.schemas.js';
import { input } from '../shared/schemas.js';
import { ZPathInteger } from '../shared/text-integer.js';
import { ZSearchPage, pageOf } from '../shared/search-page.js';

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-15T00:00:00.000Z' });

/** Text that is no statement number reads as 0, which no statement has: a 404 like an unknown number. */
export const ZStatementNumber = ZPathInteger({ min: 1, max: Number.MAX_SAFE_INTEGER, absent: 0 }).meta({
  description: 'The statement number.',
  example: 70001,
});

export const ZCarrierStatementPayee = z
  .object({
    Type: z.enum(['Carrier', 'FactoringCompany']),
    Id: z.string(),
    Name: z.string(),
    McNumber: z.string().nullable(),
    DotNumber: z.string().nullable(),
  })
  .meta({ id: 'CarrierStatementPayee' });

export const ZCarrierStatementItem = z
  .object({
    Description: z.string(),
    Type: z.string(),
    Amount: ZMoney,
    AccountingTag: z.string().nullable(),
  })
  .meta({ id: 'CarrierStatementItem' });

export const ZCarrierStatementTrip = z
  .object({
    TripId: z.string(),
    TripNumber: z.string(),
    LoadNumber: z.string(),
    Origin: z.string().nullable(),
    Destination: z.string().nullable(),
    PickedUpAt: ZDateTimeOut.nullable(),
    DeliveredAt: ZDateTimeOut.nullable(),
    InvoiceNumber: z.string().nullable(),
    InvoiceDueDate: ZDateTimeOut.nullable(),
    NetAmount: ZMoney.nullable(),
    LineHaulAmount: ZMoney.nullable(),
    AccessorialsAmount: ZMoney.nullable(),
    Items: z.array(ZCarrierStatementItem),
  })
  .meta({ id: 'CarrierStatementTrip' });

export const ZCarrierStatementPayment = z
  .object({
    Id: z.string(),
    Amount: ZMoney,
    PaymentDate: ZDateTimeOut,
    PaymentMethod: z.string().nullable(),
    ReferenceNumber: z.string().nullable(),
    CheckNumber: z.string().nullable(),
  })
  .meta({ id: 'CarrierStatementPayment' });

/** docs/api-rules.md#settlement-statements. */
export const ZCarrierSettlementStatement = z
  .object({
    Number: z.number().int(),
    Status: z.string().meta({ description: 'Processed, Paid, …', example: 'Processed' }),
    StatementDate: ZDateTimeOut,
    RemittanceDate: ZDateTimeOut.nullable(),
    SubsidiaryId: z.string(),
    Payee: ZCarrierStatementPayee,
    RemitTo: z.string().nullable(),
    PaymentProvider: z.string(),
    NetAmount: ZMoney,
    PaidAmount: ZMoney,
    RemainingAmount: ZMoney,
    Trips: z.array(ZCarrierStatementTrip),
    Payments: z.array(ZCarrierStatementPayment),
  })
  .meta({ id: 'CarrierSettlementStatement' });
export type TCarrierSettlementStatement = z.infer<typeof ZCarrierSettlementStatement>;

export const ZGetCarrierStatementInput = input({ number: ZStatementNumber });

export const ZSearchCarrierStatementsInput = input({
  ...ZSearchPage,
  PayeeId: z.string().min(1).max(200).nullish().meta({ description: 'Only statements paying this carrier or factoring company.' }),
  Status: z.string().min(1).max(50).nullish().meta({ description: 'Only statements with this status (Processed, Paid, …).' }),
  StatementDateFrom: ZDateTimeInput.nullish().meta({ description: 'StatementDate on or after.' }),
  StatementDateTo: ZDateTimeInput.nullish().meta({ description: 'StatementDate on or before.' }),
});
export type TSearchCarrierStatementsInput = z.infer<typeof ZSearchCarrierStatementsInput>;

export const ZCarrierSettlementStatementPage = pageOf(ZCarrierSettlementStatement).meta({ id: 'CarrierSettlementStatementPage' });
