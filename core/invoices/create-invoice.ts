import { AppError, notFound, validationError } from '../errors.js';
import { getCustomerRow } from '../customers/customer.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { utcCalendarDate } from '../shared/money-input.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { withHeaders } from '../answer-headers.js';
import { appendInvoiceEvent } from './invoice-events.js';
import { billableLoads, billingOf, invoicedLoad, refuseInvoicedLoads } from './invoice-billing.js';
import { invoiceNumberValue } from './invoice-rows.js';
import { invoiceEtag, toInvoice, type InvoiceRow } from './invoice.repository.js';
import { ZInvoice } from './invoice.schemas.js';
import { ZCreateInvoiceInput } from './invoice-write.schemas.js';
import { assignInvoiceNumber, insertInvoice, invoiceNumberTaken, loadsOnLiveInvoices, lockInvoiceNumbers, uniqueIndexOf } from './invoice-write.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** docs/api-rules.md#invoices: DueDate defaults to InvoicedDate plus the customer's terms, 30 days when it has none. */
const DEFAULT_PAYMENT_TERMS_DAYS = 30;

function duplicateNumber(number: string): AppError {
  return new AppError('CONFLICT', `Number "${number}" is already used by another invoice of the tenant.`, {
    subtype: 'Duplicate',
    extensions: { Field: 'Number' },
  });
}

export const createInvoice = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/invoices',
      tags: ['Invoices'],
      summary: "Invoice a customer's delivered loads",
      description:
        'Answers 201 with the Open invoice, its ETag and Location. Each of LoadNumbers must be a load the caller can see ' +
        '(else 404 naming it), of this customer and Delivered (else 409 Conflict/InvalidState), and on no invoice that is ' +
        'not Void (else 409 Conflict/InUse; of two concurrent invoices for one load exactly one is created); the problem ' +
        "names the load in Detail and LoadNumber. LineItems are, load by load in the order given, the line items of the load's " +
        "trips that were not Cancelled (Quantity 1, Rate = Amount) and then the customer's accessorials on its trips " +
        '(detention included), each with its LoadNumber; Total is their sum. All lines must share one currency, which ' +
        'becomes the invoice currency (USD without lines): a mix is 422 Unprocessable/MixedCurrencies naming the load. ' +
        "Number is `INV-<n>` when left out (n one more than the tenant's highest); a taken Number is 409 Conflict/Duplicate " +
        '(Field Number). InvoicedDate defaults to today (00:00 UTC), DueDate to InvoicedDate plus the customer\'s ' +
        'PaymentTermsDays (30 when unset); a DueDate before InvoicedDate is 400. SubsidiaryId is the customer\'s; for a ' +
        "customer of no subsidiary, the loads' subsidiary when they share one (a subsidiary-bound client's own), else " +
        'null. Emits invoice.created. Each load that came from an EDI partner\'s tender, when the partner is Active and exchanges ' +
        '210, sends it a 210 with that load\'s lines in the same transaction (docs/edi.md).',
      protect: true,
      responseHeaders: ZCreatedHeaders,
      errorResponses: [409, 422],
    },
    scopes: ['invoice:create'],
    successStatus: 201,
  })
  .input(ZCreateInvoiceInput)
  .output(ZInvoice)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const now = formatStoredDateTime(ctx.clock.now());
    const invoicedDate = input.InvoicedDate ?? utcCalendarDate(now);
    if (input.DueDate !== undefined && input.DueDate < invoicedDate) {
      throw validationError('DueDate', `must not be before InvoicedDate (${invoicedDate}).`);
    }

    const customer = await getCustomerRow(ctx.db, scope, input.CustomerId);
    if (!customer) throw notFound('Customer');
    const loads = await billableLoads(ctx.db, scope, customer.id, input.LoadNumbers);
    const billing = await billingOf(ctx.db, scope.tenantId, customer.id, loads);

    const terms = customer.invoicing_payment_terms_days ?? DEFAULT_PAYMENT_TERMS_DAYS;
    const defaultDue = Date.parse(invoicedDate) + terms * DAY_MS;
    // Terms past the year 9999 have no stored form (docs/api-rules.md#dates-and-times).
    if (input.DueDate === undefined && new Date(defaultDue).getUTCFullYear() > 9999) {
      throw validationError('InvoicedDate', "leaves no DueDate before the year 10000 with the customer's payment terms; send DueDate.");
    }
    const dueDate = input.DueDate ?? formatStoredDateTime(defaultDue);
    const id = newRecordId('inv');
    let number = input.Number ?? '';

    const row = await ctx.db
      .transaction()
      .execute(async (trx) => {
        const last = await lockInvoiceNumbers(trx, scope.tenantId);
        if (input.Number === undefined) number = await assignInvoiceNumber(trx, scope.tenantId, last);
        else if (await invoiceNumberTaken(trx, scope.tenantId, number)) throw duplicateNumber(number);
        // Read again under the lock: an invoice committed since the first check counts.
        await refuseInvoicedLoads(trx, scope.tenantId, input.LoadNumbers);
        const created: InvoiceRow = {
          id,
          tenant_id: scope.tenantId,
          subsidiary_id: customer.subsidiary_id ?? billing.loadsSubsidiaryId,
          number,
          number_value: invoiceNumberValue(number),
          type: 'Standard',
          status: 'Open',
          customer_id: customer.id,
          invoiced_date: invoicedDate,
          due_date: dueDate,
          paid_date: null,
          currency: billing.currency,
          total: billing.total,
          amount_paid: 0,
          payment_count: 0,
          version: 1,
          created_by: ctx.principal.ClientId,
          void_reason: null,
          created_at: now,
          updated_at: now,
        };
        await insertInvoice(trx, {
          invoice: created,
          loadNumbers: input.LoadNumbers,
          lineItems: billing.lines.map((line, index) => ({
            id: newRecordId('ili'),
            tenant_id: scope.tenantId,
            invoice_id: id,
            sequence: index + 1,
            description: line.description,
            type: line.type,
            quantity_hundredths: line.quantityHundredths,
            rate: line.rate,
            rate_currency: line.currency,
            amount: line.amount,
            amount_currency: line.currency,
            load_number: line.loadNumber,
          })),
        });
        const invoice = await toInvoice(trx, created);
        await appendInvoiceEvent(trx, ctx.clock, { tenantId: scope.tenantId, type: 'invoice.created', invoice });
        return { created, invoice };
      })
      .catch(async (error: unknown) => {
        // A concurrent create that committed first, met on a unique index (migration 0160).
        const index = uniqueIndexOf(error);
        if (index === 'number') throw duplicateNumber(number);
        if (index === 'load') {
          const invoiced = await loadsOnLiveInvoices(ctx.db, scope.tenantId, input.LoadNumbers);
          throw invoicedLoad(input.LoadNumbers.find((loadNumber) => invoiced.has(loadNumber)) ?? input.LoadNumbers[0]!);
        }
        throw error;
      });

    return withHeaders(row.invoice, {
      etag: invoiceEtag(row.created),
      location: `/api/p/v${input.version}/invoices/${encodeURIComponent(row.created.id)}`,
    });
  });
