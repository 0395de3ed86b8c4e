import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent, appendVisibilityPosts } from '../core/events/outbox.repository.js';
import { createMigrator } from '../db/migrate.js';
import { startTestApp, type TestApp } from './harness.js';

// Migration 0220 gives the events already stored their feed positions, in the order they were created.
const BEFORE = '2026-11-27T0160-invoice-writes';
const V = '/api/p/v1.0';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const emit = (type: string) =>
  t.db.transaction().execute(async (trx) => {
    t.clock.advance(1000);
    return appendEvent(trx, t.clock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type, data: { Id: type } });
  });

describe('migration 0220 (events feed)', () => {
  it('positions stored events in created order, leaves visibility posts out, and the feed continues after them', async () => {
    const stored = [await emit('trip.changed'), await emit('load.changed'), await emit('customer.updated')];
    await t.db.transaction().execute((trx) =>
      appendVisibilityPosts(trx, t.clock, [{ tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', customerId: 'cus_heartland', type: 'document', body: {} }]),
    );
    const migrator = await createMigrator(t.db);
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    expect((await migrator.migrateToLatest()).error).toBeUndefined();

    const rows = await t.db.selectFrom('outbox').select(['id', 'kind', 'feed_seq']).orderBy('kind').orderBy('created_at').execute();
    expect(rows.map((r) => [r.kind, r.feed_seq === null ? null : Number(r.feed_seq)])).toEqual([
      ['event', 1],
      ['event', 2],
      ['event', 3],
      ['visibility', null],
    ]);
    const later = await emit('trip.status.changed');
    const page = await t.api(`${V}/events`, { as: 'tn_prairie-all' });
    expect(page.body.Items.map((i: { id: string }) => i.id)).toEqual([...stored, later]);
    expect(page.body.NextCursor).toBe('c4');
  });
});
