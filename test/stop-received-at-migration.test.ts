import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigrator } from '../db/migrate.js';
import { startTestApp, type TestApp } from './harness.js';

// Migration 0103 stores when a stop's arrival and departure were recorded, and fills it for existing rows.
const BEFORE = '2026-11-23T0102-list-load-search-keys';
const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

let t: TestApp;
let loadedAt: Date;
beforeAll(async () => {
  t = await startTestApp();
  loadedAt = t.clock.now();
});
afterAll(async () => {
  await t?.close();
});

async function receivedAt(): Promise<Record<string, string | null>> {
  const history = await t.api(`${V}/visibility/inbound/L-1001/history?PageSize=100`, { as: ALL });
  expect(history.status).toBe(200);
  const stopEvents = history.body.Items.filter((item: any) => item.EventType !== 'Location');
  return Object.fromEntries(stopEvents.map((item: any) => [item.Id, item.ReceivedAt === null ? null : new Date(item.ReceivedAt).toISOString()]));
}

describe('migration 0103 (stop received times)', () => {
  it("fills existing rows: a stop created arrived was received at its creation, one recorded later at its last write", async () => {
    t.clock.advance(60 * 60_000);
    const writtenAt = t.clock.now();
    const arrival = await t.api(`${V}/trips/trp_1001_a/stops/stp_1001_2/arrival`, {
      method: 'PUT',
      as: ALL,
      body: { ArrivedAt: new Date(writtenAt.getTime() - 10 * 60_000).toISOString() },
      headers: { 'If-Match': '*' },
    });
    expect(arrival.status, arrival.text).toBe(200);
    const expected = {
      'arrival:stp_1001_1': loadedAt.toISOString(),
      'departure:stp_1001_1': loadedAt.toISOString(),
      'arrival:stp_1001_2': writtenAt.toISOString(),
    };
    expect(await receivedAt()).toEqual(expected);

    const migrator = await createMigrator(t.db);
    const down = await migrator.migrateTo(BEFORE);
    expect(down.error).toBeUndefined();
    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    expect(await receivedAt()).toEqual(expected);
  });
});
