import { sql } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Scope } from '../shared/scope.js';

/**
 * The events feed over the outbox (docs/api-rules.md#events-feed). Positions (`feed_seq`) are
 * assigned after commit by one assigner at a time, so the positions a reader can see are
 * always a prefix of all positions: why, in db/migrations/2026-11-27T0220-events-feed.ts.
 */

/** Events positioned per assigner transaction. */
const ASSIGN_BATCH = 1000;

/**
 * Positions every committed event that has none, in the order they were appended. Cheap when
 * none waits (one read of a partial index); readers call it before reading, so what committed
 * before their request is in their page. Answers how many it positioned.
 */
export async function assignFeedPositions(db: Db): Promise<number> {
  let assigned = 0;
  for (;;) {
    const waiting = await db.selectFrom('outbox').select('id').where('feed_seq', 'is', null).where('kind', '=', 'event').limit(1).executeTakeFirst();
    if (!waiting) return assigned;
    const count = await db.transaction().execute(async (trx) => {
      // The write takes the counter row's lock first (Postgres: a row lock held to commit;
      // SQLite: the database's write lock), so assigners run one after the other and each
      // reads the positions the previous one committed.
      await trx.updateTable('event_feed_counter').set({ last_position: sql`last_position` }).where('id', '=', 1).execute();
      const { last_position: last } = await trx.selectFrom('event_feed_counter').select('last_position').where('id', '=', 1).executeTakeFirstOrThrow();
      const order = sql.raw(dialectOf(trx) === 'postgres' ? 'append_seq' : 'rowid');
      const result = await sql`
        update outbox set feed_seq = numbered.position
        from (
          select id, ${last} + row_number() over (order by ${order}) as position
          from outbox where feed_seq is null and kind = 'event'
          order by ${order} limit ${ASSIGN_BATCH}
        ) as numbered
        where outbox.id = numbered.id`.execute(trx);
      const count = Number(result.numAffectedRows ?? 0n);
      await trx.updateTable('event_feed_counter').set({ last_position: last + count }).where('id', '=', 1).execute();
      return count;
    });
    assigned += count;
    if (count < ASSIGN_BATCH) return assigned;
  }
}

/** The last position assigned, across tenants: the end of every tenant's feed. */
export async function feedEnd(db: Db): Promise<number> {
  const row = await db.selectFrom('event_feed_counter').select('last_position').where('id', '=', 1).executeTakeFirstOrThrow();
  return Number(row.last_position);
}

/** The highest position retention pruned of the tenant's events (0: none yet). */
export async function prunedThrough(db: Db, tenantId: string): Promise<number> {
  const row = await db.selectFrom('event_feed_horizons').select('pruned_through').where('tenant_id', '=', tenantId).executeTakeFirst();
  return row ? Number(row.pruned_through) : 0;
}

/**
 * The position of the `size`-th event of the tenant after `after` (`full`), or of its last one
 * when fewer follow; null when none follows. A page reads at most this window, so a filter that
 * matches little costs one bounded index range per request, never a scan to the end.
 */
export async function feedWindowEnd(db: Db, tenantId: string, after: number, size: number): Promise<{ through: number; full: boolean } | null> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('outbox')
        .select('feed_seq')
        .where('tenant_id', '=', tenantId)
        .where('feed_seq', '>', after)
        .orderBy('feed_seq')
        .limit(size)
        .as('window'),
    )
    .select((eb) => [eb.fn.max('window.feed_seq').as('through'), eb.fn.countAll().as('count')])
    .executeTakeFirst();
  if (row?.through === null || row?.through === undefined) return null;
  return { through: Number(row.through), full: Number(row.count) === size };
}

export interface FeedFilter {
  /** Event types to include (patterns already expanded); null: every type. */
  types: readonly string[] | null;
  /**
   * Types that reach every subsidiary whatever the record's subsidiary (carrier documents:
   * core/webhooks/fan-out.ts `routesTo`).
   */
  tenantWideTypes: readonly string[];
}

export interface FeedRow {
  id: string;
  type: string;
  created_at: string;
  payload: string;
  feed_seq: number;
}

/**
 * The scope's events with positions in (after, through] (through null: to the end), in position
 * order, at most `limit`.
 * A subsidiary-bound scope sees the events routed to its subsidiary, those of no subsidiary
 * and the tenant-wide types, as deliveries route them (docs/api-rules.md#events).
 */
export async function readFeedPage(db: Db, scope: Scope, after: number, through: number | null, filter: FeedFilter, limit: number): Promise<FeedRow[]> {
  let query = db
    .selectFrom('outbox')
    .select(['id', 'type', 'created_at', 'payload', 'feed_seq'])
    .where('tenant_id', '=', scope.tenantId)
    .where('feed_seq', '>', after);
  if (through !== null) query = query.where('feed_seq', '<=', through);
  if (filter.types !== null) query = query.where('type', 'in', [...filter.types]);
  const subsidiaryId = scope.subsidiaryId;
  if (subsidiaryId !== null) {
    query = query.where((eb) =>
      eb.or([
        eb('subsidiary_id', '=', subsidiaryId),
        eb('subsidiary_id', 'is', null),
        ...(filter.tenantWideTypes.length > 0 ? [eb('type', 'in', [...filter.tenantWideTypes])] : []),
      ]),
    );
  }
  const rows = await query.orderBy('feed_seq').limit(limit).execute();
  return rows.map((row) => ({ ...row, feed_seq: Number(row.feed_seq) }));
}

/**
 * Deletes up to `limit` events created before `before`, oldest position first, and only while
 * every one before them is deletable too: pruning stops at the first event the dispatcher has
 * not fanned out (or that is still young), so what is left is always a suffix of each feed
 * and a tenant's horizon is exact. Records each tenant's highest pruned position in the same
 * transaction. Answers how many it deleted.
 */
export async function pruneFeedEvents(db: Db, before: string, limit: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const head = await trx
      .selectFrom('outbox')
      .select(['id', 'tenant_id', 'feed_seq', 'created_at', 'dispatched_at'])
      .where('feed_seq', 'is not', null)
      .orderBy('feed_seq')
      .limit(limit)
      .execute();
    const stop = head.findIndex((row) => row.dispatched_at === null || row.created_at >= before);
    const gone = stop === -1 ? head : head.slice(0, stop);
    if (gone.length === 0) return 0;
    const horizons = new Map<string, number>();
    for (const row of gone) horizons.set(row.tenant_id, Math.max(horizons.get(row.tenant_id) ?? 0, Number(row.feed_seq)));
    for (const [tenantId, position] of horizons) {
      await trx
        .insertInto('event_feed_horizons')
        .values({ tenant_id: tenantId, pruned_through: position })
        .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ pruned_through: position }))
        .execute();
    }
    const lastGone = Number(gone[gone.length - 1]!.feed_seq);
    // By position range: the rows read above, as the index holds them (one range delete).
    const deleted = await trx
      .deleteFrom('outbox')
      .where('feed_seq', 'is not', null)
      .where('feed_seq', '<=', lastGone)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows);
  });
}
