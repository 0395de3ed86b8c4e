import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildRoutes, bySpecificity } from '../adapters/rest/routes.js';
import { appRouter } from '../core/router.js';
import { AppError } from '../core/errors.js';
import { input } from '../core/shared/schemas.js';
import { authedProcedure, createCallerFactory, guardMiddleware, router } from '../core/trpc.js';
import { startTestApp, type TestApp } from './harness.js';

/**
 * One way to run a procedure: REST runs the procedure's own middleware list (its plan), tRPC
 * HTTP and createCaller run tRPC's chain over the same list. A guard added to a procedure
 * holds on every transport; a middleware REST cannot run stops the server at startup.
 */

const seen: string[] = [];
const refuseOrange = guardMiddleware(({ ctx }) => {
  seen.push(ctx.principal?.ClientId ?? 'anonymous');
  if (ctx.request?.accept === 'application/orange') throw new AppError('CONFLICT', 'Oranges are refused here.');
  return ctx;
});

const echo = (path: string, name: string) =>
  authedProcedure
    .use(refuseOrange)
    .meta({ openapi: { method: 'GET', path: `/api/p/v{version}/plan-test/${path}`, protect: true }, scopes: ['subsidiary:read'] })
    .input(input({ id: z.string().optional() }))
    .output(z.object({ Name: z.string(), Id: z.string().nullable() }))
    .query(({ input }) => ({ Name: name, Id: input.id ?? null }));

// Declared parameter-first on purpose: routes must order themselves by specificity.
const testRouter = router({
  byId: echo('{id}', 'byId'),
  search: echo('search', 'search'),
  deep: echo('{id}/details', 'deep'),
  literalDeep: echo('search/details', 'literalDeep'),
  // Asynchronous rules on both sides: REST parses synchronously first, then falls back.
  asyncRules: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/api/p/v{version}/plan-async/{id}', protect: true }, scopes: ['subsidiary:read'] })
    .input(input({ id: z.string().refine(async (id) => id !== 'refused', 'is refused') }))
    .output(z.object({ Id: z.string().refine(async (id) => id !== 'unsendable') }))
    .query(({ input }) => ({ Id: input.id })),
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ router: testRouter });
});
afterAll(async () => {
  await t?.close();
});

describe('routes order themselves', () => {
  it('serves a literal path before a parameterised one declared earlier', async () => {
    expect((await t.api('/api/p/v1.0/plan-test/search', { as: 'tn_prairie-all' })).body.Name).toBe('search');
    expect((await t.api('/api/p/v1.0/plan-test/search/details', { as: 'tn_prairie-all' })).body.Name).toBe('literalDeep');
    const byId = await t.api('/api/p/v1.0/plan-test/abc', { as: 'tn_prairie-all' });
    expect(byId.body).toEqual({ Name: 'byId', Id: 'abc' });
    expect((await t.api('/api/p/v1.0/plan-test/abc/details', { as: 'tn_prairie-all' })).body).toEqual({ Name: 'deep', Id: 'abc' });
  });

  it('puts every literal of the app router before the parameter beside it', () => {
    const templates = buildRoutes(appRouter).map((route) => `${route.method} ${route.template}`);
    const before = (a: string, b: string) => expect(templates.indexOf(a)).toBeLessThan(templates.indexOf(b));
    before('GET /api/p/v{version}/webhooks/event-types', 'GET /api/p/v{version}/webhooks/{id}');
    before('POST /api/p/v{version}/deductions/search', 'DELETE /api/p/v{version}/deductions/{id}');
    before('POST /api/p/v{version}/drivers/search', 'GET /api/p/v{version}/drivers/{id}');
    expect(templates.indexOf('GET /api/p/v{version}/webhooks/event-types')).toBeGreaterThanOrEqual(0);
  });

  it('compares segment by segment, literals first', () => {
    expect(bySpecificity('/a/search', '/a/{id}')).toBeLessThan(0);
    expect(bySpecificity('/a/{id}', '/a/search')).toBeGreaterThan(0);
    expect(bySpecificity('/a/{id}/x', '/a/{id}/{y}')).toBeLessThan(0);
    expect(bySpecificity('/a/{id}', '/a/{id}')).toBe(0);
  });
});

describe('one way to run a procedure', () => {
  it('runs an added guard on REST', async () => {
    seen.length = 0;
    const allowed = await t.api('/api/p/v1.0/plan-test/abc', { as: 'tn_prairie-all' });
    expect(allowed.status).toBe(200);
    expect(seen).toEqual(['tn_prairie-all']);
    const refused = await t.api('/api/p/v1.0/plan-test/abc', { as: 'tn_prairie-all', headers: { accept: 'application/orange' } });
    expect(refused.status).toBe(409);
    expect(refused.body.Detail ?? refused.body.detail).toBe('Oranges are refused here.');
  });

  it('runs the same guard for tRPC HTTP and createCaller', async () => {
    const token = await t.token('tn_prairie-all');
    const overHttp = await fetch(`${t.apiUrl}/api/trpc/byId?input=${encodeURIComponent(JSON.stringify({ id: 'x' }))}`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/orange' },
    });
    expect(overHttp.status).toBe(409);
    expect(await overHttp.text()).toContain('Oranges are refused here.');

    const principal = { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal', Scopes: ['subsidiary:read'] };
    const caller = createCallerFactory(testRouter)({
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal,
      request: { accept: 'application/orange' },
    });
    await expect(caller.byId({ id: 'x' })).rejects.toThrow('Oranges are refused here.');
  });

  it('validates input and output with asynchronous rules as well as synchronous ones', async () => {
    const as = 'tn_prairie-all';
    expect((await t.api('/api/p/v1.0/plan-async/fine', { as })).body).toEqual({ Id: 'fine' });
    const refused = await t.api('/api/p/v1.0/plan-async/refused', { as });
    expect(refused.status).toBe(400);
    expect(refused.body.Errors).toEqual({ id: ['is refused'] });
    expect((await t.api('/api/p/v1.0/plan-async/unsendable', { as })).status).toBe(500);
  });

  it('refuses to start with a middleware REST cannot run', () => {
    const plain = router({
      sneaky: authedProcedure
        .use(({ next }) => next())
        .meta({ openapi: { method: 'GET', path: '/api/p/v{version}/plan-test/sneaky', protect: true } })
        .input(input({}))
        .output(z.object({}))
        .query(() => ({})),
    });
    expect(() => buildRoutes(plain)).toThrow(/sneaky: middleware .* is not a guard/);
  });
});
