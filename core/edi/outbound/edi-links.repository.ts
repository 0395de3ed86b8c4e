/**
 * Which tenders, trips and loads came from an EDI partner, with that partner: what the outbound
 * followers read in the transaction of the change they follow (docs/edi.md#outbound-990). Each is
 * one statement, and the partner must be Active; the caller checks its Transactions.
 * `edi_load_status` is this folder's own: what the 214s last said of a load in transit.
 */
import type { Db } from '../../../db/create-db.js';
import { toEdiPartner, type EdiPartner } from '../partner.repository.js';

export interface PartnerTender {
  partner: EdiPartner;
  tenderId: string;
  /** The 204's B2-04, our ExternalId. */
  shipmentId: string;
  /** JSON text of the tender's `{ Name, Value }` references. */
  referencesJson: string;
}

/** The tender, when it came from an Active partner. */
export async function findPartnerTender(db: Db, tenantId: string, tenderId: string): Promise<PartnerTender | undefined> {
  const row = await db
    .selectFrom('tenders')
    .innerJoin('edi_partners', (join) => join.onRef('edi_partners.id', '=', 'tenders.edi_partner_id').onRef('edi_partners.tenant_id', '=', 'tenders.tenant_id'))
    .selectAll('edi_partners')
    .select(['tenders.id as tender_id', 'tenders.external_id', 'tenders.references_json'])
    .where('tenders.tenant_id', '=', tenantId)
    .where('tenders.id', '=', tenderId)
    .where('edi_partners.status', '=', 'Active')
    .executeTakeFirst();
  return row && { partner: toEdiPartner(row), tenderId: row.tender_id, shipmentId: row.external_id, referencesJson: row.references_json };
}

export interface PartnerTrip extends PartnerTender {
  tripId: string;
  loadId: string;
  loadNumber: string;
  truckNumber: string | null;
  /** What the load's 214s last said, as read with the trip. */
  status: LoadStatus;
}

/**
 * The trips (of those given) whose load an Active partner's tender created, in one statement
 * over the trips' keys and the tenders' (tenant_id, load_id) index: position batches ask it for
 * every trip in transit, and most trips have no partner.
 */
export async function findPartnerTrips(db: Db, tripIds: readonly string[]): Promise<Map<string, PartnerTrip>> {
  const found = new Map<string, PartnerTrip>();
  if (tripIds.length === 0) return found;
  const rows = await db
    .selectFrom('trips')
    .innerJoin('loads', 'loads.id', 'trips.load_id')
    .innerJoin('tenders', (join) => join.onRef('tenders.tenant_id', '=', 'loads.tenant_id').onRef('tenders.load_id', '=', 'loads.id'))
    .innerJoin('edi_partners', (join) => join.onRef('edi_partners.id', '=', 'tenders.edi_partner_id').onRef('edi_partners.tenant_id', '=', 'tenders.tenant_id'))
    .leftJoin('trucks', 'trucks.id', 'trips.truck_id')
    .leftJoin('edi_load_status', 'edi_load_status.load_id', 'loads.id')
    .selectAll('edi_partners')
    .select([
      'trips.id as trip_id',
      'loads.id as load_id',
      'loads.load_number',
      'tenders.id as tender_id',
      'tenders.external_id',
      'tenders.references_json',
      'trucks.truck_number',
      'edi_load_status.en_route_sent_at',
      'edi_load_status.eta_sent',
    ])
    .where('trips.id', 'in', [...tripIds])
    .where('tenders.status', '=', 'Accepted')
    .where('edi_partners.status', '=', 'Active')
    .execute();
  for (const row of rows) {
    found.set(row.trip_id, {
      partner: toEdiPartner(row),
      tenderId: row.tender_id,
      shipmentId: row.external_id,
      referencesJson: row.references_json,
      tripId: row.trip_id,
      loadId: row.load_id,
      loadNumber: row.load_number,
      truckNumber: row.truck_number,
      status: { enRouteSentAt: row.en_route_sent_at, etaSent: row.eta_sent },
    });
  }
  return found;
}

/**
 * The partner link of one trip a trip write holds, when its load came from an Active partner's
 * accepted tender. Asked first of the tenders alone (one table by its (tenant_id, load_id)
 * index, cheap to plan), since most loads have no partner and the joined read of
 * findPartnerTrips costs Postgres more to plan than to run.
 */
export async function findPartnerTrip(db: Db, trip: { id: string; tenantId: string; loadId: string }): Promise<PartnerTrip | undefined> {
  const tender = await db
    .selectFrom('tenders')
    .select('id')
    .where('tenant_id', '=', trip.tenantId)
    .where('load_id', '=', trip.loadId)
    .where('status', '=', 'Accepted')
    .where('edi_partner_id', 'is not', null)
    .executeTakeFirst();
  return tender && (await findPartnerTrips(db, [trip.id])).get(trip.id);
}

export interface PartnerLoad extends PartnerTender {
  loadId: string;
  loadNumber: string;
  /** JSON text of the tender's stops as received. */
  stopsJson: string;
}

/** The loads (of the tenant, by number) whose Active partner's tender created them. */
export async function findPartnerLoads(db: Db, tenantId: string, loadNumbers: readonly string[]): Promise<PartnerLoad[]> {
  if (loadNumbers.length === 0) return [];
  const rows = await db
    .selectFrom('loads')
    .innerJoin('tenders', (join) => join.onRef('tenders.tenant_id', '=', 'loads.tenant_id').onRef('tenders.load_id', '=', 'loads.id'))
    .innerJoin('edi_partners', (join) => join.onRef('edi_partners.id', '=', 'tenders.edi_partner_id').onRef('edi_partners.tenant_id', '=', 'tenders.tenant_id'))
    .selectAll('edi_partners')
    .select(['loads.id as load_id', 'loads.load_number', 'tenders.id as tender_id', 'tenders.external_id', 'tenders.references_json', 'tenders.stops_json'])
    .where('loads.tenant_id', '=', tenantId)
    .where('loads.load_number', 'in', [...loadNumbers])
    .where('tenders.status', '=', 'Accepted')
    .where('edi_partners.status', '=', 'Active')
    .execute();
  return rows.map((row) => ({
    partner: toEdiPartner(row),
    tenderId: row.tender_id,
    shipmentId: row.external_id,
    referencesJson: row.references_json,
    loadId: row.load_id,
    loadNumber: row.load_number,
    stopsJson: row.stops_json,
  }));
}

/** What a load's 214s last said (docs/edi.md#outbound-214): both null before the first. */
export interface LoadStatus {
  enRouteSentAt: string | null;
  etaSent: string | null;
}

export interface LoadStatusRow extends LoadStatus {
  loadId: string;
  tenantId: string;
}

/**
 * Claims the loads' status for this transaction and returns what it holds now: an upsert that
 * inserts a missing row (both null) and, for an existing one, changes nothing but takes its row
 * lock (Postgres) and returns its latest committed values. The status read with the trips may be
 * stale when another process sends for the same load (WEB_CONCURRENCY): only what is decided on
 * the claimed status is sent. Loads in id order, so two claimers wait for one another rather
 * than deadlock.
 */
export async function claimLoadStatuses(trx: Db, loads: readonly { loadId: string; tenantId: string }[]): Promise<Map<string, LoadStatus>> {
  if (loads.length === 0) return new Map();
  const sorted = [...loads].sort((a, b) => (a.loadId < b.loadId ? -1 : a.loadId > b.loadId ? 1 : 0));
  const rows = await trx
    .insertInto('edi_load_status')
    .values(sorted.map((load) => ({ load_id: load.loadId, tenant_id: load.tenantId, en_route_sent_at: null, eta_sent: null })))
    .onConflict((conflict) => conflict.column('load_id').doUpdateSet((eb) => ({ tenant_id: eb.ref('edi_load_status.tenant_id') })))
    .returning(['load_id', 'en_route_sent_at', 'eta_sent'])
    .execute();
  return new Map(rows.map((row) => [row.load_id, { enRouteSentAt: row.en_route_sent_at, etaSent: row.eta_sent }]));
}

/** Stores what the loads' 214s said, in one statement. */
export async function saveLoadStatuses(trx: Db, statuses: readonly LoadStatusRow[]): Promise<void> {
  if (statuses.length === 0) return;
  await trx
    .insertInto('edi_load_status')
    .values(statuses.map((s) => ({ load_id: s.loadId, tenant_id: s.tenantId, en_route_sent_at: s.enRouteSentAt, eta_sent: s.etaSent })))
    .onConflict((conflict) =>
      conflict.column('load_id').doUpdateSet((eb) => ({
        en_route_sent_at: eb.ref('excluded.en_route_sent_at'),
        eta_sent: eb.ref('excluded.eta_sent'),
      })),
    )
    .execute();
}
