import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';

const PORTAL = 'https://portal.example.com';
const OTHER = 'https://evil.example.net';
const V = '/api/p/v1.0';

let t: TestApp;
let plain: TestApp;
beforeAll(async () => {
  t = await startTestApp({ env: { CORS_ORIGINS: `${PORTAL}, http://localhost:5173` } });
  plain = await startTestApp();
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
});

function preflight(url: string, origin: string, method = 'GET', headers = 'authorization') {
  return fetch(url, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers } });
}

const corsHeaders = (response: Response) =>
  [...response.headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS on the API host (CORS_ORIGINS)', () => {
  it('answers the preflight of an allowed origin with 204 and what the page may send', async () => {
    const response = await preflight(`${t.apiUrl}${V}/trips/trp_1001_a`, PORTAL, 'PUT', 'authorization,content-type,if-match');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, If-Match, api-version, X-Request-Id');
    expect(response.headers.get('access-control-max-age')).toBe('600');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(response.headers.get('vary')).toMatch(/Origin/);
    expect(await response.text()).toBe('');
  });

  it('lets an allowed origin read the answer and its headers, on successes and problems alike', async () => {
    const ok = await t.api(`${V}/trips/trp_1001_a`, { as: 'tn_prairie-all', headers: { origin: PORTAL } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(PORTAL);
    const exposed = ok.headers.get('access-control-expose-headers')!.split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['ETag', 'Location', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Idempotent-Replayed']));
    const missing = await t.api(`${V}/trips/trp_none`, { as: 'tn_prairie-all', headers: { origin: 'http://localhost:5173' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    const unauthorized = await t.api(`${V}/trips/trp_1001_a`, { headers: { origin: PORTAL } });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('access-control-allow-origin')).toBe(PORTAL);
  });

  it('gives any other origin no CORS header at all, and its preflight the ordinary 405', async () => {
    const response = await preflight(`${t.apiUrl}${V}/trips/trp_1001_a`, OTHER);
    expect(response.status).toBe(405);
    expect(corsHeaders(response)).toEqual([]);
    const read = await t.api(`${V}/trips/trp_1001_a`, { as: 'tn_prairie-all', headers: { origin: OTHER } });
    expect(read.status).toBe(200);
    expect(corsHeaders(read as unknown as Response)).toEqual([]);
    // Origins match exactly: no prefix, suffix or case games.
    for (const near of [`${PORTAL}.evil.net`, 'https://PORTAL.example.com', `${PORTAL}:443`, 'null']) {
      expect(corsHeaders(await preflight(`${t.apiUrl}${V}/loads`, near)), near).toEqual([]);
    }
  });

  it('allows no origin when CORS_ORIGINS is unset', async () => {
    expect(corsHeaders(await preflight(`${plain.apiUrl}${V}/loads`, PORTAL))).toEqual([]);
    const read = await plain.api(`${V}/loads`, { as: 'tn_prairie-all', headers: { origin: PORTAL } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('CORS on the token host', () => {
  const form = (clientId: string) =>
    new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secretOf(clientId), audience: AUDIENCE }).toString();

  it("answers the API host's own origin, so the reference page can authorize, even without CORS_ORIGINS", async () => {
    const apiOrigin = new URL(plain.apiUrl).origin;
    const response = await preflight(`${plain.authUrl}/oauth/token`, apiOrigin, 'POST', 'authorization,content-type,x-requested-with');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe(apiOrigin);
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST');
    expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, X-Requested-With, X-Request-Id');
    expect(response.headers.get('access-control-max-age')).toBe('600');

    const token = await fetch(`${plain.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { origin: apiOrigin, 'content-type': 'application/x-www-form-urlencoded' },
      body: form('tn_prairie-all'),
    });
    expect(token.status).toBe(200);
    expect(token.headers.get('access-control-allow-origin')).toBe(apiOrigin);
    expect(token.headers.get('access-control-expose-headers')).toBe('Retry-After');
  });

  it('answers CORS_ORIGINS too, and nobody else', async () => {
    expect((await preflight(`${t.authUrl}/oauth/token`, PORTAL, 'POST')).headers.get('access-control-allow-origin')).toBe(PORTAL);
    expect(corsHeaders(await preflight(`${plain.authUrl}/oauth/token`, PORTAL, 'POST'))).toEqual([]);
    const refused = await preflight(`${t.authUrl}/oauth/token`, OTHER, 'POST');
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('POST');
    expect(corsHeaders(refused)).toEqual([]);
    const token = await fetch(`${t.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { origin: OTHER, 'content-type': 'application/x-www-form-urlencoded' },
      body: form('tn_prairie-all'),
    });
    expect(token.status).toBe(200);
    expect(corsHeaders(token)).toEqual([]);
  });

  it('still answers a plain OPTIONS (no preflight) with 405', async () => {
    const response = await fetch(`${t.authUrl}/oauth/token`, { method: 'OPTIONS' });
    expect(response.status).toBe(405);
  });
});

describe('CORS_ORIGINS', () => {
  it('takes exact origins, comma-separated, and refuses anything else at start-up', () => {
    expect(loadConfig({ CORS_ORIGINS: ' https://a.example.com ,http://localhost:8080,' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:8080',
    ]);
    expect(loadConfig({}).corsOrigins).toEqual([]);
    for (const bad of ['*', 'https://a.example.com/', 'https://a.example.com/app', 'a.example.com', 'HTTPS://A.example.com']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad }), bad).toThrow(ConfigError);
    }
  });
});
