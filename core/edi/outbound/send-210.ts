/**
 * The 210s of a created invoice (docs/edi.md#outbound-210), in the invoice's transaction: one
 * per load of the invoice that an Active partner with `210` tendered, since a 210 invoices one
 * shipment (B3-03). Its lines are the invoice's lines of that load, so B3-07 is that load's part
 * of the invoice; the parties are the tender's first pickup (SH) and last delivery (CN), named
 * and addressed as the shipper sent them, and the customer billed (BT). Voiding an invoice sends
 * nothing (docs/edi.md#outbound-210).
 */
import type { Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { getCustomerRow } from '../../customers/customer.repository.js';
import type { TInvoice } from '../../invoices/invoice.schemas.js';
import { getLoadRecord } from '../../loads/load.repository.js';
import { toMinorUnits } from '../../shared/money.js';
import type { TTenderStop } from '../../tenders/tender.schemas.js';
import { sendEdiDocument } from '../send-edi-document.js';
import { findPartnerLoads } from './edi-links.repository.js';
import { map210, type InvoiceParty } from './map-210.js';
import { exchanges } from './partner-sets.js';
import { receivedReferences } from './reference-qualifiers.js';

function stopParty(code: 'SH' | 'CN', stop: TTenderStop | undefined): InvoiceParty[] {
  if (!stop) return [];
  const { Street, City, State, ZipCode, Country } = stop.Address;
  return [{ code, name: stop.CompanyName ?? City, address: { street: Street, city: City, state: State, zipCode: ZipCode, country: Country } }];
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
    const final = (record?.load.Trips ?? [])
      .filter((trip) => trip.Status !== 'Cancelled')
      .flatMap((trip) => trip.Stops)
      .at(-1);
    const tendered = JSON.parse(link.stopsJson) as TTenderStop[];
    const body = map210({
      scac: link.partner.our.scac,
      invoiceNumber: invoice.Number,
      shipmentId: link.shipmentId,
      invoicedAt: new Date(invoice.InvoicedDate),
      deliveredAt: final?.DepartedAt ? new Date(final.DepartedAt) : null,
      references: receivedReferences(JSON.parse(link.referencesJson) as { Name: string; Value: string }[]),
      parties: [
        ...stopParty('SH', tendered.find((stop) => stop.StopType === 'Pickup')),
        ...stopParty('CN', tendered.findLast((stop) => stop.StopType === 'Delivery')),
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
