/**
 * The 214s of a load in transit (docs/edi.md#outbound-214): `X6` (en route) with where its
 * latest position is, at most once an hour per load, and `AG` (estimated delivery) with the
 * delivery ETA whenever the visibility shares would share it as `tracking.eta` (the same
 * `etaDue` decides, whether or not the customer has a visibility integration). Position batches
 * (core/visibility commit-positions.ts) and trip writes (core/trips trip-write.ts) hand their
 * changes here through core/router.ts, in their own transactions.
 */
import type { Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { formatStoredDateTime } from '../../shared/datetime.js';
import type { TripRecord } from '../../trips/trip.repository.js';
import type { InTransitReading } from '../../visibility/commit-positions.js';
import { deliveryEtaOf, etaDue, type DeliveryEta } from '../../visibility-shares/share-progress.js';
import { claimLoadStatus, findPartnerTrips, type PartnerTrip } from './edi-links.repository.js';
import { exchanges } from './partner-sets.js';
import { send214 } from './status-214.js';

const HOUR_MS = 60 * 60_000;

export function enRouteDue(lastSentAt: string | null, now: number): boolean {
  return lastSentAt === null || now - Date.parse(lastSentAt) >= HOUR_MS;
}

/** The `AG` of a delivery ETA, when due and claimed. */
async function sendEtaWhenDue(trx: Db, clock: Clock, link: PartnerTrip, delivery: DeliveryEta): Promise<void> {
  if (!etaDue(link.etaSent, delivery.eta)) return;
  const eta = formatStoredDateTime(Date.parse(delivery.eta));
  if (!(await claimLoadStatus(trx, { loadId: link.loadId, tenantId: link.partner.tenantId }, { column: 'eta_sent', value: link.etaSent }, eta))) return;
  await send214(trx, clock, link, { code: 'AG', at: eta, place: null });
}

/** A position batch: per load, one `X6` from its newest reading when due, and the `AG` of a moved delivery ETA. */
export async function send214sOfPositions(
  trx: Db,
  clock: Clock,
  readings: readonly InTransitReading[],
  deliveryEtas: ReadonlyMap<string, DeliveryEta>,
): Promise<void> {
  const newest = new Map<string, InTransitReading>();
  for (const reading of readings) newest.set(reading.tripId, reading);
  const tripIds = new Set([...newest.keys(), ...deliveryEtas.keys()]);
  if (tripIds.size === 0) return;
  const links = await findPartnerTrips(trx, [...tripIds]);
  if (links.size === 0) return;
  const now = clock.now().getTime();
  const loadsDone = new Set<string>();
  for (const [tripId, link] of links) {
    if (!exchanges(link.partner, '214') || loadsDone.has(link.loadId)) continue;
    loadsDone.add(link.loadId);
    const reading = newest.get(tripId);
    if (reading && enRouteDue(link.enRouteSentAt, now)) {
      const sentAt = formatStoredDateTime(now);
      if (await claimLoadStatus(trx, { loadId: link.loadId, tenantId: link.partner.tenantId }, { column: 'en_route_sent_at', value: link.enRouteSentAt }, sentAt)) {
        const { row } = reading;
        await send214(trx, clock, link, { code: 'X6', at: row.recorded_at, place: { city: row.city, state: row.state, country: row.country } });
      }
    }
    const delivery = deliveryEtas.get(tripId);
    if (delivery) await sendEtaWhenDue(trx, clock, link, delivery);
  }
}

/** A trip write: the `AG` of its delivery ETA when due (the trip write's `tracking.eta` decision). */
export async function send214OfTripWrite(trx: Db, clock: Clock, after: TripRecord): Promise<void> {
  const delivery = deliveryEtaOf(after);
  if (!delivery) return;
  const link = (await findPartnerTrips(trx, [after.meta.id])).get(after.meta.id);
  if (link && exchanges(link.partner, '214')) await sendEtaWhenDue(trx, clock, link, delivery);
}
