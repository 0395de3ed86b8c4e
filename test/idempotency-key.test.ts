import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, type App } from '../adapters/app.js';
import { silentLogger } from '../adapters/logger.js';
import { input } from '../core/shared/schemas.js';
import { authedProcedure, router } from '../core/trpc.js';
import { deleteExpiredKeys } from '../core/idempotency/request-idempotency-key.repository.js';
import { fetchToken, secretOf, startTestApp, type ApiInit, type ApiResponse, type TestApp } from './harness.js';
import { withHeaders } from '../core/answer-headers.js';

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const SIBLING = 'sub_kc-all';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
const fresh = (what: string) => `${what}-${++counter}-${Date.now()}`;
const withKey = (key: string, init: ApiInit = {}): ApiInit => ({ as: ALL, method: 'POST', ...init, headers: { ...init.headers, 'Idempotency-Key': key } });
const createCustomer = (key: string, name: string, as = ALL) =>
  t.api(`${base}/customers`, withKey(key, { as, body: { Name: name, Type: 'Customer' } }));
const customersNamed = async (name: string) =>
  Number(
    (await t.db.selectFrom('customers').select((eb) => eb.fn.countAll<number>().as('n')).where('name', '=', name).executeTakeFirstOrThrow()).n,
  );
const keyRows = async (key: string) =>
  Number(
    (
      await t.db
        .selectFrom('request_idempotency_keys')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('idempotency_key', '=', key)
        .executeTakeFirstOrThrow()
    ).n,
  );

function expectReplayOf(replay: ApiResponse, first: ApiResponse) {
  expect(replay.status).toBe(first.status);
  expect(replay.text).toBe(first.text);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  for (const name of ['location', 'etag', 'content-type']) expect(replay.headers.get(name), name).toBe(first.headers.get(name));
}

describe('Idempotency-Key: replays', () => {
  it('replays a create: the stored 201 with its body, Location, ETag and Content-Type, and creates nothing more', async () => {
    const key = fresh('create');
    const name = fresh('Keyed Customer');
    const first = await createCustomer(key, name);
    expect(first.status).toBe(201);
    expect(first.headers.get('location')).toMatch(/\/customers\//);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replay = await createCustomer(key, name);
    expectReplayOf(replay, first);
    expect(replay.headers.get('api-version')).toBe('1.0');
    expect(await customersNamed(name)).toBe(1);
  });

  it('replays a search with the first answer, even after the data changed', async () => {
    const key = fresh('search');
    const name = fresh('Searched Customer');
    const body = { Name: name };
    const first = await t.api(`${base}/customers/search`, withKey(key, { body }));
    expect(first.status).toBe(200);
    expect(first.body.Total).toBe(0);
    expect((await createCustomer(fresh('other'), name)).status).toBe(201);
    const replay = await t.api(`${base}/customers/search`, withKey(key, { body }));
    expectReplayOf(replay, first);
    expect(replay.body.Total).toBe(0);
  });

  it('replays a 4xx outcome (400 validation, 404) without running the request again', async () => {
    const invalidKey = fresh('invalid');
    const invalid = await t.api(`${base}/customers`, withKey(invalidKey, { body: { Type: 'Customer' } }));
    expect(invalid.status).toBe(400);
    expectReplayOf(await t.api(`${base}/customers`, withKey(invalidKey, { body: { Type: 'Customer' } })), invalid);

    const missingKey = fresh('missing');
    const missing = await t.api(`${base}/tenders/tnd_nope/reject`, withKey(missingKey, { body: { Reason: 'No capacity' } }));
    expect(missing.status).toBe(404);
    expectReplayOf(await t.api(`${base}/tenders/tnd_nope/reject`, withKey(missingKey, { body: { Reason: 'No capacity' } })), missing);
  });

  it('refuses the key with another body or another path: 409 Conflict/IdempotencyKeyReuse, nothing written', async () => {
    const key = fresh('reuse');
    const name = fresh('Reused Customer');
    expect((await createCustomer(key, name)).status).toBe(201);
    const otherBody = await createCustomer(key, `${name} changed`);
    expect(otherBody.status).toBe(409);
    expect(otherBody.body.Type).toBe(`${t.apiUrl}/errors/Conflict/IdempotencyKeyReuse`);
    expect(otherBody.headers.get('content-type')).toBe('application/problem+json');
    expect(await customersNamed(`${name} changed`)).toBe(0);
    const otherPath = await t.api(`${base}/customers/search`, withKey(key, { body: { Name: name } }));
    expect(otherPath.status).toBe(409);
    expect(otherPath.body.Type).toBe(`${t.apiUrl}/errors/Conflict/IdempotencyKeyReuse`);
  });

  it("treats another client's identical key as unrelated, also within the same tenant", async () => {
    const key = fresh('shared');
    const name = fresh('Client Customer');
    const mine = await createCustomer(key, name);
    const theirs = await createCustomer(key, name, SIBLING);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.Id).not.toBe(mine.body.Id);
    expect(await customersNamed(name)).toBe(2);
  });

  it('composes with ExternalId: the key replay answers first, a new key reaches the ExternalId replay', async () => {
    const externalId = fresh('ext');
    const body = { Name: fresh('External Customer'), Type: 'Customer', ExternalId: externalId };
    const key = fresh('composed');
    const first = await t.api(`${base}/customers`, withKey(key, { body }));
    expect(first.status).toBe(201);
    expectReplayOf(await t.api(`${base}/customers`, withKey(key, { body })), first);
    const otherKey = await t.api(`${base}/customers`, withKey(fresh('composed'), { body }));
    expect(otherKey.status).toBe(409);
    expect(otherKey.body.Type).toBe(`${t.apiUrl}/errors/Conflict/Duplicate`);
  });

  it('leaves requests without the header and other methods as they were', async () => {
    const name = fresh('Unkeyed Customer');
    const body = { Name: name, Type: 'Customer' };
    expect((await t.api(`${base}/customers`, { method: 'POST', as: ALL, body })).status).toBe(201);
    expect((await t.api(`${base}/customers`, { method: 'POST', as: ALL, body })).status).toBe(201);
    expect(await customersNamed(name)).toBe(2);
    const read = await t.api(`${base}/customers?Name=${encodeURIComponent(name)}`, { as: ALL, headers: { 'Idempotency-Key': ' not checked on GET' } });
    expect(read.status).toBe(200);
  });
});

/** A raw request, so header bytes fetch would refuse (a non-ASCII key) reach the server. */
function rawPost(path: string, token: string, key: string, body: string): Promise<{ status: number; body: any }> {
  const url = new URL(t.apiUrl + path);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('Idempotency-Key: malformed keys', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a space inside', 'my key'],
    ['non-ASCII', 'clé-1'],
    ['a tab inside', 'a\tb'],
  ])('refuses a key with %s: 400 naming Idempotency-Key, nothing written', async (_, key) => {
    const name = fresh('Malformed Customer');
    const response = await rawPost(`${base}/customers`, await t.token(ALL), key, JSON.stringify({ Name: name, Type: 'Customer' }));
    expect(response.status).toBe(400);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Validation`);
    expect(Object.keys(response.body.Errors)).toEqual(['Idempotency-Key']);
    expect(await customersNamed(name)).toBe(0);
    expect(await keyRows(key)).toBe(0);
  });

  it('accepts the extremes: 1 and 255 visible characters, ! and ~', async () => {
    for (const key of ['!', `~${'x'.repeat(253)}!`.slice(0, 255)]) {
      const unique = key.length === 1 ? key : `${fresh('k')}${key}`.slice(0, 255);
      const response = await createCustomer(unique, fresh('Extreme Customer'));
      expect(response.status).toBe(201);
    }
  });
});

describe('Idempotency-Key: expiry, credentials', () => {
  it('forgets a key after 24 hours: the same request then runs again, and the expiry pass deletes old keys', async () => {
    const started = t.clock.now();
    // Tokens live shorter than a day: each moment of the test gets its own.
    const tokenNow = async () => `raw:${await fetchToken(t.authUrl, ALL, secretOf(ALL))}`;
    try {
      const key = fresh('expiring');
      const name = fresh('Expiring Customer');
      expect((await createCustomer(key, name)).status).toBe(201);
      t.clock.advance(23 * 3600_000);
      expect((await createCustomer(key, name, await tokenNow())).headers.get('idempotent-replayed')).toBe('true');
      t.clock.advance(3600_000 + 1000);
      const again = await createCustomer(key, name, await tokenNow());
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBeNull();
      expect(await customersNamed(name)).toBe(2);

      const stale = fresh('stale');
      expect((await createCustomer(stale, fresh('Stale Customer'), await tokenNow())).status).toBe(201);
      t.clock.advance(24 * 3600_000 + 1000);
      expect(await deleteExpiredKeys(t.db, t.clock.now())).toBeGreaterThanOrEqual(2);
      expect(await keyRows(stale)).toBe(0);
      expect(await keyRows(key)).toBe(0);
    } finally {
      t.clock.set(started);
    }
  });

  it('never stores a 401 or 403: the corrected request with the same key runs', async () => {
    const key = fresh('credential');
    const name = fresh('Credential Customer');
    const body = { Name: name, Type: 'Customer' };
    expect((await t.api(`${base}/customers`, withKey(key, { as: 'raw:not-a-token', body }))).status).toBe(401);
    expect((await t.api(`${base}/customers`, withKey(key, { as: 'tn_prairie-none', body }))).status).toBe(403);
    const created = await t.api(`${base}/customers`, withKey(key, { body }));
    expect(created.status).toBe(201);
    expect(created.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Idempotency-Key: concurrency', () => {
  it('50 concurrent identical requests with one key create exactly one record', async () => {
    const key = fresh('fifty');
    const name = fresh('Concurrent Customer');
    await t.token(ALL);
    const responses = await Promise.all(Array.from({ length: 50 }, () => createCustomer(key, name)));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409), statuses.join()).toBe(true);
    const created = responses.filter((r) => r.status === 201 && r.headers.get('idempotent-replayed') === null);
    expect(created).toHaveLength(1);
    for (const r of responses.filter((r) => r.status === 409)) expect(r.body.Type).toMatch(/\/Conflict\/RequestInProgress$/);
    expect(await customersNamed(name)).toBe(1);
    expectReplayOf(await createCustomer(key, name), created[0]!);
  });

  describe('two API instances on one database', () => {
    let second: App;
    let secondUrl: string;
    beforeAll(async () => {
      second = await createApp({ db: t.db, config: t.config, clock: t.clock, logger: silentLogger() });
      secondUrl = (await second.listen({ port: 0, authPort: 0 })).apiUrl;
    });
    afterAll(async () => {
      await second?.close();
    });

    const postTo = async (url: string, key: string, body: unknown) => {
      const response = await fetch(`${url}${base}/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await t.token(ALL)}`, 'content-type': 'application/json', 'Idempotency-Key': key },
        body: JSON.stringify(body),
      });
      return { status: response.status, replayed: response.headers.get('idempotent-replayed'), text: await response.text() };
    };

    it('share keys: 50 identical requests spread over both create one record, and either replays it', async () => {
      const key = fresh('two-apps');
      const body = { Name: fresh('Two Apps Customer'), Type: 'Customer' };
      const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => postTo(i % 2 ? secondUrl : t.apiUrl, key, body)));
      expect(responses.filter((r) => r.status === 201 && r.replayed === null)).toHaveLength(1);
      expect(await customersNamed(body.Name)).toBe(1);
      const original = responses.find((r) => r.status === 201 && r.replayed === null)!;
      for (const url of [t.apiUrl, secondUrl]) {
        const replay = await postTo(url, key, body);
        expect(replay).toEqual({ status: 201, replayed: 'true', text: original.text });
      }
    });
  });
});

/**
 * A route held open until the test lets it go: a request "still running" without sleeps. It
 * writes inside a transaction, like the real creates, so the claim is fenced there.
 */
const gates: Array<{ entered: () => void; release: Promise<void> }> = [];
let runs = 0;
const heldRouter = router({
  holdThing: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/api/p/v{version}/held-things' }, scopes: ['load:update'], successStatus: 201 })
    .input(input({ Name: z.string() }))
    .output(z.object({ Name: z.string(), Run: z.number() }))
    .mutation(async ({ ctx, input: body }) => {
      const gate = gates.shift();
      if (gate) {
        gate.entered();
        await gate.release;
      }
      runs += 1;
      await ctx.db.transaction().execute(async (trx) => {
        await trx.selectFrom('tenants').select('id').execute();
      });
      return withHeaders({ Name: body.Name, Run: runs }, { location: `/api/p/v1.0/held-things/${body.Name}` });
    }),
});

function gate() {
  let entered!: () => void;
  let release!: () => void;
  const enteredPromise = new Promise<void>((resolve) => (entered = resolve));
  const releasePromise = new Promise<void>((resolve) => (release = resolve));
  gates.push({ entered, release: releasePromise });
  return { entered: enteredPromise, release };
}

describe('Idempotency-Key: a request still running', () => {
  let h: TestApp;
  beforeAll(async () => {
    h = await startTestApp({ router: heldRouter, env: { RATE_LIMITS: 'on' } });
  });
  afterAll(async () => {
    await h?.close();
  });
  const hold = (key: string, name: string) =>
    h.api(`${base}/held-things`, { method: 'POST', as: ALL, body: { Name: name }, headers: { 'Idempotency-Key': key } });

  it('answers 409 Conflict/RequestInProgress while the first runs, whatever the body, then replays', async () => {
    const key = fresh('held');
    const g = gate();
    const first = hold(key, 'a');
    await g.entered;
    const busy = await hold(key, 'a');
    expect(busy.status).toBe(409);
    expect(busy.body.Type).toBe(`${h.apiUrl}/errors/Conflict/RequestInProgress`);
    expect((await hold(key, 'other body')).body.Type).toMatch(/RequestInProgress$/);
    g.release();
    const done = await first;
    expect(done.status).toBe(201);
    const replay = await hold(key, 'a');
    expect(replay.status).toBe(201);
    expect(replay.text).toBe(done.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    h.clock.advance(2_000);
  });

  it('lets a retry take over a claim left running for 5 minutes (a dead process); the superseded request writes nothing', async () => {
    const key = fresh('abandoned');
    const g = gate();
    const first = hold(key, 'a');
    await g.entered;
    h.clock.advance(5 * 60_000 + 1_000);
    const takeover = await hold(key, 'a');
    expect(takeover.status).toBe(201);
    expect(takeover.headers.get('idempotent-replayed')).toBeNull();
    g.release();
    const superseded = await first;
    expect(superseded.status).toBe(409);
    expect(superseded.body.Type).toMatch(/RequestInProgress$/);
    const replay = await hold(key, 'a');
    expect(replay.text).toBe(takeover.text);
  });

  it('never stores a 429: once the window passes, the same key runs', async () => {
    h.clock.advance(2_000);
    const keys = Array.from({ length: 12 }, () => fresh('limited'));
    const answers = [];
    for (const key of keys) answers.push(await hold(key, 'x'));
    const limited = answers.findIndex((a) => a.status === 429);
    expect(limited).toBeGreaterThan(-1);
    expect(await h.db.selectFrom('request_idempotency_keys').select('idempotency_key').where('idempotency_key', '=', keys[limited]!).execute()).toHaveLength(0);
    h.clock.advance(2_000);
    const retried = await hold(keys[limited]!, 'x');
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
  });
});

describe('Idempotency-Key: stored answers are sealed', () => {
  it('a keyed answer carrying a secret (a tracking link token) is replayed, but the database never holds it in the clear', async () => {
    const key = fresh('sealed');
    const first = await t.api(`${base}/loads/L-1001/tracking-link`, withKey(key));
    expect(first.status, first.text).toBe(201);
    const token = new URL(first.body.Url).pathname.split('/').pop()!;
    expect(token.length).toBeGreaterThan(20);
    const replay = await t.api(`${base}/loads/L-1001/tracking-link`, withKey(key));
    expectReplayOf(replay, first);
    const row = await t.db.selectFrom('request_idempotency_keys').selectAll().where('idempotency_key', '=', key).executeTakeFirstOrThrow();
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain('/track/');
    expect(row.response_status).toBe(201);
  });
});
