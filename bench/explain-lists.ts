/**
 * The plans of the default trips and loads pages (first and last), their counts, their status,
 * driver and truck searches, and the asset event searches (per asset and over every asset of a kind:
 * each branch cut by its own index, the Total from counters), for a tenant-wide and a
 * subsidiary-bound caller, on a database the list
 * benchmark filled (`BENCH_LISTS_KEEP=1 npm run bench` keeps its databases):
 *
 *     node .bench-build/bench/explain-lists.js sqlite:/tmp/waybill-lists-bench-…/lists.db
 *     node .bench-build/bench/explain-lists.js postgres://…/waybill_lists_bench
 *
 * EXPLAIN_ONLY=<substring> keeps the calls whose name contains it.
 *
 * How the statements are recorded and judged: bench/explain-plans.ts.
 */
import { createDb } from '../db/create-db.js';
import { BIG_TENANT, SUBSIDIARIES } from './big-tenant.js';
import { explainCalls, type ExplainedCall } from './explain-plans.js';

const CALLS: ExplainedCall[] = [
  { name: 'GET /trips', call: (c, page) => c.trips.findTrips(page) },
  { name: 'POST /trips/search Status=InTransit', call: (c, page) => c.trips.searchTrips({ ...page, Status: ['InTransit'] }) },
  { name: 'POST /trips/search DriverId', call: (c, page) => c.trips.searchTrips({ ...page, DriverId: 'drv_big_0002' }) },
  { name: 'GET /loads', call: (c, page) => c.loads.findLoads(page) },
  { name: 'POST /loads/search Status=InTransit', call: (c, page) => c.loads.searchLoads({ ...page, Status: ['InTransit'] }) },
  // The loads of a driver's (truck's) trips, from the trips' side: index-only on both tables (migration 0102).
  { name: 'POST /loads/search DriverId', call: (c, page) => c.loads.searchLoads({ ...page, DriverId: 'drv_big_0002' }) },
  { name: 'POST /loads/search TruckId', call: (c, page) => c.loads.searchLoads({ ...page, TruckId: 'trk_big_0002' }) },
  // The load filters of issue 27: each served by its own index with the list's scope and order (migration 0110).
  { name: 'GET /loads ExternalId', call: (c, page) => c.loads.findLoads({ ...page, ExternalId: 'tms:BIG-1' }) },
  { name: 'GET /loads OrderNumber', call: (c, page) => c.loads.findLoads({ ...page, OrderNumber: 'PO-BIG-1' }) },
  { name: 'POST /loads/search UpdatedAtRange', call: (c, page) => c.loads.searchLoads({ ...page, UpdatedAtRange: { Start: '2026-11-22T00:00:00Z' } }) },
  { name: 'POST /trips/search TruckId', call: (c, page) => c.trips.searchTrips({ ...page, TruckId: 'trk_big_0002' }) },
  // The generator's busy truck, a truck and the subscription with the long log (bench/big-tenant.ts).
  { name: 'GET /assets/{busy truck}/locations', call: (c, page) => c.visibility.findAssetLocations({ ...page, assetId: 'trk_big_0000' }) },
  { name: 'POST /trucks/events/search TruckIds', call: (c, page) => c.visibility.searchTruckEvents({ ...page, TruckIds: ['trk_big_0002'] }) },
  // Every asset of a kind: three branches (arrivals, departures, positions) each cut by its own index.
  { name: 'POST /trucks/events/search (all trucks)', call: (c, page) => c.visibility.searchTruckEvents(page) },
  { name: 'POST /drivers/events/search (all drivers)', call: (c, page) => c.visibility.searchDriverEvents(page) },
  { name: 'POST /trailers/events/search (all trailers)', call: (c, page) => c.visibility.searchTrailerEvents(page) },
  { name: 'POST /deductions/search', call: (c, page) => c.deductions.searchDeductions(page) },
  { name: 'GET /webhooks/{id}/delivery-logs', call: (c, page) => c.webhooks.findDeliveryLogs({ ...page, webhookId: 'whk_big_0_0' }) },
];

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error('usage: explain-lists.js <DATABASE_URL of a database the list benchmark filled>');
  const db = createDb(url);
  await explainCalls(db, BIG_TENANT, [null, SUBSIDIARIES[0]!], CALLS);
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
