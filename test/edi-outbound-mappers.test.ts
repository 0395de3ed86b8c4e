import { describe, expect, it } from 'vitest';
import { map210, type FreightInvoice } from '../core/edi/outbound/map-210.js';
import { map214, statusCodeOfVisit, type ShipmentStatus } from '../core/edi/outbound/map-214.js';
import { map990 } from '../core/edi/outbound/map-990.js';
import { qualifierOf } from '../core/edi/outbound/reference-qualifiers.js';
import { emitForTest, expectValidRoundTrip } from './support/edi-outbound-checks.js';

const answeredAt = new Date('2026-11-27T15:42:10Z');

describe('990 (docs/edi.md#outbound-990)', () => {
  it('accepts with B1 A and our load number in N9 CN', () => {
    const body = map990({ scac: 'WBLX', shipmentId: 'SHP-1001', answeredAt, answer: 'Accepted', loadNumber: 'L-123', reason: null });
    expect(body).toEqual([
      ['B1', 'WBLX', 'SHP-1001', '20261127', 'A'],
      ['N9', 'CN', 'L-123'],
    ]);
    expect(expectValidRoundTrip(emitForTest('990', body), '990')).toEqual(body);
  });

  it('declines with B1 D and the reason in 30-character K1 pieces, two per segment', () => {
    const reason = 'No equipment available in the origin area for the requested pickup window, sorry';
    const body = map990({ scac: 'WBLX', shipmentId: 'SHP-1001', answeredAt, answer: 'Rejected', loadNumber: null, reason: reason.slice(0, 75) });
    expect(body[0]).toEqual(['B1', 'WBLX', 'SHP-1001', '20261127', 'D']);
    const k1 = body.filter((segment) => segment[0] === 'K1');
    expect(k1).toHaveLength(2);
    expect(k1.flatMap((segment) => segment.slice(1))).toHaveLength(3);
    expect(k1.flatMap((segment) => segment.slice(1)).join('')).toBe(reason.slice(0, 75).trim());
    expect(k1.every((segment) => segment.slice(1).every((piece) => piece.length >= 1 && piece.length <= 30))).toBe(true);
    expect(body.some((segment) => segment[0] === 'N9')).toBe(false);
    expectValidRoundTrip(emitForTest('990', body), '990');
  });

  it('never lets a separator of ours inside an element', () => {
    const body = map990({ scac: 'WBLX', shipmentId: 'S*1~2>3', answeredAt, answer: 'Rejected', loadNumber: null, reason: 'bad*rate~too low>now' });
    expect(body.flat().join('')).not.toMatch(/[*~>]/);
    expectValidRoundTrip(emitForTest('990', body), '990');
  });
});

const status: ShipmentStatus = {
  scac: 'WBLX',
  loadNumber: 'L-123',
  shipmentId: 'SHP-1001',
  references: [
    { qualifier: 'PO', value: 'PO-778' },
    { qualifier: 'BM', value: 'BOL-55' },
  ],
  code: 'X3',
  at: new Date('2026-11-28T08:05:00Z'),
  place: { city: 'Dallas', state: 'TX', country: 'US' },
  truckNumber: 'T-42',
};

describe('214 (docs/edi.md#outbound-214)', () => {
  it('maps visits to AT7 codes', () => {
    expect(statusCodeOfVisit('Pickup', 'Arrival')).toBe('X3');
    expect(statusCodeOfVisit('Pickup', 'Departure')).toBe('AF');
    expect(statusCodeOfVisit('Delivery', 'Arrival')).toBe('X1');
    expect(statusCodeOfVisit('Delivery', 'Departure')).toBe('CD');
    expect(statusCodeOfVisit('Waypoint', 'Arrival')).toBeNull();
  });

  it('writes B10, the references, LX, AT7, MS1 and MS2', () => {
    const body = map214(status);
    expect(body).toEqual([
      ['B10', 'L-123', 'SHP-1001', 'WBLX'],
      ['L11', 'PO-778', 'PO'],
      ['L11', 'BOL-55', 'BM'],
      ['LX', '1'],
      ['AT7', 'X3', 'NS', '', '', '20261128', '0805', 'UT'],
      ['MS1', 'Dallas', 'TX', 'US'],
      ['MS2', 'WBLX', 'T-42'],
    ]);
    expect(expectValidRoundTrip(emitForTest('214', body), '214')).toEqual(body);
  });

  it('leaves MS2 out without a truck and MS1 out without a city and a two-letter state', () => {
    const body = map214({ ...status, code: 'X6', truckNumber: null, place: { city: 'Dallas', state: 'Texas', country: 'US' } });
    expect(body.map((segment) => segment[0])).toEqual(['B10', 'L11', 'L11', 'LX', 'AT7']);
    expectValidRoundTrip(emitForTest('214', body), '214');
  });
});

const invoice: FreightInvoice = {
  scac: 'WBLX',
  invoiceNumber: 'INV-7',
  shipmentId: 'SHP-1001',
  invoicedAt: new Date('2026-11-30T00:00:00Z'),
  deliveredAt: new Date('2026-11-29T17:30:00Z'),
  references: [{ qualifier: 'PO', value: 'PO-778' }],
  parties: [
    { code: 'SH', name: 'Acme Plant', address: { street: '1 Main St', city: 'Dallas', state: 'TX', zipCode: '75201', country: 'US' } },
    { code: 'CN', name: 'Acme DC', address: { street: '9 Dock Rd', city: 'Tulsa', state: 'OK', zipCode: '74103', country: null } },
    { code: 'BT', name: 'Acme Corp', address: null },
  ],
  lines: [
    { description: 'LineHaul', quantity: 1, rate: 150000, amount: 150000 },
    { description: 'Detention', quantity: 2.5, rate: 7550, amount: 18875 },
  ],
};

describe('210 (docs/edi.md#outbound-210)', () => {
  it('writes B3 in its 004010 positions, N9, the parties, LX/L1 per line and L3', () => {
    const body = map210(invoice);
    expect(body).toEqual([
      ['B3', '', 'INV-7', 'SHP-1001', 'PP', '', '20261130', '168875', '', '20261129', '035', 'WBLX'],
      ['N9', 'PO', 'PO-778'],
      ['N1', 'SH', 'Acme Plant'],
      ['N3', '1 Main St'],
      ['N4', 'Dallas', 'TX', '75201', 'US'],
      ['N1', 'CN', 'Acme DC'],
      ['N3', '9 Dock Rd'],
      ['N4', 'Tulsa', 'OK', '74103'],
      ['N1', 'BT', 'Acme Corp'],
      ['LX', '1'],
      ['L1', '1', '1500', 'FR', '150000', '', '', '', '', '', '', '', 'LineHaul'],
      ['LX', '2'],
      ['L1', '2', '75.5', 'PU', '18875', '', '', '', '', '', '', '', 'Detention'],
      ['L3', '', '', '', '', '168875'],
    ]);
    expect(expectValidRoundTrip(emitForTest('210', body), '210')).toEqual(body);
  });

  it('makes B3-07, the sum of L1-04 and L3-05 one number', () => {
    const body = map210({ ...invoice, lines: [...invoice.lines, { description: 'Fuel credit', quantity: 1, rate: -2599, amount: -2599 }] });
    const l1 = body.filter((segment) => segment[0] === 'L1').reduce((sum, segment) => sum + Number(segment[4]), 0);
    const b3 = Number(body.find((segment) => segment[0] === 'B3')![7]);
    const l3 = Number(body.find((segment) => segment[0] === 'L3')![5]);
    expect(l1).toBe(166276);
    expect(b3).toBe(l1);
    expect(l3).toBe(l1);
  });

  it('leaves the delivery date and its qualifier out when the load has none', () => {
    const body = map210({ ...invoice, deliveredAt: null });
    expect(body[0]).toEqual(['B3', '', 'INV-7', 'SHP-1001', 'PP', '', '20261130', '168875', '', '', '', 'WBLX']);
    expectValidRoundTrip(emitForTest('210', body), '210');
  });
});

describe('reference qualifiers (docs/edi.md#outbound-210)', () => {
  it('gives back the qualifier a 204 named the reference from', () => {
    expect(qualifierOf('PO Number')).toBe('PO');
    expect(qualifierOf('Bill of Lading')).toBe('BM');
    expect(qualifierOf('Customer Reference')).toBe('CR');
    expect(qualifierOf("Shipper's Identifying Number")).toBe('SI');
    expect(qualifierOf('AO')).toBe('AO');
    expect(qualifierOf('Dock door')).toBe('ZZ');
  });
});
