import { z } from 'zod';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { ZDateTimeRange, ZIdList } from '../shared/master-data-filters.js';
import { ZAmountInput, ZDateTimeInput, ZExternalIdInput, ZText } from '../shared/money-input.js';
import { ZMoney } from '../shared/money.schemas.js';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';

export const INVOICE_TYPES = ['Standard', 'Supplemental'] as const;
export const INVOICE_STATUSES = ['Open', 'PartiallyPaid', 'Paid', 'Void'] as const;
export const PAYMENT_METHODS = ['Check', 'ACH', 'Wire', 'Card', 'Other'] as const;
/** The statuses a payment may be recorded on; Paid and Void are 409 InvalidState. */
export const PAYABLE_STATUSES = ['Open', 'PartiallyPaid'] as const;

export type TInvoiceStatus = (typeof INVOICE_STATUSES)[number];

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });

export const ZInvoiceLineItem = z
  .object({
    Description: z.string(),
    Type: z.string().meta({ description: 'What the line charges, e.g. LineHaul or Fuel Surcharge.' }),
    Quantity: z.number().meta({ description: 'Units charged, at most 2 decimals.', example: 1 }),
    Rate: ZMoney,
    Amount: ZMoney,
    LoadNumber: z.string().nullable().meta({ description: 'The load the line bills, if any.' }),
  })
  .meta({ id: 'InvoiceLineItem' });

export const ZInvoicePayment = z
  .object({
    Id: z.string(),
    PaymentDate: ZDateTimeOut,
    Amount: ZMoney,
    Method: z.enum(PAYMENT_METHODS),
    ReferenceNumber: z.string().nullable(),
    CheckNumber: z.string().nullable(),
    ExternalId: z.string().nullable().meta({ description: "The payer's idempotency key, when it sent one." }),
  })
  .meta({ id: 'InvoicePayment' });
export type TInvoicePayment = z.infer<typeof ZInvoicePayment>;

export const ZInvoice = z
  .object({
    Id: z.string(),
    Number: z.string().meta({ description: 'Unique per tenant.', example: 'INV-10021' }),
    Type: z.enum(INVOICE_TYPES),
    Status: z.enum(INVOICE_STATUSES).meta({
      description: 'Open until a payment is recorded, then PartiallyPaid, then Paid when AmountPaid reaches Total. Void invoices take no payment.',
    }),
    SubsidiaryId: z.string().nullable().meta({ description: "null: only the tenant's clients that are bound to no subsidiary see it." }),
    CustomerId: z.string(),
    CustomerName: z.string(),
    InvoicedDate: ZDateTimeOut,
    DueDate: ZDateTimeOut,
    PaidDate: ZDateTimeOut.nullable().meta({ description: 'The PaymentDate of the payment that completed it; null until Paid.' }),
    Total: ZMoney,
    AmountPaid: ZMoney,
    RemainingBalance: ZMoney.meta({ description: 'Exactly Total minus AmountPaid.' }),
    LoadNumbers: z.array(z.string()),
    LineItems: z.array(ZInvoiceLineItem),
    Payments: z.array(ZInvoicePayment).meta({ description: 'In the order they were recorded.' }),
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'Invoice' });
export type TInvoice = z.infer<typeof ZInvoice>;

export const ZInvoicePage = pageOf(ZInvoice).meta({ id: 'InvoicePage' });

export const ZInvoiceIdInput = input({ id: ZPathId });

const ZFilterText = z.string().min(1).max(200);

export const ZFindInvoicesInput = input({
  ...ZQueryPage,
  Number: ZFilterText.optional().meta({ description: 'Exact invoice Number.' }),
  LoadNumber: ZFilterText.optional().meta({ description: 'Invoices that bill this load (exact LoadNumber).' }),
  CustomerId: ZFilterText.optional().meta({ description: "The customer's invoices." }),
  Status: queryEnumList(INVOICE_STATUSES).optional(),
});

export const ZSearchInvoicesInput = input({
  ...ZSearchPage,
  Statuses: bodyEnumList(INVOICE_STATUSES).nullish(),
  CustomerIds: ZIdList.nullish().meta({ description: 'Invoices of any of these customers; an empty list is a 400.' }),
  LoadNumbers: ZIdList.nullish().meta({ description: 'Invoices that bill any of these loads; an empty list is a 400.' }),
  Numbers: ZIdList.nullish().meta({ description: 'Invoices with any of these Numbers; an empty list is a 400.' }),
  InvoicedDateRange: ZDateTimeRange('InvoicedDate'),
  DueDateRange: ZDateTimeRange('DueDate'),
  PaidDateRange: ZDateTimeRange('PaidDate'),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
});

/** What GET /invoices and POST /invoices/search filter by, after validation. */
export type TInvoiceFilter = z.output<typeof ZSearchInvoicesInput>;

const ZPaymentAmount = ZAmountInput.refine((value) => value > 0, 'The amount must be greater than zero.').meta({
  description: 'Greater than zero, at most 2 decimals (never rounded), at most 1,000,000; at most the RemainingBalance (else 409 Conflict/Overpayment). In the invoice currency.',
  example: 1250.5,
  exclusiveMinimum: 0,
});

export const ZRecordPaymentInput = input({
  id: ZPathId,
  Amount: ZPaymentAmount,
  PaymentDate: ZDateTimeInput.meta({ description: 'When the customer paid; becomes PaidDate when this payment completes the invoice. Without an offset it is UTC.' }),
  Method: z.enum(PAYMENT_METHODS),
  ReferenceNumber: ZText(100).nullish().transform((value) => value ?? null),
  CheckNumber: ZText(50).nullish().transform((value) => value ?? null),
  ExternalId: ZExternalIdInput.meta({
    description:
      'Idempotency key, unique per tenant: a retry with the same key and the same values answers the first result ' +
      '(`Idempotent-Replayed: true`, the invoice as it was then); the key reused with another invoice, Amount, ' +
      'PaymentDate, Method, ReferenceNumber or CheckNumber is 409 Conflict/IdempotencyKeyReuse.',
  }),
});
export type TRecordPaymentInput = z.output<typeof ZRecordPaymentInput>;
