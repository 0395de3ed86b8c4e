/**
 * Incremental customer sync, as an accounting integration would run it on a schedule: ask
 * only for the customers updated since the last run (`UpdatedAtRange.Start`, inclusive), walk
 * every page with `Cursor`/`NextCursor`, upsert them locally, and keep the newest `UpdatedAt`
 * seen as the next run's start.
 *
 * - The start is inclusive, so the customers updated at exactly the watermark come again: an
 *   upsert by `Id` makes that harmless, and nothing updated in the same millisecond is missed.
 * - Keyset paging keeps the walk exact while customers change meanwhile: one updated during
 *   the walk moves to the front of the list, out of this walk, and comes with the next run.
 * - A deleted customer is in no list; the `customer.deleted` webhook tells the integration.
 *
 * Run against `npm start` (demo data):  npx tsx examples/customer-sync.ts
 */
import { demoApi, type FreightApi } from './integration-client.js';

export interface Customer {
  Id: string;
  Name: string;
  CompanyNumber: string;
  Status: string;
  UpdatedAt: string;
  [field: string]: unknown;
}

interface CustomerPage {
  Items: Customer[];
  NextCursor: string | null;
}

export interface SyncResult {
  /** Customers fetched by this run (new or changed since the watermark). */
  fetched: number;
  /** The next run's `UpdatedAtRange.Start`. */
  watermark: string | null;
  pages: number;
}

/** One run: fetches what changed since `watermark` into `store` (keyed by Id). */
export async function syncCustomers(
  api: FreightApi,
  store: Map<string, Customer>,
  watermark: string | null,
  pageSize = 100,
): Promise<SyncResult> {
  const filter = watermark ? { UpdatedAtRange: { Start: watermark } } : {};
  let cursor: string | null = null;
  let next = watermark;
  let fetched = 0;
  let pages = 0;
  do {
    const { body }: { body: CustomerPage } = await api.call<CustomerPage>('POST', '/customers/search', {
      body: { ...filter, PageSize: pageSize, ...(cursor ? { Cursor: cursor } : {}) },
    });
    pages += 1;
    for (const customer of body.Items) {
      store.set(customer.Id, customer);
      fetched += 1;
      // ISO 8601 UTC text of one format compares as time.
      if (next === null || customer.UpdatedAt > next) next = customer.UpdatedAt;
    }
    cursor = body.NextCursor;
  } while (cursor);
  return { fetched, watermark: next, pages };
}

async function main(): Promise<void> {
  const api = demoApi();
  const store = new Map<string, Customer>();
  const first = await syncCustomers(api, store, null);
  console.log(`first run: ${first.fetched} customers, watermark ${first.watermark}`);
  const second = await syncCustomers(api, store, first.watermark);
  console.log(`second run: ${second.fetched} customers changed since (the watermark's own come again)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
