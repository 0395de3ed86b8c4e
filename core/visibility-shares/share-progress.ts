/**
 * What a load shares with its customer's visibility integration, and when
 * (docs/api-rules.md#visibility): positions at most once per load every 15
 * minutes, every stop arrival and departure, and the delivery ETA (the final stop's Live, else
 * Planned: the ETA model's estimates) when first computed and then whenever it moves 15 minutes
 * or more from the last one shared. Manual ETAs are the dispatcher's own and are not shared.
 * Both entry points run in the transaction of the change they report.
 */
import { dialectOf, type Db } from '../../db/create-db.js';
import type { AssetPositionColumns } from '../../db/tables/asset-positions.js';
import type { Clock } from '../clock.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import {
  appendShares,
  claimShareStates,
  findShareTargets,
  saveShareStates,
  type LoadShareState,
  type ShareDraft,
  type ShareLink,
  type ShareState,
  type ShareTarget,
} from './share.repository.js';
import type { TShareAddress } from './share.schemas.js';

const FIFTEEN_MINUTES_MS = 15 * 60_000;

export function locationDue(lastSharedAt: string | null, now: number): boolean {
  return lastSharedAt === null || now - Date.parse(lastSharedAt) >= FIFTEEN_MINUTES_MS;
}

export function etaDue(lastShared: string | null, eta: string): boolean {
  return lastShared === null || Math.abs(Date.parse(eta) - Date.parse(lastShared)) >= FIFTEEN_MINUTES_MS;
}

function draftOf(target: ShareLink, fields: Pick<ShareDraft, 'eventType' | 'type' | 'stopId' | 'coordinates' | 'address'>, data: object): ShareDraft {
  return {
    tenantId: target.tenantId,
    subsidiaryId: target.subsidiaryId,
    customerId: target.customerId,
    loadId: target.loadId,
    loadNumber: target.loadNumber,
    tripId: target.tripId,
    tripNumber: target.tripNumber,
    ...fields,
    data: { LoadNumber: target.loadNumber, TripId: target.tripId, TripNumber: target.tripNumber, ...data },
  };
}

function stateOf(target: ShareTarget): LoadShareState {
  return { loadId: target.loadId, tenantId: target.tenantId, locationSharedAt: target.locationSharedAt, etaShared: target.etaShared };
}

/** A held reading attached to a trip whose load shares its progress. */
export interface SharedReading {
  row: AssetPositionColumns;
  link: ShareLink;
}

/** The delivery stop's new Live ETA of a trip, after a batch refreshed it. */
export interface DeliveryEta {
  stopId: string;
  eta: string;
}

function positionAddress(row: AssetPositionColumns): TShareAddress | null {
  const address = { Street: row.street, City: row.city, State: row.state, ZipCode: row.zip_code, Country: row.country };
  return Object.values(address).every((value) => value === null) ? null : address;
}

const NEVER_SHARED: ShareState = { locationSharedAt: null, etaShared: null };

/**
 * The shares of a batch of held positions, set-wise. The trips' links to their loads' customers
 * come from the batch's lookups, and the loads' share state from a read the batch's transaction
 * made anyway (position.repository.ts `holdAndAppendPositions`), so a batch with nothing due
 * costs no statement here. A load shares the newest reading of the batch when its last location
 * share is 15 minutes old or more, and a delivery ETA as `etaDue` says.
 *
 * On Postgres what looks due is claimed before it is written (`claimShareStates`: the state rows
 * locked, their latest values) and decided again on what they hold: another process may have
 * shared the same load since the read. What did not look due stays so: a location share only moves
 * forward, and a decision not to write is one this transaction could have made before the
 * other's. Then one insert of outbox entries, one of shares and one upsert of the loads' state.
 */
export async function sharePositionBatch(
  trx: Db,
  clock: Clock,
  readings: readonly SharedReading[],
  deliveryEtas: ReadonlyMap<string, { link: ShareLink; delivery: DeliveryEta }>,
  read: ReadonlyMap<string, ShareState>,
): Promise<void> {
  if (readings.length === 0 && deliveryEtas.size === 0) return;
  const now = clock.now().getTime();
  const looked = planShares(readings, deliveryEtas, read, now);
  if (looked.changed.length === 0) return;
  // SQLite has one writer (WEB_CONCURRENCY needs Postgres) and batches commit one at a time: the
  // transaction's read is current there, and what it decided stands.
  const { drafts, changed } =
    dialectOf(trx) === 'postgres' ? planShares(readings, deliveryEtas, new Map([...read, ...(await claimShareStates(trx, looked.changed))]), now) : looked;
  await appendShares(trx, clock, drafts);
  await saveShareStates(trx, changed);
}

/** The shares due given the loads' state, and the loads' state after them. */
function planShares(
  readings: readonly SharedReading[],
  deliveryEtas: ReadonlyMap<string, { link: ShareLink; delivery: DeliveryEta }>,
  stored: ReadonlyMap<string, ShareState>,
  now: number,
): { drafts: ShareDraft[]; changed: LoadShareState[] } {
  const nowText = formatStoredDateTime(now);
  const states = new Map<string, LoadShareState>();
  const state = (link: ShareLink) =>
    states.get(link.loadId) ?? states.set(link.loadId, { loadId: link.loadId, tenantId: link.tenantId, ...(stored.get(link.loadId) ?? NEVER_SHARED) }).get(link.loadId)!;
  const newest = new Map<string, SharedReading>();
  for (const reading of readings) newest.set(reading.link.loadId, reading);
  const drafts: ShareDraft[] = [];
  const changed = new Set<string>();
  for (const { link, row } of newest.values()) {
    const loadState = state(link);
    if (!locationDue(loadState.locationSharedAt, now)) continue;
    const coordinates = { Latitude: row.latitude, Longitude: row.longitude };
    const address = positionAddress(row);
    drafts.push(
      draftOf(link, { eventType: 'Location', type: 'tracking.location', stopId: null, coordinates, address }, {
        Coordinates: coordinates,
        Address: address,
        RecordedAt: row.recorded_at,
      }),
    );
    loadState.locationSharedAt = nowText;
    changed.add(link.loadId);
  }
  for (const { link, delivery } of deliveryEtas.values()) {
    const loadState = state(link);
    if (!etaDue(loadState.etaShared, delivery.eta)) continue;
    drafts.push(etaDraft(link, delivery));
    loadState.etaShared = formatStoredDateTime(Date.parse(delivery.eta));
    changed.add(link.loadId);
  }
  return { drafts, changed: [...changed].map((loadId) => states.get(loadId)!) };
}

function etaDraft(target: ShareLink, delivery: DeliveryEta): ShareDraft {
  return draftOf(target, { eventType: 'EstimatedDelivery', type: 'tracking.eta', stopId: delivery.stopId, coordinates: null, address: null }, {
    StopId: delivery.stopId,
    Eta: delivery.eta,
  });
}

/** What a write to a trip shares from the trip's API snapshot (a trip record of core/trips). */
export interface SharedTrip {
  meta: { id: string };
  trip: { Stops: readonly SharedStop[] };
}

interface SharedStop {
  Id: string;
  Address: { Street: string | null; City: string | null; State: string | null; ZipCode: string | null; Country?: string } | null;
  Coordinates: { Latitude: string; Longitude: string } | null;
  ArrivedAt: string | null;
  DepartedAt: string | null;
  Eta: { Planned: string | null; Live: string | null } | null;
}

/** The delivery ETA a trip shares: its final stop's Live ETA, else its Planned one; null when it has neither. */
export function deliveryEtaOf(trip: SharedTrip): DeliveryEta | null {
  const final = trip.trip.Stops.at(-1);
  const eta = final?.Eta?.Live ?? final?.Eta?.Planned ?? null;
  return final && eta !== null ? { stopId: final.Id, eta } : null;
}

/**
 * The trip's delivery ETA when a write moved it (another value, or another final stop), else
 * null: a delivery ETA is weighed for sharing when it is first computed and each time it moves
 * (docs/api-rules.md#visibility), by the write that moved it; one that stayed was weighed then.
 */
export function movedDeliveryEta(before: SharedTrip, after: SharedTrip): DeliveryEta | null {
  const delivery = deliveryEtaOf(after);
  const previous = deliveryEtaOf(before);
  if (delivery === null || (previous !== null && previous.stopId === delivery.stopId && previous.eta === delivery.eta)) return null;
  return delivery;
}

/**
 * The shares of a write to a trip (trip-write.ts, after a change): an arrival or departure for
 * each stop whose ArrivedAt or DepartedAt was set or corrected (clearing one shares nothing),
 * and the delivery ETA when the write moved it and it is due. No read at all when the write
 * touched none of these.
 */
export async function shareTripWrite(trx: Db, clock: Clock, before: SharedTrip, after: SharedTrip): Promise<void> {
  const previous = new Map(before.trip.Stops.map((stop) => [stop.Id, stop]));
  const moves: { kind: 'Arrival' | 'Departure'; stop: (typeof after.trip.Stops)[number] }[] = [];
  for (const stop of after.trip.Stops) {
    const old = previous.get(stop.Id);
    if (stop.ArrivedAt !== null && stop.ArrivedAt !== old?.ArrivedAt) moves.push({ kind: 'Arrival', stop });
    if (stop.DepartedAt !== null && stop.DepartedAt !== old?.DepartedAt) moves.push({ kind: 'Departure', stop });
  }
  const delivery = movedDeliveryEta(before, after);
  if (moves.length === 0 && delivery === null) return;

  const target = (await findShareTargets(trx, [after.meta.id])).get(after.meta.id);
  if (!target) return;
  const drafts: ShareDraft[] = moves.map(({ kind, stop }) => {
    const address = stop.Address
      ? { Street: stop.Address.Street, City: stop.Address.City, State: stop.Address.State, ZipCode: stop.Address.ZipCode, Country: stop.Address.Country ?? null }
      : null;
    return draftOf(
      target,
      { eventType: kind, type: kind === 'Arrival' ? 'tracking.arrival' : 'tracking.departure', stopId: stop.Id, coordinates: stop.Coordinates, address },
      {
        StopId: stop.Id,
        Coordinates: stop.Coordinates,
        Address: address,
        ArrivedAt: stop.ArrivedAt,
        ...(kind === 'Departure' ? { DepartedAt: stop.DepartedAt } : {}),
      },
    );
  });
  if (delivery !== null && etaDue(target.etaShared, delivery.eta)) {
    drafts.push(etaDraft(target, delivery));
    await saveShareStates(trx, [{ ...stateOf(target), etaShared: formatStoredDateTime(Date.parse(delivery.eta)) }]);
  }
  await appendShares(trx, clock, drafts);
}
