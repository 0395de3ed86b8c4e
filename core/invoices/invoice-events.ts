import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { appendEvent } from '../events/outbox.repository.js';
import type { TInvoice, TInvoicePayment } from './invoice.schemas.js';

/**
 * The events of a recorded payment, in the caller's transaction, routed by the invoice's
 * subsidiary (every subscription of the tenant when it has none): `invoice.payment.recorded`
 * with the invoice and the payment, and `invoice.paid` with the invoice when the payment
 * completed it.
 */
export async function appendPaymentEvents(
  trx: Db,
  clock: Clock,
  event: { tenantId: string; invoice: TInvoice; payment: TInvoicePayment },
): Promise<void> {
  const route = { tenantId: event.tenantId, subsidiaryId: event.invoice.SubsidiaryId };
  await appendEvent(trx, clock, { ...route, type: 'invoice.payment.recorded', data: { ...event.invoice, Payment: event.payment } });
  if (event.invoice.Status === 'Paid') await appendEvent(trx, clock, { ...route, type: 'invoice.paid', data: event.invoice });
}

/**
 * What follows an invoice's creation in its transaction: the EDI 210s of its loads tendered by a
 * partner (docs/edi.md#outbound-210). core/edi sits above invoices, so the composition root (core/router.ts) hands it in
 * here instead of this module importing it.
 */
export type InvoiceCreationFollower = (trx: Db, clock: Clock, tenantId: string, invoice: TInvoice) => Promise<void>;

let creationFollower: InvoiceCreationFollower | null = null;

export function followInvoiceCreation(next: InvoiceCreationFollower): void {
  creationFollower = next;
}

/**
 * `invoice.created` (data: the invoice) or `invoice.voided` (data: the invoice, with the Reason
 * when one was given), in the caller's transaction, routed like the payment events.
 */
export async function appendInvoiceEvent(
  trx: Db,
  clock: Clock,
  event: { tenantId: string; type: 'invoice.created' | 'invoice.voided'; invoice: TInvoice; reason?: string | null },
): Promise<void> {
  const data = event.reason ? { ...event.invoice, Reason: event.reason } : event.invoice;
  await appendEvent(trx, clock, { tenantId: event.tenantId, subsidiaryId: event.invoice.SubsidiaryId, type: event.type, data });
  if (event.type === 'invoice.created' && creationFollower) await creationFollower(trx, clock, event.tenantId, event.invoice);
}
