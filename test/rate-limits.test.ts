import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, type App } from '../adapters/app.js';
import { createLogger, silentLogger, type Logger } from '../adapters/logger.js';
import { RateLimits } from '../adapters/http/rate-limit.js';
import { PostgresRateLimitStore } from '../adapters/http/rate-limit-store-postgres.js';
import { endpointRuleCount, endpointRuleFor } from '../adapters/http/rate-rules.js';
import { buildRoutes } from '../adapters/rest/routes.js';
import { appRouter } from '../core/router.js';
import { ZPathId, input } from '../core/shared/schemas.js';
import { authedProcedure, router } from '../core/trpc.js';
import { createDb } from '../db/create-db.js';
import { AUDIENCE, fetchToken, secretOf, startTestApp, type TestApp } from './harness.js';
import { testDatabaseKind } from './support/database.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const SUB_KC = '/api/p/v1.0/subsidiaries/sub_kc';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMITS: 'on', TRPC_RATE_LIMIT: '5' } });
});
afterAll(async () => {
  await t?.close();
});

/**
 * Moves a test's clock to the start of a minute, five minutes on: every window and block an
 * earlier test left (blocks last at most 3 minutes) is over, and fixed windows are aligned.
 */
function freshMinute(app: TestApp = t): void {
  const now = app.clock.now().getTime();
  app.clock.set(new Date(now - (now % MINUTE) + 5 * MINUTE));
}

/** A request to any API host with a bearer token. */
async function get(baseUrl: string, path: string, token?: string) {
  const response = await fetch(baseUrl + path, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

async function postToken(authUrl: string, clientId: string) {
  const response = await fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: secretOf(clientId), audience: AUDIENCE, grant_type: 'client_credentials' }),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

function expectRateLimitProblem(response: { status: number; headers: Headers; body: any }, retryAfter: number, base = t.apiUrl) {
  expect(response.status).toBe(429);
  expect(response.headers.get('retry-after')).toBe(String(retryAfter));
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body).toMatchObject({ Type: `${base}/errors/RateLimited`, Status: 429, Detail: `Retry after ${retryAfter} seconds.` });
}

describe('the endpoint table', () => {
  it('configures all 26 rules of docs/api-rules.md#rate-limits, looked up by method and template', () => {
    expect(endpointRuleCount).toBe(26);
    expect(endpointRuleFor('GET', '/api/p/v{version}/drivers/{driverId}')).toEqual({
      name: 'GET drivers/{id}',
      points: 10,
      windowSeconds: 60,
      blockSeconds: 180,
    });
    expect(endpointRuleFor('GET', '/api/p/v{version}/drivers')).toMatchObject({ points: 5, blockSeconds: 60 });
    expect(endpointRuleFor('POST', '/api/p/v{version}/fuel/search')).toMatchObject({ points: 5, blockSeconds: 60 });
    expect(endpointRuleFor('GET', '/api/p/v{version}/users/list')).toMatchObject({ points: 5, blockSeconds: 180 });
    expect(endpointRuleFor('PUT', '/api/p/v{version}/drivers/{id}')).toBeUndefined();
    expect(endpointRuleFor('GET', '/api/p/v{version}/subsidiaries/{id}')).toBeUndefined();
  });

  // Every route of the API that the table names, as the routes come to exist.
  const tableRoutes = buildRoutes(appRouter).flatMap((route) => {
    const rule = endpointRuleFor(route.method, route.template);
    return rule ? [{ name: rule.name, route, rule }] : [];
  });

  it.each(tableRoutes)('applies its rule to $name: threshold per minute per client, then the block', async ({ route, rule }) => {
    freshMinute();
    const path = route.template.replace('{version}', '1.0').replace(/\{[^}]+\}/g, 'rl-probe');
    const send = () => t.api(path, { method: route.method, as: 'tn_prairie-all', ...(route.method === 'GET' ? {} : { body: {} }) });
    for (let i = 0; i < rule.points; i++) {
      const response = await send();
      expect(response.status).not.toBe(429);
      expect(response.headers.get('ratelimit-policy')).toBe(`"${rule.name}";q=${rule.points};w=60`);
    }
    const refused = await send();
    expectRateLimitProblem(refused, rule.blockSeconds);
    // Counted per client application: another client of the tenant still gets through.
    expect((await t.api(path, { method: route.method, as: 'prairie-integration', ...(route.method === 'GET' ? {} : { body: {} }) })).status).not.toBe(429);
  });
});

describe('per access token and per tenant', () => {
  it('allows a token 10 requests a second, with RateLimit headers, then 429 until the second ends', async () => {
    freshMinute();
    for (let i = 0; i < 10; i++) {
      const response = await t.api(SUB_KC, { as: 'prairie-readonly' });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"token";q=10;w=1');
      expect(response.headers.get('ratelimit')).toBe(`"token";r=${9 - i};t=1`);
    }
    const refused = await t.api(SUB_KC, { as: 'prairie-readonly' });
    expectRateLimitProblem(refused, 1);
    expect(refused.headers.get('ratelimit')).toBe('"token";r=0;t=1');
    // Per token: another token of the same tenant is not affected.
    expect((await t.api(SUB_KC, { as: 'prairie-integration' })).status).toBe(200);

    t.clock.advance(999);
    expectRateLimitProblem(await t.api(SUB_KC, { as: 'prairie-readonly' }), 1);
    t.clock.advance(1);
    expect((await t.api(SUB_KC, { as: 'prairie-readonly' })).status).toBe(200);
  });

  it('allows a tenant 50 requests a second across its tokens', async () => {
    freshMinute();
    const clients = ['tn_prairie-all', 'prairie-integration', 'prairie-readonly', 'sub_kc-all', 'sub_dal-all'];
    for (const client of [...clients, 'tn_prairie-none', 'harbor-integration']) await t.token(client);
    for (let i = 0; i < 10; i++) {
      for (const client of clients) {
        expect((await t.api('/api/p/v1.0/subsidiaries', { as: client })).status).toBe(200);
      }
    }
    // A sixth token of the tenant, fresh under its own 10: the tenant's 50 are used up.
    const refused = await t.api('/api/p/v1.0/subsidiaries', { as: 'tn_prairie-none' });
    expectRateLimitProblem(refused, 1);
    expect(refused.headers.get('ratelimit-policy')).toBe('"tenant";q=50;w=1');
    // Another tenant has its own budget.
    expect((await t.api('/api/p/v1.0/subsidiaries', { as: 'harbor-integration' })).status).toBe(200);
    t.clock.advance(SECOND);
    expect((await t.api('/api/p/v1.0/subsidiaries', { as: 'tn_prairie-none' })).status).toBe(403);
  });

  it('checks the limit after authentication and before the scope (401 is not counted, 403 is)', async () => {
    freshMinute();
    for (let i = 0; i < 12; i++) expect((await t.api(SUB_KC, { as: 'raw:not-a-token' })).status).toBe(401);
    for (let i = 0; i < 10; i++) expect((await t.api('/api/p/v1.0/subsidiaries', { as: 'tn_prairie-none' })).status).toBe(403);
    expect((await t.api('/api/p/v1.0/subsidiaries', { as: 'tn_prairie-none' })).status).toBe(429);
  });
});

// Only subsidiaries exist among the real routes a test can reach in every state of the tree,
// so the endpoint-rule mechanism is also shown on test procedures at table paths.
const probeRouter = router({
  getTruck: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/api/p/v{version}/trucks/{truckId}' }, scopes: ['truck:read'] })
    .input(input({ truckId: ZPathId }))
    .output(z.object({ Id: z.string() }))
    .query(({ input }) => ({ Id: input.truckId })),
  getThing: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/api/p/v{version}/things/{thingId}' }, scopes: ['truck:read'] })
    .input(input({ thingId: ZPathId }))
    .output(z.object({ Id: z.string() }))
    .query(({ input }) => ({ Id: input.thingId })),
});

describe('an endpoint rule (GET trucks/{id}: 10 a minute, then 3 minutes blocked)', () => {
  let probe: TestApp;
  beforeAll(async () => {
    probe = await startTestApp({ env: { RATE_LIMITS: 'on' }, router: probeRouter });
  });
  afterAll(async () => {
    await probe?.close();
  });

  it('replaces the token and tenant rules, counts per client and blocks without extending the block', async () => {
    freshMinute(probe);
    probe.clock.advance(15 * SECOND);
    // All ten in the same second: the per-token 10/s does not apply on this route.
    for (let i = 0; i < 10; i++) {
      const response = await probe.api('/api/p/v1.0/trucks/tr_1', { as: 'tn_prairie-all' });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"GET trucks/{id}";q=10;w=60');
      expect(response.headers.get('ratelimit')).toBe(`"GET trucks/{id}";r=${9 - i};t=45`);
    }
    // Nor do requests on it count against the token elsewhere: ten more in this second pass.
    for (let i = 0; i < 10; i++) {
      const response = await probe.api('/api/p/v1.0/things/a', { as: 'tn_prairie-all' });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"token";q=10;w=1');
    }

    // The 11th passes the threshold: the block starts now and lasts 3 minutes.
    expectRateLimitProblem(await probe.api('/api/p/v1.0/trucks/tr_2', { as: 'tn_prairie-all' }), 180, probe.apiUrl);
    // Per client application: a second token of the same client shares the budget...
    const secondToken = await fetchToken(probe.authUrl, 'tn_prairie-all', secretOf('tn_prairie-all'));
    expectRateLimitProblem(await get(probe.apiUrl, '/api/p/v1.0/trucks/tr_1', secondToken), 180, probe.apiUrl);
    // ...another client of the tenant does not.
    expect((await probe.api('/api/p/v1.0/trucks/tr_1', { as: 'prairie-integration' })).status).toBe(200);

    // Retry-After counts down to the block's end; refused requests do not extend it.
    for (const [advance, left] of [
      [45 * SECOND, 135],
      [60 * SECOND, 75],
      [74 * SECOND, 1],
      [500, 1],
    ] as const) {
      probe.clock.advance(advance);
      expectRateLimitProblem(await probe.api('/api/p/v1.0/trucks/tr_1', { as: 'tn_prairie-all' }), left, probe.apiUrl);
    }
    probe.clock.advance(500);
    const after = await probe.api('/api/p/v1.0/trucks/tr_1', { as: 'tn_prairie-all' });
    expect(after.status).toBe(200);
    expect(after.headers.get('ratelimit')).toBe('"GET trucks/{id}";r=9;t=45');
  });
});

describe('the default rule for other /api/ paths, per client IP', () => {
  it('allows 1 in the first second and 10 a minute, then blocks for 3 minutes', async () => {
    freshMinute();
    const first = await t.api('/api/unknown');
    expect(first.status).toBe(404);
    expect(first.headers.get('ratelimit')).toBe('"default-burst";r=0;t=1');
    // Before the route lookup: any path under /api/, with or without a token.
    const burst = await t.api('/api/other', { as: 'prairie-readonly' });
    expectRateLimitProblem(burst, 1);
    expect(burst.headers.get('ratelimit-policy')).toBe('"default-burst";q=1;w=1');

    for (let i = 2; i <= 10; i++) {
      t.clock.advance(SECOND);
      const response = await t.api(`/api/unknown-${i}`);
      expect(response.status).toBe(404);
    }
    t.clock.advance(SECOND);
    const blocked = await t.api('/api/unknown');
    expectRateLimitProblem(blocked, 180);
    expect(blocked.headers.get('ratelimit-policy')).toBe('"default";q=10;w=60');

    t.clock.advance(MINUTE);
    expectRateLimitProblem(await t.api('/api/unknown'), 120);
    t.clock.advance(119 * SECOND);
    expectRateLimitProblem(await t.api('/api/unknown'), 1);
    t.clock.advance(SECOND);
    expect((await t.api('/api/unknown')).status).toBe(404);
    // The versioned API is not under the default rule.
    expect((await t.api(SUB_KC, { as: 'prairie-readonly' })).status).toBe(200);
  });
});

describe('tokenless paths', () => {
  it('allow 20 requests a second per client IP across /healthz, /openapi.json and /docs', async () => {
    freshMinute();
    for (let i = 0; i < 20; i++) {
      const response = await t.api(i % 2 ? '/healthz' : '/openapi.json');
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBe(`"public";r=${19 - i};t=1`);
    }
    const refused = await t.api('/docs');
    expectRateLimitProblem(refused, 1);
    expect(refused.headers.get('ratelimit-policy')).toBe('"public";q=20;w=1');
    t.clock.advance(SECOND);
    expect((await t.api('/healthz')).status).toBe(200);
  });
});

describe('the internal procedure endpoint /api/trpc', () => {
  const call = (token: string) => get(t.apiUrl, `/api/trpc/subsidiaries.getSubsidiary?input=${encodeURIComponent('{"id":"sub_kc"}')}`, token);

  it('has its own limit per client (TRPC_RATE_LIMIT, here 5 a second)', async () => {
    freshMinute();
    const token = await t.token('prairie-integration');
    for (let i = 0; i < 5; i++) {
      const response = await call(token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBe(`"trpc";r=${4 - i};t=1`);
    }
    const refused = await call(token);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('ratelimit-policy')).toBe('"trpc";q=5;w=1');
    expect(refused.body.error.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', httpStatus: 429 });
    // Other clients, and REST for the same token, keep their own budgets.
    expect((await call(await t.token('prairie-readonly'))).status).toBe(200);
    expect((await t.api(SUB_KC, { as: 'prairie-integration' })).status).toBe(200);
    t.clock.advance(SECOND);
    expect((await call(token)).status).toBe(200);
  });
});

describe('the token endpoint', () => {
  it('allows a client 30 token requests a minute; the 31st is an OAuth 429 until the minute ends', async () => {
    freshMinute();
    t.clock.advance(20 * SECOND);
    for (let i = 0; i < 30; i++) expect((await postToken(t.authUrl, 'sub_harbor_main-all')).status).toBe(200);
    const refused = await postToken(t.authUrl, 'sub_harbor_main-all');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('content-type')).toBe('application/json');
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(refused.body).toEqual({ error: 'too_many_requests', error_description: 'Too many token requests; cache the token for expires_in.' });
    t.clock.advance(40 * SECOND);
    expect((await postToken(t.authUrl, 'sub_harbor_main-all')).status).toBe(200);
  });
});

describe('RATE_LIMITS=off', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp({ env: { RATE_LIMITS: 'off' } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('counts nothing and sends no RateLimit headers', async () => {
    for (let i = 0; i < 15; i++) {
      const response = await off.api(SUB_KC, { as: 'prairie-readonly' });
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit')).toBeNull();
    }
    for (let i = 0; i < 3; i++) expect((await off.api('/api/unknown')).status).toBe(404);
    for (let i = 0; i < 31; i++) expect((await postToken(off.authUrl, 'sub_harbor_main-all')).status).toBe(200);
  });
});

/** A second app (another API process) on the test app's database and clock. */
async function secondApp(options: { rateLimits?: RateLimits; logger?: Logger } = {}) {
  const app: App = await createApp({
    db: t.db,
    config: { ...t.config },
    clock: t.clock,
    logger: options.logger ?? silentLogger(),
    ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
  });
  const urls = await app.listen({ port: 0, authPort: 0 });
  return { app, ...urls };
}

describe('several API processes', () => {
  it.skipIf(testDatabaseKind() !== 'postgres')('share one budget on Postgres: requests through two apps count against one limit', async () => {
    const b = await secondApp();
    try {
      freshMinute();
      const token = await t.token('prairie-readonly');
      // Each process leases slices of the shared budget (LeasingRateLimitStore): exactly 10 pass
      // between them. The first, alone, reports the exact remaining; once a process has seen
      // the other lease, it reports only the slice it holds, never more than is left.
      for (let i = 0; i < 10; i++) {
        const response = await get(i % 2 ? b.apiUrl : t.apiUrl, SUB_KC, token);
        expect(response.status).toBe(200);
        const remaining = Number(/^"token";r=(\d+);t=1$/.exec(response.headers.get('ratelimit') ?? '')?.[1]);
        if (i === 0) expect(remaining).toBe(9);
        if (i % 2) expect(remaining).toBeLessThanOrEqual(9 - i);
      }
      expect((await get(b.apiUrl, SUB_KC, token)).status).toBe(429);
      expect((await get(t.apiUrl, SUB_KC, token)).status).toBe(429);

      // The token endpoints of both processes share the client's 30 a minute too.
      for (let i = 0; i < 30; i++) expect((await postToken(i % 2 ? b.authUrl : t.authUrl, 'sub_kc-all')).status).toBe(200);
      expect((await postToken(b.authUrl, 'sub_kc-all')).status).toBe(429);
      expect((await postToken(t.authUrl, 'sub_kc-all')).status).toBe(429);
    } finally {
      await b.app.close();
    }
  });
});

describe('an unreachable store', () => {
  it('keeps the API serving: requests answer 200 uncounted and a warning is logged', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const dead = createDb(`postgres://postgres:postgres@127.0.0.1:${port}/waybill`);
    const lines: Array<Record<string, any>> = [];
    const logger = createLogger('warn', { write: (line: string) => void lines.push(JSON.parse(line)) });
    const rateLimits = new RateLimits({ enabled: true, store: new PostgresRateLimitStore(dead), clock: t.clock, logger });
    const c = await secondApp({ rateLimits, logger });
    try {
      freshMinute();
      const token = await t.token('prairie-readonly');
      for (let i = 0; i < 12; i++) {
        const response = await get(c.apiUrl, SUB_KC, token);
        expect(response.status).toBe(200);
        expect(response.headers.get('ratelimit')).toBeNull();
      }
      for (let i = 0; i < 3; i++) expect((await get(c.apiUrl, '/healthz')).status).toBe(200);
      expect((await postToken(c.authUrl, 'prairie-readonly')).status).toBe(200);
      const warnings = lines.filter((line) => line.level === 'warn');
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ store: 'postgres', msg: 'rate limit store unavailable: requests are let through uncounted' });
    } finally {
      await c.app.close();
      await dead.destroy();
    }
  });
});
