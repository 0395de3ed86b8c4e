import { sql, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from '../create-db.js';

/**
 * The events feed (docs/api-rules.md#events-feed): every outbox event gets a feed position,
 * `outbox.feed_seq`, in the order events become visible, and GET /events pages through a
 * tenant's events by it.
 *
 * A position is assigned after the event's transaction has committed, by one assigner at a
 * time (core/events/feed-positions.repository.ts): the assigner locks the one row of
 * `event_feed_counter` (the last position assigned), positions every committed event that has
 * none, and commits. Assignments are serialised and each takes positions above the last, so
 * the positions any reader can see are always a prefix of those that will ever exist: a reader
 * that has read up to N never meets a position below N later. (A position taken at insert would
 * not be: on Postgres a transaction that took 10 may commit after one that took 11.)
 *
 * Events waiting for a position are taken in the order they were appended: Postgres numbers
 * rows at insert (`append_seq`), SQLite keeps its rowid order (it has one writer at a time).
 * Visibility posts are not events and never get a position.
 *
 * Retention prunes events in position order; `event_feed_horizons` keeps, per tenant, the
 * highest position pruned, so a cursor below it is 410 and a client without one starts there.
 * Events already stored are positioned here in the order they were created.
 */

const EVENT = sql<SqlBool>`kind = 'event'`;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema.alterTable('outbox').addColumn('feed_seq', 'bigint').execute();
  if (postgres) await sql`alter table outbox add column append_seq bigserial`.execute(db);

  await db.schema
    .createTable('event_feed_counter')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('last_position', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('event_feed_horizons')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().references('tenants.id'))
    .addColumn('pruned_through', 'bigint', (c) => c.notNull())
    .execute();

  await sql`
    update outbox set feed_seq = numbered.position
    from (select id, row_number() over (order by created_at, id) as position from outbox where ${EVENT}) as numbered
    where outbox.id = numbered.id`.execute(db);
  const { count } = (await db.selectFrom('outbox').select((eb) => eb.fn.countAll().as('count')).where(EVENT).executeTakeFirstOrThrow()) as { count: number | string };
  await db.insertInto('event_feed_counter').values({ id: 1, last_position: Number(count) }).execute();

  // A page: one range of the tenant's positions (the Types and subsidiary filters read the
  // covered columns, without visiting the table, while bounding a window).
  await db.schema
    .createIndex('outbox_feed_idx')
    .on('outbox')
    .columns(['tenant_id', 'feed_seq', 'type', 'subsidiary_id'])
    .where(sql<SqlBool>`feed_seq is not null`)
    .execute();
  // Pruning and the feed's end: positions in order, across tenants.
  await db.schema.createIndex('outbox_feed_seq_idx').on('outbox').column('feed_seq').where(sql<SqlBool>`feed_seq is not null`).execute();
  // The events waiting for a position, in the order they were appended.
  await db.schema
    .createIndex('outbox_feed_pending_idx')
    .on('outbox')
    .column(postgres ? 'append_seq' : 'kind')
    .where(sql<SqlBool>`feed_seq is null and ${EVENT}`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('outbox_feed_pending_idx').execute();
  await db.schema.dropIndex('outbox_feed_seq_idx').execute();
  await db.schema.dropIndex('outbox_feed_idx').execute();
  await db.schema.dropTable('event_feed_horizons').execute();
  await db.schema.dropTable('event_feed_counter').execute();
  if (dialectOf(db) === 'postgres') await sql`alter table outbox drop column append_seq`.execute(db);
  await db.schema.alterTable('outbox').dropColumn('feed_seq').execute();
}
