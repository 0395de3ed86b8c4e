/**
 * The 210 (motor carrier freight details and invoice) of one load of an invoice
 * (docs/edi.md#outbound-210). 004010 B3: 01 shipment qualifier (unused), 02 invoice number,
 * 03 shipment id, 04 method of payment (`PP` prepaid), 05 weight unit (unused), 06 invoice date,
 * 07 net amount due (N2: cents), 08 correction indicator (unused), 09 delivery date with 10 its
 * qualifier `035` (delivered), 11 SCAC. Then N9 per tender reference (qualifier and value as
 * received), the parties (N1 `SH` shipper, `CN` consignee, `BT` bill-to, each with N3/N4 when
 * its address is known), one LX/L1 per line item (L1-01 line number, 02 rate with 03 `FR` flat
 * or `PU` per unit, 04 charge in cents, 12 description) and L3-05 the total. B3-07, the sum of
 * the L1-04 charges and L3-05 are one number.
 */
import { formatX12Date } from '../x12/index.js';
import { decimalOfCents, element, impliedCents, segment } from './elements.js';
import type { ReceivedReference } from './reference-qualifiers.js';

export interface PartyAddress {
  street: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
}

export interface InvoiceParty {
  code: 'SH' | 'CN' | 'BT';
  name: string;
  address: PartyAddress | null;
}

export interface InvoiceLine {
  description: string;
  quantity: number;
  /** Minor units. */
  rate: number;
  /** Minor units. */
  amount: number;
}

export interface FreightInvoice {
  scac: string;
  invoiceNumber: string;
  shipmentId: string;
  invoicedAt: Date;
  /** The final stop's DepartedAt; null leaves B3-09 out. */
  deliveredAt: Date | null;
  references: readonly ReceivedReference[];
  parties: readonly InvoiceParty[];
  lines: readonly InvoiceLine[];
}

function party(party: InvoiceParty): string[][] {
  const segments = [segment('N1', party.code, element(party.name, 60))];
  const address = party.address;
  if (!address) return segments;
  const street = element(address.street, 55);
  if (street) segments.push(segment('N3', street));
  const city = element(address.city, 30);
  if (city.length >= 2) {
    const state = element(address.state, 2).toUpperCase();
    const country = element(address.country, 3).toUpperCase();
    segments.push(
      segment(
        'N4',
        city,
        /^[A-Z]{2}$/.test(state) && element(address.state, 3).length === 2 ? state : '',
        element(address.zipCode, 15),
        /^[A-Z]{2,3}$/.test(country) ? country : '',
      ),
    );
  }
  return segments;
}

export function map210(invoice: FreightInvoice): string[][] {
  const total = invoice.lines.reduce((sum, line) => sum + line.amount, 0);
  const delivered = invoice.deliveredAt ? formatX12Date(invoice.deliveredAt) : '';
  const body = [
    segment(
      'B3',
      '',
      element(invoice.invoiceNumber, 22),
      element(invoice.shipmentId, 30),
      'PP',
      '',
      formatX12Date(invoice.invoicedAt),
      impliedCents(total),
      '',
      delivered,
      delivered ? '035' : '',
      element(invoice.scac, 4),
    ),
  ];
  for (const reference of invoice.references) {
    const value = element(reference.value, 30);
    if (value) body.push(segment('N9', reference.qualifier, value));
  }
  for (const each of invoice.parties) if (element(each.name, 60)) body.push(...party(each));
  invoice.lines.forEach((line, index) => {
    const number = String(index + 1);
    const description = element(line.description, 25);
    body.push(segment('LX', number));
    body.push(
      segment(
        'L1',
        number,
        decimalOfCents(line.rate),
        line.quantity === 1 ? 'FR' : 'PU',
        impliedCents(line.amount),
        '',
        '',
        '',
        '',
        '',
        '',
        '',
        description.length >= 2 ? description : '',
      ),
    );
  });
  body.push(segment('L3', '', '', '', '', impliedCents(total)));
  return body;
}
