import type { Db } from '../../db/create-db.js';
import { customerChargesOfTrips } from '../accessorials/customer-charges.repository.js';
import { AppError, notFound } from '../errors.js';
import { getLoadRecord, type LoadRecord } from '../loads/load.repository.js';
import { DEFAULT_CURRENCY, toMinorUnits } from '../shared/money.js';
import type { Scope } from '../shared/scope.js';
import { findTripRecords, type TripRecord } from '../trips/trip.repository.js';
import { loadsOnLiveInvoices } from './invoice-write.repository.js';

/** A line an invoice bills, in minor units (Quantity × 100). */
export interface BilledLine {
  description: string;
  type: string;
  quantityHundredths: number;
  rate: number;
  amount: number;
  currency: number;
  loadNumber: string;
}

export interface Billing {
  lines: BilledLine[];
  /** The one currency of every line; USD when there are none. */
  currency: number;
  /** The sum of the lines' amounts. */
  total: number;
  /** The loads' subsidiary when they share one, else null. */
  loadsSubsidiaryId: string | null;
}

function conflict(subtype: 'InvalidState' | 'InUse', loadNumber: string, detail: string): AppError {
  return new AppError('CONFLICT', detail, { subtype, extensions: { LoadNumber: loadNumber } });
}

/** Every trip of a load, whatever its subsidiary (a trip of the load is billed with it). */
async function tripsOfLoad(db: Db, tenantId: string, loadNumber: string): Promise<TripRecord[]> {
  const trips: TripRecord[] = [];
  for (let page = 0; ; page += 1) {
    const found = await findTripRecords(db, { tenantId, subsidiaryId: null }, { LoadNumber: loadNumber, Page: page, PageSize: 100 });
    trips.push(...found.items);
    if (found.items.length < 100 || trips.length >= found.total) return trips;
  }
}

/**
 * The loads an invoice may bill, in the order named (docs/api-rules.md#invoices): each one in the
 * caller's scope (404 naming it), then each the customer's and Delivered (409
 * Conflict/InvalidState) and on no invoice that is not Void (409 Conflict/InUse). All lookups
 * come before any business rule, as the order of checks requires.
 */
export async function billableLoads(db: Db, scope: Scope, customerId: string, loadNumbers: readonly string[]): Promise<LoadRecord[]> {
  const loads: LoadRecord[] = [];
  for (const loadNumber of loadNumbers) {
    const record = await getLoadRecord(db, scope, loadNumber);
    if (!record) throw notFound(`Load ${loadNumber}`);
    loads.push(record);
  }
  for (const { row } of loads) {
    if (row.customer_id !== customerId) {
      throw conflict('InvalidState', row.load_number, `Load ${row.load_number} is not a load of customer ${customerId}.`);
    }
    if (row.status !== 'Delivered') {
      throw conflict('InvalidState', row.load_number, `Load ${row.load_number} is ${row.status}: only Delivered loads can be invoiced.`);
    }
  }
  await refuseInvoicedLoads(db, scope.tenantId, loadNumbers);
  return loads;
}

/** 409 Conflict/InUse naming the first of `loadNumbers` an invoice that is not Void bills. */
export async function refuseInvoicedLoads(db: Db, tenantId: string, loadNumbers: readonly string[]): Promise<void> {
  const invoiced = await loadsOnLiveInvoices(db, tenantId, loadNumbers);
  const first = loadNumbers.find((loadNumber) => invoiced.has(loadNumber));
  if (first !== undefined) throw invoicedLoad(first);
}

export function invoicedLoad(loadNumber: string): AppError {
  return conflict('InUse', loadNumber, `Load ${loadNumber} is already on an invoice that is not Void; void that invoice first.`);
}

/**
 * What an invoice of these loads bills (docs/api-rules.md#invoices): per load, in the order
 * named, the line items of its trips that were not Cancelled (Quantity 1, Rate = Amount), then the
 * customer's accessorials on any of its trips (detention included), each with its LoadNumber.
 * Every line must be in one currency: a mix is 422 Unprocessable/MixedCurrencies naming the load
 * whose line differs from the first line's currency, since one Total cannot add them up.
 */
export async function billingOf(db: Db, tenantId: string, customerId: string, loads: readonly LoadRecord[]): Promise<Billing> {
  const lines: BilledLine[] = [];
  const tripsByLoad = new Map<string, TripRecord[]>();
  for (const { row } of loads) tripsByLoad.set(row.load_number, await tripsOfLoad(db, tenantId, row.load_number));
  const loadOfTrip = new Map([...tripsByLoad].flatMap(([loadNumber, trips]) => trips.map((record) => [record.trip.Id, loadNumber] as const)));
  const charges = await customerChargesOfTrips(db, tenantId, customerId, [...loadOfTrip.keys()]);

  for (const [loadNumber, trips] of tripsByLoad) {
    for (const { trip } of trips) {
      if (trip.Status === 'Cancelled') continue;
      for (const item of trip.LineItems) {
        const amount = toMinorUnits(item.Amount.Amount);
        const currency = item.Amount.Currency ?? DEFAULT_CURRENCY;
        lines.push({ description: item.Description, type: item.Type, quantityHundredths: 100, rate: amount, amount, currency, loadNumber });
      }
    }
    for (const charge of charges.filter((candidate) => loadOfTrip.get(candidate.tripId) === loadNumber)) {
      lines.push({
        description: charge.description,
        type: charge.typeName,
        quantityHundredths: charge.quantityHundredths,
        rate: charge.rate,
        amount: charge.amount,
        currency: charge.currency,
        loadNumber,
      });
    }
  }

  const currency = lines[0]?.currency ?? DEFAULT_CURRENCY;
  const odd = lines.find((line) => line.currency !== currency);
  if (odd) {
    throw new AppError(
      'UNPROCESSABLE',
      `Load ${odd.loadNumber} bills "${odd.description}" in currency ${odd.currency}, the invoice's other lines in ${currency}: one invoice is in one currency, so invoice these loads separately.`,
      { subtype: 'MixedCurrencies', extensions: { LoadNumber: odd.loadNumber } },
    );
  }
  const subsidiaries = new Set(loads.map(({ row }) => row.subsidiary_id));
  return {
    lines,
    currency,
    total: lines.reduce((sum, line) => sum + line.amount, 0),
    loadsSubsidiaryId: subsidiaries.size === 1 ? [...subsidiaries][0]! : null,
  };
}
