import { z } from 'zod';
import { ZDateTimeInput, ZText } from '../shared/money-input.js';
import { ZPathId, input } from '../shared/schemas.js';

/** At most this many loads on one invoice (docs/api-rules.md#invoices). */
export const MAX_INVOICE_LOADS = 50;

const ZLoadNumbers = z
  .array(z.string().min(1).max(100))
  .min(1)
  .max(MAX_INVOICE_LOADS)
  .refine((numbers) => new Set(numbers).size === numbers.length, 'must not name a load twice')
  .meta({
    description:
      "1 to 50 distinct LoadNumbers of the customer's Delivered loads that no invoice other than a Void one bills. " +
      'The line items follow their order.',
    uniqueItems: true,
    example: ['L-1990'],
  });

export const ZCreateInvoiceInput = input({
  CustomerId: ZPathId.meta({ description: 'The customer billed; its SubsidiaryId becomes the invoice\'s.', example: 'cus_lonestar' }),
  LoadNumbers: ZLoadNumbers,
  Number: ZText(100)
    .optional()
    .meta({
      description: 'Unique per tenant (a taken one is 409 Conflict/Duplicate). Left out: `INV-<n>`, n one more than the highest such Number of the tenant.',
      example: 'INV-2002',
    }),
  InvoicedDate: ZDateTimeInput.optional().meta({
    description: 'ISO 8601 date-time, without an offset read as UTC. Left out: today, 00:00 UTC.',
  }),
  DueDate: ZDateTimeInput.optional().meta({
    description:
      "Not before InvoicedDate (400). Left out: InvoicedDate plus the customer's InvoicingInformation.PaymentTermsDays (30 when unset).",
  }),
});
export type TCreateInvoiceInput = z.output<typeof ZCreateInvoiceInput>;

export const ZVoidInvoiceInput = input({
  id: ZPathId,
  Reason: ZText(200).nullish().meta({ description: 'Why the invoice is voided; kept with it and sent with invoice.voided.' }),
});
