// GET /events: the pull feed of the outbox's events (docs/api-rules.md#events-feed).
import { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../core/auth/scopes.js';
import { ManualClock, type Clock } from '../core/clock.js';
import { nextFeedChange } from '../core/events/feed-signal.js';
import { appendEvent } from '../core/events/outbox.repository.js';
import { createCaller } from '../core/router.js';
import { eventBody } from '../core/webhooks/event-body.js';
import { dialectOf } from '../db/create-db.js';
import { pruneEvents } from '../workers/event-retention.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { operationsOf, type OpenApiDocument } from './support/openapi-validator.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

let counter = 0;
/** Commits one event (its own transaction, as a write's); answers its outbox id. */
function emit(type: string, subsidiaryId: string | null, tenantId = 'tn_prairie', clock: Clock = t.clock) {
  const Id = `rec_${++counter}`;
  return t.db.transaction().execute((trx) => appendEvent(trx, clock, { tenantId, subsidiaryId, type, data: { Id } }));
}

const feed = (query: Record<string, string | number> = {}, as = ALL) => {
  const text = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  return t.api(`${V}/events${text ? `?${text}` : ''}`, { as });
};
const ids = (response: ApiResponse): string[] => response.body.Items.map((item: { id: string }) => item.id);

/** Follows NextCursor from `after` until a page is empty; answers every item and the last cursor. */
async function drain(after: string | undefined, query: Record<string, string | number> = {}, as = ALL) {
  const items: any[] = [];
  let cursor = after;
  for (;;) {
    const response = await feed({ ...query, ...(cursor ? { After: cursor } : {}) }, as);
    expect(response.status, response.text).toBe(200);
    items.push(...response.body.Items);
    if (response.body.Items.length === 0 && response.body.NextCursor === cursor) return { items, cursor: cursor! };
    cursor = response.body.NextCursor;
  }
}

/** The cursor at the current end of the client's feed: what a test reads after it starts there. */
const endOf = async (as = ALL) => (await drain(undefined, {}, as)).cursor;

describeAuthCases(() => t, { method: 'GET', path: `${V}/events`, scope: 'event:read' });

describe('GET /events', () => {
  it('answers events in the order they were committed, each in the webhook envelope with its id', async () => {
    const start = await endOf();
    const emitted = [
      await emit('trip.changed', 'sub_kc'),
      await emit('customer.deleted', null),
      await emit('load.changed', 'sub_dal'),
    ];
    const response = await feed({ After: start });
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(emitted);
    const rows = await t.db.selectFrom('outbox').selectAll().where('id', 'in', emitted).execute();
    for (const item of response.body.Items) {
      const row = rows.find((r) => r.id === item.id)!;
      // Exactly the body a delivery of the event sends, and its id.
      expect(item).toEqual({ id: row.id, ...JSON.parse(eventBody(row.type, row.created_at, row.payload)) });
    }
    expect(response.body.NextCursor).toMatch(/^c[0-9a-z]+$/);
  });

  it('pages with no skip and no repeat, and an empty page answers the cursor it was given', async () => {
    const start = await endOf();
    const emitted: string[] = [];
    for (let i = 0; i < 23; i++) emitted.push(await emit(i % 2 ? 'trip.changed' : 'load.changed', 'sub_kc'));
    const seen: string[] = [];
    let cursor = start;
    for (let page = 0; page < 4; page++) {
      const response = await feed({ After: cursor, PageSize: 7 });
      expect(response.body.Items).toHaveLength(page < 3 ? 7 : 2);
      seen.push(...ids(response));
      cursor = response.body.NextCursor;
    }
    expect(seen).toEqual(emitted);
    const empty = await feed({ After: cursor, PageSize: 7 });
    expect(empty.body).toEqual({ Items: [], NextCursor: cursor });
    // Resuming from a cursor in the middle gives the rest again, identically.
    const again = await drain(start, { PageSize: 5 });
    expect(again.items.map((i) => i.id)).toEqual(emitted);
  });

  it('starts at the oldest retained event without After', async () => {
    const first = await feed({ PageSize: 1 });
    const [oldest] = await t.db.selectFrom('outbox').select('id').where('kind', '=', 'event').where('tenant_id', '=', 'tn_prairie').orderBy('feed_seq').limit(1).execute();
    expect(ids(first)).toEqual([oldest!.id]);
  });

  it('filters by Types: exact types, <prefix>.* patterns, both', async () => {
    const start = await endOf();
    const trip = await emit('trip.changed', 'sub_kc');
    const status = await emit('trip.status.changed', 'sub_kc');
    const customer = await emit('customer.deleted', null);
    const load = await emit('load.changed', 'sub_kc');
    const only = async (Types: string) => (await drain(start, { Types })).items.map((i) => i.id);
    expect(await only('trip.changed')).toEqual([trip]);
    expect(await only('trip.*')).toEqual([trip, status]);
    expect(await only('trip.status.*,customer.deleted')).toEqual([status, customer]);
    expect(await only('load.changed,trip.changed')).toEqual([trip, load]);
  });

  it('examines at most 5,000 events a page: a filter that matches none of them answers an empty page that moves on', async () => {
    const start = await endOf();
    const createdAt = t.clock.now().toISOString();
    const rows = Array.from({ length: 5001 }, (_, i) => ({
      id: `evt_bulk_${i}`,
      tenant_id: 'tn_prairie',
      subsidiary_id: 'sub_dal',
      kind: 'event',
      type: 'load.changed',
      customer_id: null,
      payload: '{}',
      created_at: createdAt,
      dispatched_at: null,
    }));
    for (let i = 0; i < rows.length; i += 500) await t.db.insertInto('outbox').values(rows.slice(i, i + 500)).execute();
    const wanted = await emit('customer.deleted', null);

    for (const [query, as] of [[{ Types: 'customer.*' }, ALL], [{}, 'sub_kc-all']] as const) {
      const first = await feed({ ...query, After: start }, as);
      expect(first.body.Items).toEqual([]);
      expect(first.body.NextCursor).not.toBe(start);
      const second = await feed({ ...query, After: first.body.NextCursor }, as);
      expect(ids(second)).toEqual([wanted]);
    }
  });

  it('refuses an unknown type or pattern with a 400 naming Types', async () => {
    for (const Types of ['trip.nope', 'nope.*', '*', 'trip.', 'trip.changed,', 'TRIP.CHANGED']) {
      const response = await feed({ Types });
      expect(response.status, Types).toBe(400);
      expect(Object.keys(response.body.Errors), Types).toEqual(['Types']);
    }
  });

  it('takes PageSize 1 to 500, 100 by default', async () => {
    const start = await endOf();
    for (let i = 0; i < 101; i++) await emit('trip.changed', 'sub_kc');
    expect((await feed({ After: start })).body.Items).toHaveLength(100);
    expect((await feed({ After: start, PageSize: 500 })).body.Items).toHaveLength(101);
    expect((await feed({ After: start, PageSize: 1 })).body.Items).toHaveLength(1);
    for (const PageSize of ['0', '501', '-1', '1.5', 'ten']) {
      const response = await feed({ PageSize });
      expect(response.status, PageSize).toBe(400);
      expect(Object.keys(response.body.Errors)).toEqual(['PageSize']);
    }
  });

  it('refuses a malformed cursor, or one it never answered, with a 400 naming After', async () => {
    const end = await endOf();
    const beyond = `c${(parseInt(end.slice(1), 36) + 1000).toString(36)}`;
    for (const After of ['', 'x', 'c', 'C1', 'c01', 'c-1', 'czzzzzzzzzzzz', beyond, `${end} `]) {
      const response = await feed({ After });
      expect(response.status, After).toBe(400);
      expect(Object.keys(response.body.Errors), After).toEqual(['After']);
    }
    for (const [Wait, field] of [['31', 'Wait'], ['-1', 'Wait'], ['1.0', 'Wait']]) {
      expect(Object.keys((await feed({ Wait: Wait! })).body.Errors)).toEqual([field]);
    }
    expect((await feed({ After: end, Unknown: '1' })).status).toBe(400);
  });

  it("never shows another tenant's events, and another tenant's cursor reveals nothing", async () => {
    const prairieStart = await endOf();
    const harborStart = await endOf('tn_harbor-all');
    const harbor = await emit('trip.changed', 'sub_harbor_main', 'tn_harbor');
    const prairie = await emit('trip.changed', 'sub_kc');
    const harborLater = await emit('load.changed', 'sub_harbor_main', 'tn_harbor');

    expect((await drain(prairieStart)).items.map((i) => i.id)).toEqual([prairie]);
    expect((await drain(harborStart, {}, 'tn_harbor-all')).items.map((i) => i.id)).toEqual([harbor, harborLater]);
    // Harbor's cursor in Prairie's feed is only a position: Prairie's own events after it.
    const harborCursor = (await feed({ After: harborStart, PageSize: 1 }, 'tn_harbor-all')).body.NextCursor;
    const read = await drain(harborCursor);
    expect(read.items.map((i) => i.id)).toEqual([prairie]);
    const everything = JSON.stringify((await drain(undefined)).items);
    expect(everything).not.toContain(harbor);
    expect(everything).not.toContain('sub_harbor_main');
  });

  it('shows a subsidiary-bound client its subsidiary\'s events and those routed to every subsidiary', async () => {
    const start = await endOf();
    const kc = await emit('trip.changed', 'sub_kc');
    await emit('trip.changed', 'sub_dal');
    const none = await emit('customer.deleted', null);
    const carrierDoc = await emit('carrier.document.updated', 'sub_dal');
    await emit('load.changed', 'sub_dal');
    expect((await drain(start, {}, 'sub_kc-all')).items.map((i) => i.id)).toEqual([kc, none, carrierDoc]);
    expect((await drain(start, {}, ALL)).items).toHaveLength(5);
  });

  it('is the same procedure for internal callers', async () => {
    const start = await endOf();
    const id = await emit('trip.changed', 'sub_kc');
    const caller = createCaller({ db: t.db, clock: t.clock, config: t.config, principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'ops', Scopes: [...SCOPES] } });
    const page = await caller.events.listEvents({ After: start });
    expect(page.Items.map((i) => i.id)).toEqual([id]);
    expect(page).toEqual((await feed({ After: start })).body);
  });
});

describe('GET /events with Wait', () => {
  it('answers as soon as an event is committed during the wait', async () => {
    const start = await endOf();
    const waiting = feed({ After: start, Wait: 30 });
    // The answer cannot have come yet: nothing follows `start` until this commit.
    const id = await new Promise<string>((resolve) => setTimeout(() => void emit('trip.changed', 'sub_kc').then(resolve), 200));
    const response = await waiting;
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual([id]);
  }, 10_000);

  it('answers an empty page with the cursor it was given when the wait ends', async () => {
    const start = await endOf();
    const response = await feed({ After: start, Wait: 1 });
    expect(response.body).toEqual({ Items: [], NextCursor: start });
  });

  it('wakes a waiting request when a transaction that appended an event commits, not before, and not on rollback', async () => {
    let woken = false;
    const waiting = nextFeedChange(30_000).then(() => (woken = true));
    await expect(
      t.db.transaction().execute(async (trx) => {
        await appendEvent(trx, t.clock, { tenantId: 'tn_prairie', subsidiaryId: null, type: 'trip.changed', data: {} });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await t.db.transaction().execute(async (trx) => {
      await appendEvent(trx, t.clock, { tenantId: 'tn_prairie', subsidiaryId: null, type: 'trip.changed', data: {} });
      await new Promise((resolve) => setImmediate(resolve));
      expect(woken).toBe(false);
    });
    // Woken by the commit: the 30-second timer would outlast the test's 5.
    await waiting;
  }, 5_000);

  it("ends a wait when the client's connection closes", async () => {
    const connection = Object.assign(new EventEmitter(), { destroyed: false });
    const waiting = nextFeedChange(30_000, connection);
    connection.emit('close');
    await waiting;
    expect(connection.listenerCount('close')).toBe(0);
    // A request whose client is gone already does not wait at all.
    await nextFeedChange(30_000, Object.assign(new EventEmitter(), { destroyed: true }));
  }, 5_000);

  it('does not wait when the page has events', async () => {
    const start = await endOf();
    const id = await emit('trip.changed', 'sub_kc');
    expect(ids(await feed({ After: start, Wait: 30 }))).toEqual([id]);
  });
});

describe('deletions are events', () => {
  it('DELETE /customers/{id} and document deletes appear in the feed', async () => {
    const start = await endOf();
    const created = await t.api(`${V}/customers`, { method: 'POST', as: ALL, body: { Name: 'Feed Mirror Co', Type: 'Customer' } });
    expect(created.status).toBe(201);
    const id = created.body.Id;
    expect((await t.api(`${V}/customers/${id}`, { method: 'DELETE', as: ALL, headers: { 'If-Match': created.headers.get('etag')! } })).status).toBe(204);
    expect((await t.api(`${V}/loads/L-1001/documents/doc_1001_ratecon`, { method: 'DELETE', as: ALL })).status).toBe(204);
    expect((await t.api(`${V}/carriers/car_redriver/documents/doc_car_authority`, { method: 'DELETE', as: ALL })).status).toBe(204);

    const items = (await drain(start)).items;
    const of = (type: string) => items.filter((i) => i.type === type).map((i) => i.data.Id ?? i.data.id);
    expect(of('customer.created')).toEqual([id]);
    expect(of('customer.deleted')).toEqual([id]);
    expect(of('document.deleted')).toEqual(['doc_1001_ratecon']);
    expect(of('carrier.document.deleted')).toEqual(['doc_car_authority']);
    expect(items.findIndex((i) => i.type === 'customer.deleted')).toBeGreaterThan(items.findIndex((i) => i.type === 'customer.created'));
  });

  it('every DELETE operation is accounted for: its deletion event, or why a mirror needs none', async () => {
    const doc = (await (await fetch(`${t.apiUrl}/openapi.json`)).json()) as OpenApiDocument;
    const deletes = operationsOf(doc).filter((op) => op.method === 'DELETE').map((op) => op.path.replace('/api/p/v{version}', ''));
    const accounted: Record<string, string> = {
      '/customers/{id}': 'customer.deleted',
      '/loads/{loadNumber}/documents/{documentId}': 'document.deleted',
      '/trips/{tripId}/documents/{documentId}': 'document.deleted',
      '/carriers/{carrierId}/documents/{documentId}': 'carrier.document.deleted',
      // Changes of a trip, announced as trip.changed with the trip's stops.
      '/trips/{tripId}/stops/{stopId}': 'trip.changed',
      '/trips/{tripId}/stops/{stopId}/arrival': 'trip.changed',
      // Records no event announces (not in the feed at all), so there is nothing to mirror.
      '/deductions/{id}': 'none: deductions have no events',
      '/loads/{loadNumber}/tracking-link': 'none: tracking links have no events',
      '/webhooks/{id}': 'none: subscriptions are configuration, not events',
    };
    expect(deletes.sort()).toEqual(Object.keys(accounted).sort());
  });
});

describe('retention', () => {
  it('prunes dispatched events past 30 days, keeps undispatched ones, and answers 410 for a cursor before them', async () => {
    const dispatcher = new Dispatcher({ db: t.db, config: t.config, clock: t.clock });
    const start = await endOf();
    const old = await emit('trip.changed', 'sub_kc');
    await dispatcher.tick();
    const afterOld = (await drain(start)).cursor;
    const undispatched = await emit('trip.changed', 'sub_kc');
    const harborStart = await endOf('tn_harbor-all');

    // Retention runs 31 days later (the API's clock stays, so its tokens do).
    const later = new ManualClock(new Date(t.clock.now().getTime() + 31 * 24 * 3600_000));
    const young = await emit('load.changed', 'sub_kc', 'tn_prairie', later);
    await pruneEvents(t.db, { clock: later });
    const left = await t.db.selectFrom('outbox').select('id').where('id', 'in', [old, undispatched, young]).execute();
    expect(left.map((r) => r.id).sort()).toEqual([undispatched, young].sort());

    const gone = await feed({ After: start });
    expect(gone.status).toBe(410);
    expect(gone.body.Type).toMatch(/\/errors\/Gone$/);
    expect((await drain(afterOld)).items.map((i) => i.id)).toEqual([undispatched, young]);
    expect(ids(await feed({ PageSize: 1 }))).toEqual([undispatched]);
    // Pruning took only tn_harbor's events up to its cursor: the cursor still reads.
    expect((await feed({ After: harborStart }, 'tn_harbor-all')).status).toBe(200);

    await dispatcher.tick();
    later.advance(31 * 24 * 3600_000);
    await pruneEvents(t.db, { clock: later });
    expect((await feed({ After: afterOld })).status).toBe(410);
    expect((await feed({})).body.Items).toEqual([]);
  });
});

describe('commit order with concurrent writers', () => {
  it('a reader paging with Wait sees every event exactly once, in cursor order, when the transaction that started first commits last', async (context) => {
    if (dialectOf(t.db) !== 'postgres') return context.skip(); // SQLite has one writer at a time.
    const start = await endOf();
    const rounds = 15;
    const expected: string[] = [];
    const seen: string[] = [];
    let done = false;
    const reader = (async () => {
      let cursor = start;
      while (!done || seen.length < expected.length) {
        const response = await feed({ After: cursor, Wait: 1, PageSize: 3 });
        expect(response.status).toBe(200);
        seen.push(...ids(response));
        cursor = response.body.NextCursor;
        if (done && response.body.Items.length === 0) break;
      }
    })();
    for (let round = 0; round < rounds; round++) {
      let releaseFirst!: () => void;
      const firstMayCommit = new Promise<void>((resolve) => (releaseFirst = resolve));
      let firstAppended!: () => void;
      const appended = new Promise<void>((resolve) => (firstAppended = resolve));
      const first = t.db.transaction().execute(async (trx) => {
        const id = await appendEvent(trx, t.clock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type: 'trip.changed', data: { round, first: true } });
        firstAppended();
        await firstMayCommit;
        return id;
      });
      await appended;
      const second = await t.db.transaction().execute((trx) =>
        appendEvent(trx, t.clock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type: 'trip.changed', data: { round, first: false } }),
      );
      // The reader reads the second one while the first is still open (the case a position
      // taken at insert gets wrong: the first's would be below a cursor already handed out).
      while (!seen.includes(second)) await new Promise((resolve) => setTimeout(resolve, 5));
      releaseFirst();
      expected.push(second, await first);
    }
    done = true;
    await reader;
    expect([...seen].sort()).toEqual([...expected].sort());
    expect(new Set(seen).size).toBe(seen.length);
    const positions = await t.db.selectFrom('outbox').select(['id', 'feed_seq']).where('id', 'in', seen).execute();
    const positionOf = new Map(positions.map((p) => [p.id, Number(p.feed_seq)]));
    expect(seen.map((id) => positionOf.get(id)!)).toEqual([...seen.map((id) => positionOf.get(id)!)].sort((a, b) => a - b));
  }, 60_000);
});
