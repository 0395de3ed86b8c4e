/**
 * The 210s of a created invoice (docs/edi.md#outbound-210), in the invoice's transaction: one
 * per load of the invoice that an Active partner with `210` tendered, since a 210 invoices one
 * shipment (B3-03). Its lines are the invoice's lines of that load, so B3-07 is that load's part
 * of the invoice; the parties are the load's first pickup (SH), its last delivery (CN) and the
 * customer billed (BT). Voiding an invoice sends nothing (docs/edi.md#outbound-210).
 */
import type { Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { getCustomerRow } from '../../customers/customer.repository.js';
import type { TInvoice } from '../../invoices/invoice.schemas.js';
import { getLoadRecord } from '../../loads/load.repository.js';
import { toMinorUnits } from '../../shared/money.js';
import type { TStop } from '../../trips/trip.schemas.js';
import { sendEdiDocument } from '../send-edi-document.js';
import { findPartnerLoads } from './edi-links.repository.js';
import { map210, type InvoiceParty, type PartyAddress } from './map-210.js';
import { exchanges } from './partner-sets.js';
import { receivedReferences } from './reference-qualifiers.js';

function stopParty(code: 'SH' | 'CN', stop: TStop | undefined): InvoiceParty[] {
  if (!stop) return [];
  const address: PartyAddress | null = stop.Address
    ? { street: stop.Address.Street, city: stop.Address.City, state: stop.Address.State, zipCode: stop.Address.ZipCode, country: stop.Address.Country ?? null }
    : null;
  const name = stop.CompanyName ?? stop.Address?.City ?? null;
  return name ? [{ code, name, address }] : [];
}

export async function send210sOfInvoice(trx: Db, clock: Clock, tenantId: string, invoice: TInvoice): Promise<void> {
  const links = (await findPartnerLoads(trx, tenantId, invoice.LoadNumbers)).filter((link) => exchanges(link.partner, '210'));
  if (links.length === 0) return;
  // Server-side reads for a write the caller was allowed to make: the tenant is the scope.
  const tenantScope = { tenantId, subsidiaryId: null };
  const customer = await getCustomerRow(trx, tenantScope, invoice.CustomerId);
  const billTo: InvoiceParty[] = customer
    ? [
        {
          code: 'BT',
          name: customer.invoicing_name ?? customer.name,
          address: {
            street: customer.billing_street,
            city: customer.billing_city,
            state: customer.billing_state,
            zipCode: customer.billing_zip_code,
            country: customer.billing_country,
          },
        },
      ]
    : [];
  for (const link of links) {
    const record = await getLoadRecord(trx, tenantScope, link.loadNumber);
    const stops = (record?.load.Trips ?? []).filter((trip) => trip.Status !== 'Cancelled').flatMap((trip) => trip.Stops);
    const final = stops.at(-1);
    const body = map210({
      scac: link.partner.our.scac,
      invoiceNumber: invoice.Number,
      shipmentId: link.shipmentId,
      invoicedAt: new Date(invoice.InvoicedDate),
      deliveredAt: final?.DepartedAt ? new Date(final.DepartedAt) : null,
      references: receivedReferences(JSON.parse(link.referencesJson) as { Name: string; Value: string }[]),
      parties: [
        ...stopParty('SH', stops.find((stop) => stop.StopType === 'Pickup')),
        ...stopParty('CN', stops.findLast((stop) => stop.StopType === 'Delivery')),
        ...billTo,
      ],
      lines: invoice.LineItems.filter((line) => line.LoadNumber === link.loadNumber).map((line) => ({
        description: line.Description,
        quantity: line.Quantity,
        rate: toMinorUnits(line.Rate.Amount),
        amount: toMinorUnits(line.Amount.Amount),
      })),
    });
    await sendEdiDocument(trx, clock, { partner: link.partner, set: '210', body, loadId: link.loadId, invoiceId: invoice.Id });
  }
}
