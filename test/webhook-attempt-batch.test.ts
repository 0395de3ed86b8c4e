import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { appendEvent } from '../core/events/outbox.repository.js';
import { appendShares, type ShareDraft } from '../core/visibility-shares/share.repository.js';
import type { PostResult } from '../core/webhooks/post-signed.js';
import { AttemptLog, type Outcome } from '../core/webhooks/attempt-log.js';
import { claimDue, type Delivery } from '../core/webhooks/delivery.repository.js';
import { fanOut } from '../core/webhooks/fan-out.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { SECRET_KEY, startTestApp, type TestApp } from './harness.js';
import { acceptAll, startReceiver, type Receiver } from './support/webhook-receiver.js';
import { webhookFixture } from './support/webhook-fixture.js';

/**
 * The dispatcher's group commit: attempts that finish together are written with a fixed number
 * of statements whatever their number, with the results of writing them one at a time.
 */
let t: TestApp;
let receiver: Receiver;
let hookId: string;
const delays = { saved: [] as number[] };

beforeAll(async () => {
  t = await startTestApp({ fixture: webhookFixture() });
  receiver = await startReceiver();
  delays.saved = t.config.webhookRetryDelays;
  const created = await t.api('/api/p/v1.0/webhooks', {
    method: 'POST',
    as: 'tn_prairie-all',
    body: { Name: 'batch', Url: `${receiver.url}/hook`, SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] },
  });
  expect(created.status, created.text).toBe(201);
  hookId = created.body.Id;
  await t.db
    .updateTable('customers')
    .set({ visibility_url: `${receiver.url}/visibility`, visibility_secret_encrypted: encryptSecret(SECRET_KEY, 'visibility-secret', generateWebhookSecret()) })
    .where('id', '=', 'cus_heartland')
    .execute();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
beforeEach(async () => {
  t.clock.set('2026-11-22T12:00:00Z');
  // Each test starts with an empty queue and only its own subscription receiving.
  await t.db.updateTable('outbox').set({ dispatched_at: t.clock.now().toISOString() }).where('dispatched_at', 'is', null).execute();
  await t.db.deleteFrom('webhook_deliveries').execute();
  await t.db.updateTable('webhooks').set({ enabled: 0 }).execute();
  await t.db.updateTable('webhooks').set({ enabled: 1, status: 'Active', consecutive_failures: 0 }).where('id', '=', hookId).execute();
  receiver.requests.length = 0;
  receiver.respond = acceptAll;
});
afterEach(() => {
  t.config.webhookRetryDelays = delays.saved;
});

async function queueShares(n: number): Promise<void> {
  const load = await t.db.selectFrom('loads').select(['id', 'load_number', 'subsidiary_id']).where('load_number', '=', 'L-1001').executeTakeFirstOrThrow();
  const drafts: ShareDraft[] = Array.from({ length: n }, (_, i) => ({
    tenantId: 'tn_prairie',
    subsidiaryId: load.subsidiary_id,
    customerId: 'cus_heartland',
    loadId: load.id,
    loadNumber: load.load_number,
    tripId: null,
    tripNumber: null,
    eventType: 'Location',
    type: 'tracking.location',
    stopId: null,
    coordinates: { Latitude: `38.${i}`, Longitude: '-97.0' },
    address: null,
    data: { LoadNumber: load.load_number, Seq: i },
  }));
  await appendShares(t.db, t.clock, drafts);
}

async function queueEvents(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await appendEvent(t.db, t.clock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type: 'trip.changed', data: { Id: `trip_${i}` } });
}

const deliveries = () => t.db.selectFrom('webhook_deliveries').selectAll().orderBy('id').execute();
const attemptsOf = (deliveryId: string) => t.db.selectFrom('webhook_delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
const shareOf = (outboxId: string) => t.db.selectFrom('visibility_shares').select(['status', 'error']).where('id', '=', outboxId).executeTakeFirstOrThrow();
const hook = () => t.db.selectFrom('webhooks').select(['consecutive_failures', 'enabled']).where('id', '=', hookId).executeTakeFirstOrThrow();

/** Counts the statements executed through a Kysely instance and its transactions, by kind (`DeleteQueryNode`, …). */
class StatementCounter implements KyselyPlugin {
  count = 0;
  readonly byKind = new Map<string, number>();
  private readonly kinds = new WeakMap<object, string>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.kinds.set(args.queryId, args.node.kind);
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count += 1;
    const kind = this.kinds.get(args.queryId) ?? 'unknown';
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
    return args.result;
  }
}

const result = (status: PostResult['status'], httpStatus: number | null): Outcome => ({
  status,
  httpStatus,
  durationMs: 3,
  reason: status === 'success' ? null : status === 'timeout' ? 'No answer within 10 ms.' : `The receiver answered HTTP ${httpStatus}.`,
  responseBody: null,
});
const skipped: Outcome = { status: 'skipped', httpStatus: null, durationMs: 0, reason: 'The subscription was disabled when the delivery was due.', responseBody: null };

describe('a tick over real HTTP', () => {
  it('moves every delivery on, shares included, and a delivery whose lease was taken meanwhile writes nothing', async () => {
    await queueShares(8);
    await queueEvents(8);
    let stolenMessage: string | undefined;
    receiver.respond = (request, res) => {
      if (stolenMessage || request.path !== '/visibility') return acceptAll(request, res);
      // Another worker takes this delivery over while its attempt is on the wire.
      stolenMessage = String(request.headers['webhook-id']);
      void t.db
        .updateTable('webhook_deliveries')
        .set({ lease_token: 'another-worker' })
        .where('message_id', '=', stolenMessage)
        .execute()
        .then(() => acceptAll(request, res));
    };
    expect(await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick()).toEqual({ fannedOut: 16, attempted: 16 });
    expect(receiver.requests).toHaveLength(16);
    const stolen = (await t.db.selectFrom('webhook_deliveries').select('id').where('message_id', '=', stolenMessage!).executeTakeFirstOrThrow()).id;

    const rows = await deliveries();
    expect(rows).toHaveLength(16);
    for (const row of rows) {
      const log = await attemptsOf(row.id);
      if (row.id === stolen) {
        expect(row).toMatchObject({ state: 'pending', attempts: 0, lease_token: 'another-worker' });
        expect(log).toEqual([]);
        expect(await shareOf(row.outbox_id!)).toEqual({ status: 'Pending', error: null });
        continue;
      }
      expect(row).toMatchObject({ state: 'succeeded', attempts: 1, lease_until: null, lease_token: null });
      expect(log.map((a) => [a.attempt, a.status, a.http_status])).toEqual([[1, 'success', 200]]);
      if (row.customer_id) expect(await shareOf(row.outbox_id!)).toEqual({ status: 'Completed', error: null });
    }
    expect(rows.filter((row) => row.customer_id)).toHaveLength(8);

    // The other worker dies: once its lease runs out, the delivery's first attempt is logged as attempt 1.
    await t.db.updateTable('webhook_deliveries').set({ lease_until: t.clock.now().toISOString() }).where('id', '=', stolen).execute();
    expect((await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick()).attempted).toBe(1);
    const [redelivered] = await t.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', stolen).execute();
    expect(redelivered).toMatchObject({ state: 'succeeded', attempts: 1, lease_token: null });
    expect((await attemptsOf(stolen)).map((a) => a.attempt)).toEqual([1]);
    expect(await shareOf(redelivered!.outbox_id!)).toEqual({ status: 'Completed', error: null });
  });

  it('schedules failed posts on the retry delays and records their shares as Failed with the Error', async () => {
    await queueShares(3);
    await queueEvents(3);
    receiver.respond = (_request, res) => {
      res.writeHead(502);
      res.end();
    };
    await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick();
    const due = new Date(t.clock.now().getTime() + t.config.webhookRetryDelays[0]! * 1000).toISOString();
    for (const row of await deliveries()) {
      expect(row).toMatchObject({ state: 'pending', attempts: 1, next_attempt_at: due, lease_token: null });
      expect((await attemptsOf(row.id)).map((a) => [a.attempt, a.status, a.http_status])).toEqual([[1, 'failure', 502]]);
      if (row.customer_id) expect(await shareOf(row.outbox_id!)).toEqual({ status: 'Failed', error: 'The receiver answered HTTP 502.' });
    }
    expect(await hook()).toEqual({ consecutive_failures: 0, enabled: 1 });
  });

  it('drops the claimed deliveries of a receiver deleted meanwhile, in one statement, and attempts the others', async () => {
    await queueShares(2);
    await queueEvents(3);
    await fanOut(t.db, t.clock.now().toISOString(), 1000);
    const dropped = (await deliveries()).filter((row) => row.webhook_id).map((row) => row.id);
    expect(dropped).toHaveLength(3);
    // The subscription goes between the fan-out and the claim (its own deletion removes its deliveries with it).
    const gone = await t.db.selectFrom('webhooks').selectAll().where('id', '=', hookId).executeTakeFirstOrThrow();
    await t.db.deleteFrom('webhooks').where('id', '=', hookId).execute();
    try {
      const counter = new StatementCounter();
      expect((await new Dispatcher({ db: t.db.withPlugin(counter), config: t.config, clock: t.clock }).tick()).attempted).toBe(5);
      const left = await deliveries();
      expect(left.map((row) => [row.customer_id, row.state])).toEqual([
        ['cus_heartland', 'succeeded'],
        ['cus_heartland', 'succeeded'],
      ]);
      expect(receiver.requests.map((r) => r.path)).toEqual(['/visibility', '/visibility']);
      expect(await t.db.selectFrom('webhook_delivery_attempts').select('id').where('delivery_id', 'in', dropped).execute()).toEqual([]);
      expect(counter.byKind.get('DeleteQueryNode')).toBe(1);
    } finally {
      await t.db.insertInto('webhooks').values(gone).execute();
    }
  });
});

describe('one group commit', () => {
  /** Claims what is queued and records the outcomes in one group, counting the statements it takes. */
  async function recordGroup(outcomesOf: (claimed: Delivery[]) => Outcome[], steal?: (claimed: Delivery[]) => Delivery) {
    await fanOut(t.db, t.clock.now().toISOString(), 1000);
    const claimed = await claimDue(t.db, t.clock, t.config, 1000);
    const stolen = steal?.(claimed);
    if (stolen) await t.db.updateTable('webhook_deliveries').set({ lease_token: 'another-worker' }).where('id', '=', stolen.id).execute();
    const outcomes = outcomesOf(claimed);
    const counter = new StatementCounter();
    const log = new AttemptLog(t.db.withPlugin(counter), t.clock, t.config);
    const attemptedAt = t.clock.now().toISOString();
    await Promise.all(claimed.map((delivery, index) => log.record(delivery, attemptedAt, outcomes[index]!)));
    return { claimed, outcomes, stolen, statements: counter.count };
  }

  const mix = [result('success', 204), skipped, result('failure', 500), result('timeout', null)];
  /** Each kind of delivery (shares, events) goes through the whole mix in turn. */
  const mixed = (claimed: Delivery[]) => {
    const seen = { share: 0, event: 0 };
    return claimed.map((delivery) => mix[seen[delivery.customer_id ? 'share' : 'event']++ % mix.length]!);
  };

  it('takes as many statements for 80 attempts as for 8, with the same results per attempt', async () => {
    const counts: number[] = [];
    for (const each of [1, 10]) {
      await t.db.deleteFrom('webhook_deliveries').execute();
      await queueShares(4 * each);
      // One event more, whose delivery another worker takes over.
      await queueEvents(4 * each + 1);
      const { claimed, outcomes, stolen, statements } = await recordGroup(mixed, (all) => all.filter((d) => d.webhook_id).at(-1)!);
      counts.push(statements);
      const retryAt = new Date(t.clock.now().getTime() + t.config.webhookRetryDelays[0]! * 1000).toISOString();
      for (const [index, delivery] of claimed.entries()) {
        const [row] = await t.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', delivery.id).execute();
        const log = await attemptsOf(delivery.id);
        if (delivery === stolen) {
          expect(row).toMatchObject({ state: 'pending', attempts: 0, lease_token: 'another-worker' });
          expect(log).toEqual([]);
          continue;
        }
        const outcome = outcomes[index]!;
        const expected =
          outcome.status === 'success'
            ? { state: 'succeeded', next_attempt_at: delivery.next_attempt_at, share: { status: 'Completed', error: null } }
            : outcome.status === 'skipped'
              ? { state: 'skipped', next_attempt_at: delivery.next_attempt_at, share: { status: 'Failed', error: outcome.reason } }
              : { state: 'pending', next_attempt_at: retryAt, share: { status: 'Failed', error: outcome.reason } };
        expect(row).toMatchObject({ state: expected.state, attempts: 1, next_attempt_at: expected.next_attempt_at, lease_until: null, lease_token: null });
        expect(log.map((a) => [a.attempt, a.status, a.http_status, a.reason])).toEqual([[1, outcome.status, outcome.httpStatus, outcome.reason]]);
        if (delivery.customer_id) expect(await shareOf(delivery.outbox_id!)).toEqual(expected.share);
      }
    }
    expect(counts[1]).toBe(counts[0]);
  });

  it('counts failed events in the order they ended: a success in the group resets the count before the failures after it', async () => {
    t.config.webhookRetryDelays = [];
    await t.db.updateTable('webhooks').set({ consecutive_failures: 4 }).where('id', '=', hookId).execute();
    await queueEvents(4);
    // failed, succeeded, failed, failed: 2 once all is written.
    const order = [result('failure', 500), result('success', 200), result('timeout', null), result('failure', 503)];
    const { claimed } = await recordGroup(() => order);
    expect(claimed.map((d) => d.webhook_id)).toEqual([hookId, hookId, hookId, hookId]);
    expect(await hook()).toEqual({ consecutive_failures: 2, enabled: 1 });

    // Without a success, every failed event adds up; the tenth in a row disables the subscription.
    await queueEvents(8);
    await recordGroup((claimed) => claimed.map(() => result('failure', 500)));
    expect(await hook()).toEqual({ consecutive_failures: 10, enabled: 0 });
    const states = await t.db.selectFrom('webhook_deliveries').select('state').where('webhook_id', '=', hookId).execute();
    expect(states.filter((row) => row.state === 'failed')).toHaveLength(11);
  });

  it('gives a replayed delivery its whole retry schedule again within a group', async () => {
    t.config.webhookRetryDelays = [5, 60];
    await queueEvents(2);
    await fanOut(t.db, t.clock.now().toISOString(), 1000);
    // One delivery has had its two retries and ends now; the other was replayed after them (retry_base) and retries again.
    const [spent, replayed] = await deliveries();
    await t.db.updateTable('webhook_deliveries').set({ attempts: 2 }).where('id', '=', spent!.id).execute();
    await t.db.updateTable('webhook_deliveries').set({ attempts: 3, retry_base: 3 }).where('id', '=', replayed!.id).execute();
    await recordGroup((claimed) => claimed.map(() => result('failure', 500)));
    const after = new Map((await deliveries()).map((row) => [row.id, row]));
    expect(after.get(spent!.id)).toMatchObject({ state: 'failed', attempts: 3 });
    expect(after.get(replayed!.id)).toMatchObject({ state: 'pending', attempts: 4, next_attempt_at: new Date(t.clock.now().getTime() + 5_000).toISOString() });
    expect((await attemptsOf(replayed!.id)).map((a) => a.attempt)).toEqual([4]);
  });
});
