/**
 * An accounting integration's two jobs, run on a schedule:
 *
 * 1. Pull the invoices that changed since the last run (`UpdatedAtRange.Start`, inclusive),
 *    walking every page with `Cursor`/`NextCursor`, into the ledger, and keep the newest
 *    `UpdatedAt` seen as the next run's start. Recording a payment updates the invoice, so
 *    payments recorded anywhere come back with the next pull.
 * 2. Post the customer payments the accounting system received. Each carries an `ExternalId`
 *    made from the accounting system's own remittance id, so a post whose answer was lost (a
 *    timeout, a dropped connection, a 503 or 429) is retried as the identical request: the API
 *    records the payment once and answers the retry with the first result and
 *    `Idempotent-Replayed: true`. A 409 is an answer, not a failure to retry: Overpayment or
 *    InvalidState (the invoice is Paid or Void) go to a person; IdempotencyKeyReuse means the
 *    remittance id was used for another payment.
 *
 * Run against `npm start` (demo data):  npx tsx examples/accounting-sync.ts
 */
import { callWithRetries, demoApi, type FreightApi, type RetryOptions } from './integration-client.js';

export interface Money {
  Amount: number;
  Currency: number | null;
}

export interface Invoice {
  Id: string;
  Number: string;
  Status: 'Open' | 'PartiallyPaid' | 'Paid' | 'Void';
  CustomerId: string;
  Total: Money;
  AmountPaid: Money;
  RemainingBalance: Money;
  UpdatedAt: string;
  [field: string]: unknown;
}

interface InvoicePage {
  Items: Invoice[];
  NextCursor: string | null;
}

export interface PullResult {
  /** Invoices fetched by this run (new or changed since the watermark). */
  fetched: number;
  /** The next run's `UpdatedAtRange.Start`. */
  watermark: string | null;
  pages: number;
}

/** One pull: fetches the invoices changed since `watermark` into `ledger` (keyed by Id). */
export async function pullInvoices(api: FreightApi, ledger: Map<string, Invoice>, watermark: string | null, pageSize = 100): Promise<PullResult> {
  const filter = watermark ? { UpdatedAtRange: { Start: watermark } } : {};
  let cursor: string | null = null;
  let next = watermark;
  let fetched = 0;
  let pages = 0;
  do {
    const { body }: { body: InvoicePage } = await api.call<InvoicePage>('POST', '/invoices/search', {
      body: { ...filter, PageSize: pageSize, ...(cursor ? { Cursor: cursor } : {}) },
    });
    pages += 1;
    for (const invoice of body.Items) {
      // The start is inclusive: the invoices at the watermark itself come again, and an upsert by Id makes that harmless.
      ledger.set(invoice.Id, invoice);
      fetched += 1;
      if (next === null || invoice.UpdatedAt > next) next = invoice.UpdatedAt;
    }
    cursor = body.NextCursor;
  } while (cursor);
  return { fetched, watermark: next, pages };
}

/** A payment the accounting system received, under its own remittance id. */
export interface Remittance {
  remittanceId: string;
  invoiceId: string;
  amount: number;
  paymentDate: string;
  method: 'Check' | 'ACH' | 'Wire' | 'Card' | 'Other';
  referenceNumber?: string;
  checkNumber?: string;
}

export interface PostResult {
  invoice: Invoice;
  /** True when the API answered with a payment an earlier attempt (or run) already recorded. */
  replayed: boolean;
  attempts: number;
}

/** Posts a remittance as a payment, retrying lost answers with the same ExternalId. */
export async function postPayment(api: FreightApi, remittance: Remittance, options: RetryOptions = {}): Promise<PostResult> {
  const body = {
    Amount: remittance.amount,
    PaymentDate: remittance.paymentDate,
    Method: remittance.method,
    ReferenceNumber: remittance.referenceNumber ?? null,
    CheckNumber: remittance.checkNumber ?? null,
    ExternalId: `remit:${remittance.remittanceId}`,
  };
  const answer = await callWithRetries<Invoice>(api, 'POST', `/invoices/${encodeURIComponent(remittance.invoiceId)}/payments`, { body, ...options });
  return { invoice: answer.body, replayed: answer.headers.get('idempotent-replayed') === 'true', attempts: answer.attempts };
}

async function main(): Promise<void> {
  const api = demoApi();
  const ledger = new Map<string, Invoice>();
  const first = await pullInvoices(api, ledger, null);
  console.log(`first pull: ${first.fetched} invoices, watermark ${first.watermark}`);
  const open = [...ledger.values()].find((invoice) => invoice.Status === 'Open' || invoice.Status === 'PartiallyPaid');
  if (open) {
    const remittance: Remittance = {
      remittanceId: `demo-${open.Id}`,
      invoiceId: open.Id,
      amount: Math.min(100, open.RemainingBalance.Amount),
      paymentDate: new Date().toISOString(),
      method: 'ACH',
    };
    const posted = await postPayment(api, remittance);
    console.log(`payment on ${open.Number}: ${posted.invoice.Status}, remaining ${posted.invoice.RemainingBalance.Amount}, replayed ${posted.replayed}`);
    const again = await postPayment(api, remittance);
    console.log(`the same remittance again: replayed ${again.replayed}, remaining ${again.invoice.RemainingBalance.Amount}`);
  }
  const second = await pullInvoices(api, ledger, first.watermark);
  console.log(`second pull: ${second.fetched} invoices changed since (the watermark's own come again)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
