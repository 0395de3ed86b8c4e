import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../adapters/logger.js';
import { secretOf, startTestApp, AUDIENCE, type TestApp } from './harness.js';

// Both hosts log one line a request with the same fields, level names and a request id that
// is also the answer's X-Request-Id, so an operator follows a client from token to API call.
const lines: any[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const line of chunk.toString().split('\n')) if (line.trim()) lines.push(JSON.parse(line));
    done();
  },
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ logger: createLogger('info', sink) });
});
afterAll(async () => {
  await t?.close();
});

const requestLine = (requestId: string) => lines.find((line) => line.msg === 'request' && line.requestId === requestId);

describe('request logs', () => {
  it('the token host and the API host log the same fields, level names and the X-Request-Id', async () => {
    const token = await fetch(`${t.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-token-1' },
      body: JSON.stringify({ client_id: 'tn_prairie-all', client_secret: secretOf('tn_prairie-all'), audience: AUDIENCE, grant_type: 'client_credentials' }),
    });
    expect(token.status).toBe(200);
    expect(token.headers.get('x-request-id')).toBe('trace-token-1');
    const { access_token } = (await token.json()) as { access_token: string };

    const call = await t.api('/api/p/v1.0/subsidiaries', { as: `raw:${access_token}`, headers: { 'x-request-id': 'trace-api-1' } });
    expect(call.status).toBe(200);
    expect(call.headers.get('x-request-id')).toBe('trace-api-1');

    const unnamed = await fetch(`${t.authUrl}/.well-known/jwks.json`);
    const generated = unnamed.headers.get('x-request-id');
    expect(generated).toMatch(/^[0-9a-f-]{36}$/);

    await new Promise((resolve) => setImmediate(resolve));
    const tokenLine = requestLine('trace-token-1');
    const apiLine = requestLine('trace-api-1');
    expect(tokenLine).toMatchObject({ level: 'info', host: 'token', method: 'POST', path: '/oauth/token', status: 200, clientId: 'tn_prairie-all' });
    expect(apiLine).toMatchObject({ level: 'info', host: 'api', method: 'GET', path: '/api/p/v1.0/subsidiaries', status: 200, clientId: 'tn_prairie-all' });
    expect(typeof tokenLine.ms).toBe('number');
    expect(Object.keys(tokenLine).sort()).toEqual(Object.keys(apiLine).filter((key) => key !== 'tenantId').sort());
    expect(requestLine(generated!)).toMatchObject({ host: 'token', path: '/.well-known/jwks.json' });
    // Secrets never reach the lines.
    const all = JSON.stringify(lines);
    expect(all).not.toContain(secretOf('tn_prairie-all'));
    expect(all).not.toContain(access_token);
  });
});
