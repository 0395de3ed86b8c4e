import { isDeepStrictEqual } from 'node:util';
import type { Db } from '../../db/create-db.js';
import { deleteDetentionCharge, saveDetentionCharge } from '../accessorials/detention-charge.repository.js';
import type { Clock } from '../clock.js';
import { customerDetentionTerms } from '../customers/customer.repository.js';
import { locationFreeMinutes } from '../locations/location.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { utcCalendarDate } from '../shared/money-input.js';
import { appendDetentionEvent } from './detention-events.js';
import {
  billedAmount,
  billedHoursHundredths,
  clockStartOf,
  detentionMinutes,
  freeMinutesOf,
  isPast,
  plusMinutes,
  type ScheduledStop,
} from './detention-clock.js';
import { deleteStopDetention, lockStopDetention, saveStopDetention, toDetention, type StopDetentionRow } from './stop-detention.repository.js';

/** A stop after a write that changed (or may have changed) its ArrivedAt or DepartedAt. */
export interface StopVisit {
  tenantId: string;
  /** The trip's subsidiary: the detention events are routed like trip events. */
  subsidiaryId: string | null;
  tripId: string;
  loadNumber: string;
  /** The load's customer, whose free time and DetentionRate apply; null when the load has none. */
  customerId: string | null;
  /** The calling client: CreatedBy of a detention accessorial this adds. */
  clientId: string | null;
  stop: Omit<ScheduledStop, 'arrived_at'> & {
    id: string;
    location_id: string | null;
    arrived_at: string | null;
    departed_at: string | null;
  };
}

/**
 * The one entry point of the stop writes (docs/api-rules.md#detention): call it in the write's
 * transaction after any change of a stop's ArrivedAt or DepartedAt (an arrival, a departure, a
 * correction of either, a cleared arrival), manual or geofence. It brings the stop's detention
 * in line with its times:
 *
 * - free time and the clock's start are fixed for each ArrivedAt (a corrected arrival fixes
 *   them again; later changes of the location, customer or appointment do not move them);
 * - free time exceeded (by now, or by the DepartedAt) and not yet announced: the Detention
 *   starts and `stop.detention.started` is emitted (a late arrival or departure);
 * - departed with detention: the customer with a DetentionRate is billed (one accessorial per
 *   stop, updated by a corrected departure) and `stop.detention.ended` is emitted, again when a
 *   correction changes the Detention;
 * - a correction (or a cleared arrival) that leaves the stop within its free time withdraws a
 *   started Detention: its accessorial is removed and `stop.detention.ended` carries
 *   `Detention: null`.
 */
export async function onStopVisitChanged(trx: Db, clock: Clock, visit: StopVisit): Promise<void> {
  const { stop } = visit;
  const before = await lockStopDetention(trx, visit.tenantId, stop.id);
  const now = formatStoredDateTime(clock.now());
  if (stop.arrived_at === null) {
    if (before) await withdraw(trx, clock, before);
    return;
  }

  const terms = before && before.arrived_at === stop.arrived_at ? before : await freshTerms(trx, visit, stop.arrived_at);
  const after: StopDetentionRow = {
    ...terms,
    subsidiary_id: visit.subsidiaryId,
    load_number: visit.loadNumber,
    departed_at: stop.departed_at,
    accessorial_id: before?.accessorial_id ?? null,
    created_at: before?.created_at ?? now,
    updated_at: now,
  };
  after.started = isPast(after.due_at, stop.departed_at ?? now) ? 1 : 0;
  if (after.started === 0) after.accessorial_id = null;
  const ended = stop.departed_at !== null && after.started === 1;
  if (ended) after.accessorial_id = await bill(trx, visit, after, now);
  if (before?.accessorial_id && before.accessorial_id !== after.accessorial_id) await deleteDetentionCharge(trx, visit.tenantId, before.accessorial_id);
  await saveStopDetention(trx, after, before !== undefined);

  const wasStarted = before?.started === 1;
  if (!wasStarted && after.started === 1) {
    await appendDetentionEvent(trx, clock, 'stop.detention.started', after, { ...toDetention(after)!, EndedAt: null, Minutes: null, AccessorialId: null });
  }
  if (wasStarted && after.started === 0) await appendDetentionEvent(trx, clock, 'stop.detention.ended', after, null);
  if (ended && !isDeepStrictEqual(toDetention(before), toDetention(after))) {
    await appendDetentionEvent(trx, clock, 'stop.detention.ended', after, toDetention(after));
  }
}

/** The terms fixed for one ArrivedAt: free time (location, customer, 120) and when it runs out. */
async function freshTerms(trx: Db, visit: StopVisit, arrivedAt: string): Promise<Omit<StopDetentionRow, 'created_at' | 'updated_at'>> {
  const { stop } = visit;
  const [locationMinutes, customer] = await Promise.all([
    stop.location_id === null ? null : locationFreeMinutes(trx, visit.tenantId, stop.location_id),
    visit.customerId === null ? null : customerDetentionTerms(trx, visit.tenantId, visit.customerId),
  ]);
  const freeMinutes = freeMinutesOf(locationMinutes, customer?.freeMinutes ?? null);
  const clockStart = clockStartOf({ ...stop, arrived_at: arrivedAt });
  return {
    stop_id: stop.id,
    tenant_id: visit.tenantId,
    subsidiary_id: visit.subsidiaryId,
    trip_id: visit.tripId,
    load_number: visit.loadNumber,
    arrived_at: arrivedAt,
    free_minutes: freeMinutes,
    clock_start: clockStart,
    due_at: plusMinutes(clockStart, freeMinutes),
    started: 0,
    departed_at: null,
    accessorial_id: null,
  };
}

/** Bills a departed stop's detention to a customer with a DetentionRate; answers the accessorial's id, null when not billed. */
async function bill(trx: Db, visit: StopVisit, row: StopDetentionRow, now: string): Promise<string | null> {
  if (visit.customerId === null || row.departed_at === null) return null;
  const customer = await customerDetentionTerms(trx, visit.tenantId, visit.customerId);
  if (customer.rate === null) return null;
  const minutes = detentionMinutes(row.due_at, row.departed_at);
  const hours = billedHoursHundredths(minutes);
  return saveDetentionCharge(
    trx,
    {
      tenantId: visit.tenantId,
      subsidiaryId: customer.subsidiaryId,
      customerId: visit.customerId,
      tripId: visit.tripId,
      stopId: row.stop_id,
      description: `Detention, ${minutes} min`,
      quantityHundredths: hours,
      rate: customer.rate.minor,
      amount: billedAmount(hours, customer.rate.minor),
      currency: customer.rate.currency,
      date: utcCalendarDate(row.departed_at),
      createdBy: visit.clientId,
      now,
    },
    row.accessorial_id,
  );
}

/** A cleared arrival takes the stop's detention away: its row and accessorial go, and a started one ends with Detention null. */
async function withdraw(trx: Db, clock: Clock, before: StopDetentionRow): Promise<void> {
  await deleteStopDetention(trx, before.tenant_id, before.stop_id);
  if (before.accessorial_id) await deleteDetentionCharge(trx, before.tenant_id, before.accessorial_id);
  if (before.started === 1) await appendDetentionEvent(trx, clock, 'stop.detention.ended', before, null);
}
