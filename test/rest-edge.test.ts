import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../core/errors.js';
import { ZPathId, input } from '../core/shared/schemas.js';
import { authedProcedure, router } from '../core/trpc.js';
import { startTestApp, type TestApp } from './harness.js';
import { withHeaders } from '../core/answer-headers.js';

// Procedures that exercise the edge the way later resources will: a create with a body,
// a route with the positions' 8 KiB limit, a literal path registered before a parameter.
const ZThing = z.object({ Id: z.string(), Name: z.string(), Latitude: z.string().nullable() });
const testRouter = router({
  searchThings: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/api/p/v{version}/things/search' }, scopes: ['load:read'] })
    .input(input({ Name: z.string().optional() }))
    .output(z.object({ Searched: z.boolean() }))
    .mutation(() => ({ Searched: true })),
  createThing: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/api/p/v{version}/things/{thingId}' }, scopes: ['load:update'], successStatus: 201 })
    .input(
      input({
        thingId: ZPathId,
        Name: z.string().min(1).max(5),
        Position: z.strictObject({ Latitude: z.string() }).optional(),
      }),
    )
    .output(ZThing)
    .mutation(({ input }) =>
      withHeaders(
        { Id: input.thingId, Name: input.Name, Latitude: input.Position?.Latitude ?? null },
        { location: `/api/p/v1.0/things/${input.thingId}`, etag: '"v1"' },
      ),
    ),
  getThing: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/api/p/v{version}/things/{thingId}' }, scopes: ['load:read'] })
    .input(input({ thingId: ZPathId }))
    .output(ZThing)
    .query(({ input }) => {
      if (input.thingId === 'conflict') {
        throw new AppError('CONFLICT', 'Already there.', { subtype: 'StaleLocation', extensions: { CurrentRecordedAt: '2026-01-01T00:00:00Z' } });
      }
      if (input.thingId === 'boom') throw new Error('SELECT secret_hash FROM api_clients -- internal detail');
      return { Id: input.thingId, Name: 'x', Latitude: null };
    }),
  postPosition: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/api/p/v{version}/positions' }, scopes: ['visibility:create'], bodyLimit: 8192, successStatus: 201 })
    .input(input({ Note: z.string() }))
    .output(z.object({ Length: z.number() }))
    .mutation(({ input }) => ({ Length: input.Note.length })),
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ router: testRouter });
});
afterAll(async () => {
  await t?.close();
});

const as = 'tn_prairie-all';
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  t.api(path, { method: 'POST', as, body, headers });

describe('request bodies', () => {
  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'text/json',
    'application/vnd.waybill+json',
    'application/json-patch+json',
  ])('accepts %s and answers 201 with Location and ETag', async (contentType) => {
    const response = await post('/api/p/v1.0/things/t1', { Name: 'abc' }, { 'content-type': contentType });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ Id: 't1', Name: 'abc', Latitude: null });
    expect(response.headers.get('location')).toBe('/api/p/v1.0/things/t1');
    expect(response.headers.get('etag')).toBe('"v1"');
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])('answers 415 for %s', async (contentType) => {
    const response = await post('/api/p/v1.0/things/t1', '{"Name":"abc"}', { 'content-type': contentType });
    expect(response.status).toBe(415);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/UnsupportedMediaType`);
  });

  it.each([
    ['an array', '[{"Name":"abc"}]'],
    ['a scalar', '"abc"'],
    ['null', 'null'],
    ['invalid JSON', '{"Name":'],
  ])('answers 400 for %s', async (_label, raw) => {
    const response = await post('/api/p/v1.0/things/t1', raw);
    expect(response.status).toBe(400);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Validation`);
    expect(response.body.Errors).toBeTypeOf('object');
  });

  it('names an unknown property, nested ones with their path', async () => {
    const response = await post('/api/p/v1.0/things/t1', { Name: 'abc', Colour: 'red', Position: { Latitude: '1', Extra: 1 } });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors).sort()).toEqual(['Colour', 'Position.Extra']);
  });

  it('names a missing and a too-long field', async () => {
    const missing = await post('/api/p/v1.0/things/t1', {});
    expect(missing.status).toBe(400);
    expect(missing.body.Errors).toEqual({ Name: [expect.any(String)] });
    const long = await post('/api/p/v1.0/things/t1', { Name: 'abcdef' });
    expect(Object.keys(long.body.Errors)).toEqual(['Name']);
  });

  it('refuses path parameters or the version in the body', async () => {
    const response = await post('/api/p/v1.0/things/t1', { Name: 'abc', thingId: 'other' });
    expect(response.status).toBe(400);
    expect(response.body.Errors).toHaveProperty('thingId');
  });

  it('answers 413 above 1 MiB by default', async () => {
    const response = await post('/api/p/v1.0/things/t1', { Name: 'x'.repeat(1024 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/PayloadTooLarge`);
  });

  it('applies a route limit of 8 KiB: 8,192 bytes pass, 8,193 do not', async () => {
    const bodyOf = (size: number) => `{"Note":"${'n'.repeat(size - 11)}"}`;
    expect(bodyOf(8192)).toHaveLength(8192);
    const fits = await t.api('/api/p/v1.0/positions', { method: 'POST', as: 'tn_prairie-all', body: bodyOf(8192) });
    expect(fits.status).toBe(201);
    const over = await t.api('/api/p/v1.0/positions', { method: 'POST', as: 'tn_prairie-all', body: bodyOf(8193) });
    expect(over.status).toBe(413);
  });
});

describe('routes and versions', () => {
  it('matches a literal path before a parameterised one', async () => {
    const response = await post('/api/p/v1.0/things/search', {});
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Searched: true });
  });

  it('answers 404 for an unknown path under /api/p/', async () => {
    const response = await t.api('/api/p/v1.0/nothing-here', { as });
    expect(response.status).toBe(404);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/NotFound`);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const response = await t.api('/api/p/v1.0/things/t1', { method: 'DELETE', as });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/MethodNotAllowed`);
  });

  it.each(['v1', 'v1.0', 'v1.0.0', 'v2.0', 'V1.0'])('accepts path version %s', async (version) => {
    const response = await t.api(`/api/p/${version}/things/t1`, { as });
    expect(response.status).toBe(200);
    expect(response.headers.get('api-version')).toBe('1.0');
  });

  it('refuses another version with UnsupportedApiVersion, before authentication', async () => {
    const response = await t.api('/api/p/v3.0/things/t1', { as: null });
    expect(response.status).toBe(400);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/UnsupportedApiVersion`);
    expect(response.body.SupportedVersions).toEqual(['1.0']);
  });

  it('lets the api-version header override the path', async () => {
    const ok = await t.api('/api/p/v9/things/t1', { as, headers: { 'api-version': 'v1' } });
    expect(ok.status).toBe(200);
    const bad = await t.api('/api/p/v1.0/things/t1', { as, headers: { 'api-version': '4.0' } });
    expect(bad.status).toBe(400);
  });
});

describe('order of checks and error bodies', () => {
  it('authenticates before reading the body', async () => {
    const response = await t.api('/api/p/v1.0/things/t1', { method: 'POST', as: null, body: '[1]' });
    expect(response.status).toBe(401);
  });

  it('checks the scope before the body', async () => {
    const response = await t.api('/api/p/v1.0/things/t1', { method: 'POST', as: 'tn_prairie-none', body: { Colour: 1 } });
    expect(response.status).toBe(403);
  });

  it('carries a problem subtype and extension members', async () => {
    const response = await t.api('/api/p/v1.0/things/conflict', { as });
    expect(response.status).toBe(409);
    expect(response.body).toMatchObject({
      Type: `${t.apiUrl}/errors/Conflict/StaleLocation`,
      Status: 409,
      CurrentRecordedAt: '2026-01-01T00:00:00Z',
      Instance: '/api/p/v1.0/things/conflict',
    });
  });

  it('answers an unexpected error with a bare 500 problem: no stack, no SQL', async () => {
    const response = await t.api('/api/p/v1.0/things/boom', { as });
    expect(response.status).toBe(500);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Internal`);
    expect(response.text).not.toMatch(/SELECT|secret_hash|at .*\.ts/);
  });

  it('echoes a safe X-Request-Id and makes one otherwise', async () => {
    const given = await t.api('/api/p/v1.0/things/t1', { as, headers: { 'x-request-id': 'abc-123' } });
    expect(given.headers.get('x-request-id')).toBe('abc-123');
    const made = await t.api('/api/p/v1.0/things/t1', { as, headers: { 'x-request-id': 'bad id with spaces!' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  // The procedure's own answer writes X-Request-Id in one header list with the rest; every
  // refusal sets it on the response first. Each kind of answer carries exactly the one sent.
  it.each([
    ['a read', '/api/p/v1.0/things/t1', {}, 200],
    ['a HEAD', '/api/p/v1.0/things/t1', { method: 'HEAD' }, 200],
    ['a created record', '/api/p/v1.0/things/t1', { method: 'POST', body: { Name: 'a' } }, 201],
    ['an unknown path', '/api/p/v1.0/nothing-here', {}, 404],
    ['a wrong method', '/api/p/v1.0/things/t1', { method: 'DELETE' }, 405],
    ['an unknown version', '/api/p/v3.0/things/t1', {}, 400],
    ['no token', '/api/p/v1.0/things/t1', { as: null }, 401],
    ['a missing scope', '/api/p/v1.0/things/t1', { method: 'POST', as: 'tn_prairie-none', body: { Name: 'a' } }, 403],
    ['an invalid body', '/api/p/v1.0/things/t1', { method: 'POST', body: { Name: '' } }, 400],
    ['a problem from the procedure', '/api/p/v1.0/things/conflict', {}, 409],
    ['an unexpected error', '/api/p/v1.0/things/boom', {}, 500],
    ['a page of another origin', '/api/p/v1.0/things/t1', { headers: { origin: 'https://elsewhere.example' } }, 200],
  ] as const)('sends the X-Request-Id once on %s', async (_name, path, init, status) => {
    const options = init as { method?: string; as?: string | null; body?: unknown; headers?: Record<string, string> };
    const response = await t.api(path, { as, ...options, headers: { ...options.headers, 'x-request-id': 'one-id' } });
    expect(response.status).toBe(status);
    expect(response.headers.get('x-request-id')).toBe('one-id');
  });
});
