/**
 * The 214s of a load in transit (docs/edi.md#outbound-214): `X6` (en route) with where its
 * latest position is, at most once an hour per load, and `AG` (estimated delivery) with the
 * delivery ETA whenever the visibility shares would share it as `tracking.eta` (the same
 * `etaDue` decides, whether or not the customer has a visibility integration). Position batches
 * (core/visibility commit-positions.ts) and trip writes (core/trips trip-write.ts) hand their
 * changes here through core/router.ts, in their own transactions.
 */
import { dialectOf, type Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { formatStoredDateTime } from '../../shared/datetime.js';
import type { TripRecord } from '../../trips/trip.repository.js';
import type { InTransitReading } from '../../visibility/commit-positions.js';
import { etaDue, movedDeliveryEta, type DeliveryEta } from '../../visibility-shares/share-progress.js';
import { sendEdiDocuments, type SendEdiDocumentInput } from '../send-edi-document.js';
import { claimLoadStatuses, findPartnerTrip, findPartnerTrips, saveLoadStatuses, type LoadStatus, type LoadStatusRow, type PartnerTrip } from './edi-links.repository.js';
import { exchanges } from './partner-sets.js';
import { document214 } from './status-214.js';

const HOUR_MS = 60 * 60_000;

export function enRouteDue(lastSentAt: string | null, now: number): boolean {
  return lastSentAt === null || now - Date.parse(lastSentAt) >= HOUR_MS;
}

/** What one load may say: the newest reading of its trip, its moved delivery ETA. */
interface LoadNews {
  link: PartnerTrip;
  reading: InTransitReading | undefined;
  delivery: DeliveryEta | undefined;
}

/** The 214s due given the loads' status, and the loads' status after them. */
function plan214s(news: readonly LoadNews[], status: (link: PartnerTrip) => LoadStatus, now: number): { documents: SendEdiDocumentInput[]; changed: LoadStatusRow[] } {
  const documents: SendEdiDocumentInput[] = [];
  const changed: LoadStatusRow[] = [];
  for (const { link, reading, delivery } of news) {
    const next: LoadStatusRow = { loadId: link.loadId, tenantId: link.partner.tenantId, ...status(link) };
    const before = documents.length;
    if (reading && enRouteDue(next.enRouteSentAt, now)) {
      const { row } = reading;
      documents.push(document214(link, { code: 'X6', at: row.recorded_at, place: { city: row.city, state: row.state, country: row.country } }));
      next.enRouteSentAt = formatStoredDateTime(now);
    }
    if (delivery && etaDue(next.etaSent, delivery.eta)) {
      next.etaSent = formatStoredDateTime(Date.parse(delivery.eta));
      documents.push(document214(link, { code: 'AG', at: next.etaSent, place: null }));
    }
    if (documents.length > before) changed.push(next);
  }
  return { documents, changed };
}

/**
 * Sends what is due, per load at most one `X6` and one `AG`. On Postgres what looks due is
 * claimed before it is sent (`claimLoadStatuses`: the status rows locked, their latest values)
 * and decided again on what they hold: another process may have sent for the same load since
 * the read. SQLite has one writer and its transactions commit one at a time: the read with the
 * trips is current there. Then one upsert of the statuses and one send of every document.
 */
async function sendDue(trx: Db, clock: Clock, news: readonly LoadNews[], now: number): Promise<void> {
  const looked = plan214s(news, (link) => link.status, now);
  if (looked.documents.length === 0) return;
  let decided = looked;
  if (dialectOf(trx) === 'postgres') {
    const claimed = await claimLoadStatuses(trx, looked.changed);
    decided = plan214s(news, (link) => claimed.get(link.loadId) ?? link.status, now);
  }
  await saveLoadStatuses(trx, decided.changed);
  await sendEdiDocuments(trx, clock, decided.documents);
}

/**
 * A position batch: per load, one `X6` from its newest reading when due, and the `AG` of a moved
 * delivery ETA. Only loads where something looks due by the status read with their trips are
 * read and decided in the transaction, so a steady feed (its X6s sent within the hour, its ETAs
 * close to the last AG) costs no statement. That read is older than the transaction: an `X6`
 * time only moves forward, so an older one never hides a due `X6`; an `AG` that did not look due
 * is one this batch would not have sent had it run before the change that moved the last one.
 */
export async function send214sOfPositions(
  trx: Db,
  clock: Clock,
  readings: readonly InTransitReading[],
  deliveryEtas: ReadonlyMap<string, DeliveryEta>,
): Promise<void> {
  const now = clock.now().getTime();
  const newest = new Map<string, InTransitReading>();
  for (const reading of readings) newest.set(reading.tripId, reading);
  const looksDue = (tripId: string) => {
    const reading = newest.get(tripId);
    if (!reading) return true;
    const delivery = deliveryEtas.get(tripId);
    return enRouteDue(reading.sent.enRouteSentAt, now) || (delivery !== undefined && etaDue(reading.sent.etaSent, delivery.eta));
  };
  const tripIds = [...new Set([...newest.keys(), ...deliveryEtas.keys()])].filter(looksDue);
  if (tripIds.length === 0) return;
  const links = await findPartnerTrips(trx, tripIds);
  const news: LoadNews[] = [];
  const loadsDone = new Set<string>();
  for (const [tripId, link] of links) {
    if (!exchanges(link.partner, '214') || loadsDone.has(link.loadId)) continue;
    loadsDone.add(link.loadId);
    news.push({ link, reading: newest.get(tripId), delivery: deliveryEtas.get(tripId) });
  }
  if (news.length > 0) await sendDue(trx, clock, news, now);
}

/** A trip write: the `AG` of the delivery ETA it moved, when due (the trip write's `tracking.eta` decision). */
export async function send214OfTripWrite(trx: Db, clock: Clock, before: TripRecord, after: TripRecord): Promise<void> {
  const delivery = movedDeliveryEta(before, after);
  if (!delivery) return;
  const link = await findPartnerTrip(trx, after.meta);
  if (link && exchanges(link.partner, '214')) await sendDue(trx, clock, [{ link, reading: undefined, delivery }], clock.now().getTime());
}
