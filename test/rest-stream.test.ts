import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { input } from '../core/shared/schemas.js';
import { authedProcedure, router } from '../core/trpc.js';
import { startTestApp, type TestApp } from './harness.js';
import { streamed, ZStreamed } from '../core/answer-headers.js';

/** The REST edge's streamed answers (a procedure returning `streamed(...)`), through a router of its own. */
function streaming(path: string, chunks: () => AsyncGenerator<string>) {
  return authedProcedure
    .meta({ openapi: { method: 'GET', path: `/api/p/v{version}/stream-test/${path}`, protect: true }, scopes: ['webhook:read'] })
    .input(input({}))
    .output(ZStreamed)
    .query(() => streamed({ contentType: 'text/plain; charset=utf-8', fileName: 'a "b".txt', chunks: chunks() }));
}

const testRouter = router({
  many: streaming('many', async function* () {
    for (let i = 0; i < 2000; i++) yield `${'x'.repeat(1000)}\n`;
  }),
  failsFirst: streaming('fails-first', async function* () {
    throw new Error('database went away');
  }),
  failsLater: streaming('fails-later', async function* () {
    yield 'a'.repeat(100_000);
    throw new Error('database went away');
  }),
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ router: testRouter });
});
afterAll(async () => {
  await t?.close();
});

describe('streamed REST answers', () => {
  it('streams the chunks with the content type and a safe download name', async () => {
    const response = await t.api('/api/p/v1.0/stream-test/many', { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.text).toHaveLength(2000 * 1001);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="a__b_.txt"');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('api-version')).toBe('1.0');
  });

  it('answers HEAD with the headers only', async () => {
    const response = await t.api('/api/p/v1.0/stream-test/many', { method: 'HEAD', as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
  });

  it('answers a problem when the body fails before its first chunk', async () => {
    const response = await t.api('/api/p/v1.0/stream-test/fails-first', { as: 'tn_prairie-all' });
    expect(response.status).toBe(500);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(response.text).not.toContain('database went away');
  });

  it('cuts the connection when the body fails later', async () => {
    await expect(t.api('/api/p/v1.0/stream-test/fails-later', { as: 'tn_prairie-all' })).rejects.toThrow();
  });
});
