// The SDK's events iterator (clients/typescript/src/events.ts) against a running server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientCredentials, createWaybillClient, EventFeedError, type FeedEvent } from '../clients/typescript/src/index.js';
import { appendEvent } from '../core/events/outbox.repository.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
function emit(type: string) {
  return t.db.transaction().execute((trx) =>
    appendEvent(trx, t.clock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type, data: { Id: `rec_${++counter}` } }),
  );
}

// The demo's integration client holds event:read.
const client = () =>
  createWaybillClient({
    baseUrl: t.apiUrl,
    auth: clientCredentials({ authUrl: t.authUrl, clientId: 'prairie-integration', clientSecret: secretOf('prairie-integration'), audience: AUDIENCE }),
  });

/** Takes `count` events of the iterable, then stops it. */
async function take(feed: AsyncIterable<FeedEvent>, count: number, onEach?: (event: FeedEvent, index: number) => Promise<void>) {
  const taken: FeedEvent[] = [];
  for await (const event of feed) {
    taken.push(event);
    await onEach?.(event, taken.length - 1);
    if (taken.length === count) break;
  }
  return taken;
}

describe('client.events()', () => {
  it('follows NextCursor from the oldest event, then long-polls for the next one', async () => {
    const first = [await emit('trip.changed'), await emit('load.changed'), await emit('trip.status.changed')];
    const api = client();
    const feed = api.events({ pageSize: 2, wait: 30 });
    let later: string | undefined;
    const events = await take(feed, 4, async (_event, index) => {
      // Committed while the iterator waits on an empty page (it asks again after the third).
      if (index === 2) setTimeout(() => void emit('customer.deleted').then((id) => (later = id)), 200);
    });
    expect(events.map((e) => e.id)).toEqual([...first, later]);
    expect(events[3]).toMatchObject({ type: 'customer.deleted', data: { Id: expect.any(String) } });
  }, 20_000);

  it('resumes from a saved cursor with what follows, filtered by types', async () => {
    const api = client();
    const everything = api.events({ wait: 0 });
    const seen = await take(everything, (await t.db.selectFrom('outbox').select('id').where('tenant_id', '=', 'tn_prairie').where('kind', '=', 'event').execute()).length);
    expect(seen.length).toBeGreaterThan(0);
    const saved = everything.cursor!;
    const trip = await emit('trip.changed');
    await emit('load.changed');
    const status = await emit('trip.status.changed');
    const resumed = await take(api.events({ after: saved, types: ['trip.*'], wait: 5 }), 2);
    expect(resumed.map((e) => e.id)).toEqual([trip, status]);
  }, 20_000);

  it('throws EventFeedError with the problem for a refused request', async () => {
    const feed = client().events({ after: 'not-a-cursor' });
    const error = await take(feed, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EventFeedError);
    expect(error).toMatchObject({ status: 400, problem: { Errors: { After: [expect.any(String)] } } });
  });
});
