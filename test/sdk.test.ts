import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clientCredentials,
  createWaybillClient,
  etagOf,
  ifMatch,
  retryAfterSeconds,
  TokenError,
  verifyWebhook,
  WebhookVerificationError,
  type TokenSource,
} from '../clients/typescript/src/index.js';
import { generateWebhookSecret, signedHeaders } from '../core/webhooks/signing.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

/**
 * The SDK (clients/typescript) against a running server over real HTTP, with the API's rate
 * limits on: the generated types, the token helper, 401 refresh, 429 retry, If-Match and
 * webhook verification.
 */
let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApp({ env: { RATE_LIMITS: 'on' } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});
// Rate limits read the server's manual clock: a fresh minute per test, so no window or block carries over.
beforeEach(() => {
  const now = t.clock.now().getTime();
  t.clock.set(new Date(now - (now % 60_000) + 5 * 60_000));
});

/** A token source for a fixture client that counts the requests it makes to the token host. */
function countingCredentials(clientId: string, now?: () => number) {
  const counter = { requests: 0 };
  const tokens = clientCredentials({
    authUrl: t.authUrl,
    clientId,
    clientSecret: secretOf(clientId),
    audience: AUDIENCE,
    ...(now ? { now } : {}),
    fetch: (request) => {
      counter.requests += 1;
      return fetch(request);
    },
  });
  return { tokens, counter };
}

describe('tokens', () => {
  it('gets a token with client credentials, caches it for expires_in minus a margin, and lists loads with it', async () => {
    let now = Date.parse('2026-11-22T12:00:00Z');
    const { tokens, counter } = countingCredentials('prairie-integration', () => now);
    const client = createWaybillClient({ baseUrl: t.apiUrl, auth: tokens });

    const first = await client.GET('/api/p/v1.0/loads', { params: { query: { PageSize: 2 } } });
    expect(first.response.status, JSON.stringify(first.error)).toBe(200);
    expect(first.data?.Items.length).toBe(2);
    const one = await client.GET('/api/p/v1.0/loads/{loadNumber}', { params: { path: { loadNumber: first.data!.Items[0]!.LoadNumber } } });
    expect(one.data?.LoadNumber).toBe(first.data!.Items[0]!.LoadNumber);
    expect(counter.requests).toBe(1);

    // The server's tokens live 86,400 s; the margin is 60 s.
    now += (86_400 - 61) * 1000;
    await tokens.token();
    expect(counter.requests).toBe(1);
    now += 2000;
    const renewed = await tokens.token();
    expect(counter.requests).toBe(2);
    // What a 401 does: the refused token leaves the cache, another one does not.
    tokens.invalidate('some.other.token');
    await tokens.token();
    expect(counter.requests).toBe(2);
    tokens.invalidate(renewed);
    await tokens.token();
    expect(counter.requests).toBe(3);
  });

  it('concurrent calls share one token request', async () => {
    const { tokens, counter } = countingCredentials('prairie-readonly');
    const [a, b, c] = await Promise.all([tokens.token(), tokens.token(), tokens.token()]);
    expect(a).toBe(b);
    expect(b).toBe(c);
    expect(counter.requests).toBe(1);
  });

  it('a refused client is a TokenError with the OAuth error, not the secret', async () => {
    const tokens = clientCredentials({ authUrl: t.authUrl, clientId: 'prairie-integration', clientSecret: 'wrong-secret', audience: AUDIENCE });
    const error = await tokens.token().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenError);
    expect(error).toMatchObject({ status: 401, error: 'access_denied' });
    expect(String((error as Error).message)).not.toContain('wrong-secret');
  });

  it('a 401 drops the cached token and sends the request once more with a new one', async () => {
    const real = clientCredentials({ authUrl: t.authUrl, clientId: 'prairie-integration', clientSecret: secretOf('prairie-integration'), audience: AUDIENCE });
    const invalidated: string[] = [];
    let revoked = true;
    const tokens: TokenSource = {
      token: async () => (revoked ? 'revoked.token.value' : real.token()),
      invalidate: (token) => {
        invalidated.push(token);
        revoked = false;
      },
    };
    const client = createWaybillClient({ baseUrl: t.apiUrl, auth: tokens });
    const { data, response } = await client.GET('/api/p/v1.0/customers/{id}', { params: { path: { id: 'cus_heartland' } } });
    expect(response.status).toBe(200);
    expect(data?.Id).toBe('cus_heartland');
    expect(invalidated).toEqual(['revoked.token.value']);
  });

  it('a token that stays refused answers the 401 after one refresh, without looping', async () => {
    let asked = 0;
    const client = createWaybillClient({
      baseUrl: t.apiUrl,
      auth: { token: async () => (asked++, 'never.valid.token'), invalidate: () => undefined },
    });
    const { error, response } = await client.GET('/api/p/v1.0/customers/{id}', { params: { path: { id: 'cus_heartland' } } });
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ Status: 401 });
    expect(asked).toBe(2);

    // A fixed token cannot be refreshed: one request, its 401 answered as it is.
    let sent = 0;
    const fixed = createWaybillClient({ baseUrl: t.apiUrl, auth: 'never.valid.token', fetch: (request) => (sent++, fetch(request)) });
    expect((await fixed.GET('/api/p/v1.0/customers/{id}', { params: { path: { id: 'cus_heartland' } } })).response.status).toBe(401);
    expect(sent).toBe(1);
  });
});

describe('rate limits', () => {
  it('a 429 is sent again after Retry-After, within the attempts allowed', async () => {
    // GET users/list allows 5 a minute per client, then blocks for 3 minutes (docs/api-rules.md#rate-limits).
    const tokens = clientCredentials({ authUrl: t.authUrl, clientId: 'tn_harbor-all', clientSecret: secretOf('tn_harbor-all'), audience: AUDIENCE });
    const plain = createWaybillClient({ baseUrl: t.apiUrl, auth: tokens, retry: { maxAttempts: 1 } });
    for (let i = 0; i < 5; i++) expect((await plain.GET('/api/p/v1.0/users/list')).response.status).toBe(200);
    const refused = await plain.GET('/api/p/v1.0/users/list');
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toBe('180');

    const waits: number[] = [];
    // Waiting moves the server's clock instead of the test's time.
    const sleep = async (ms: number) => {
      waits.push(ms);
      t.clock.advance(ms);
    };
    const impatient = createWaybillClient({ baseUrl: t.apiUrl, auth: tokens, retry: { maxWaitSeconds: 60, sleep } });
    expect((await impatient.GET('/api/p/v1.0/users/list')).response.status).toBe(429);
    expect(waits).toEqual([]);

    const patient = createWaybillClient({ baseUrl: t.apiUrl, auth: tokens, retry: { maxAttempts: 3, maxWaitSeconds: 300, sleep } });
    const retried = await patient.GET('/api/p/v1.0/users/list');
    expect(retried.response.status).toBe(200);
    expect(Array.isArray(retried.data)).toBe(true);
    expect(waits).toEqual([180_000]);
  });

  it('Retry-After is read as seconds or as an HTTP date', () => {
    expect(retryAfterSeconds('7')).toBe(7);
    expect(retryAfterSeconds('Sun, 22 Nov 2026 12:00:30 GMT', Date.parse('2026-11-22T12:00:00Z'))).toBe(30);
    expect(retryAfterSeconds('soon')).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});

describe('ETags', () => {
  it('a read gives the ETag a write sends as If-Match; a stale one is a 412 that changes nothing', async () => {
    const client = createWaybillClient({ baseUrl: t.apiUrl, auth: await t.token('tn_prairie-all') });
    const path = { id: 'cus_lonestar' };
    const read = await client.GET('/api/p/v1.0/customers/{id}', { params: { path } });
    expect(read.response.status).toBe(200);
    const firstTag = etagOf(read.response);
    expect(firstTag).toMatch(/^".+"$/);

    const updated = await client.PATCH('/api/p/v1.0/customers/{id}', {
      params: { path, header: ifMatch(read.response) },
      body: { Phone: ['+1 214 555 0199'] },
    });
    expect(updated.response.status, JSON.stringify(updated.error)).toBe(200);
    expect(updated.data?.Phone).toEqual(['+1 214 555 0199']);
    expect(etagOf(updated.response)).not.toBe(firstTag);

    const stale = await client.PATCH('/api/p/v1.0/customers/{id}', {
      params: { path, header: ifMatch(firstTag!) },
      body: { Phone: ['+1 214 555 0100'] },
    });
    expect(stale.response.status).toBe(412);
    expect(stale.error).toMatchObject({ Status: 412 });
    const after = await client.GET('/api/p/v1.0/customers/{id}', { params: { path } });
    expect(after.data?.Phone).toEqual(['+1 214 555 0199']);
    expect(etagOf(after.response)).toBe(etagOf(updated.response));
  });

  it('ifMatch refuses a response without an ETag', () => {
    expect(() => ifMatch(new Response('{}'))).toThrow(/no ETag/);
  });
});

describe('webhooks', () => {
  const body = JSON.stringify({ type: 'load.changed', timestamp: '2026-11-22T12:00:00.000Z', data: { LoadNumber: 'L-1001' } });
  const at = new Date('2026-11-22T12:00:00Z');
  const secret = generateWebhookSecret();

  it('verifies what the server signs, with fetch Headers or Node headers, and during a rotation with either secret', async () => {
    const headers = signedHeaders([secret], 'msg_1', at, body);
    const event = await verifyWebhook({ secret, headers: new Headers({ ...headers }), body, now: at.getTime() });
    expect(event).toEqual(JSON.parse(body));
    await expect(verifyWebhook({ secret, headers: { ...headers }, body: new TextEncoder().encode(body), now: at.getTime() + 299_000 })).resolves.toEqual(
      JSON.parse(body),
    );

    const next = generateWebhookSecret();
    const rotating = signedHeaders([next, secret], 'msg_2', at, body);
    expect(rotating['webhook-signature'].split(' ')).toHaveLength(2);
    await expect(verifyWebhook({ secret, headers: { ...rotating }, body, now: at.getTime() })).resolves.toBeTruthy();
    await expect(verifyWebhook({ secret: next, headers: { ...rotating }, body, now: at.getTime() })).resolves.toBeTruthy();
  });

  it('refuses a changed body, another secret, another id, a stale or future timestamp, and missing headers', async () => {
    const headers = { ...signedHeaders([secret], 'msg_1', at, body) };
    const refused = (options: Partial<Parameters<typeof verifyWebhook>[0]>) =>
      expect(verifyWebhook({ secret, headers, body, now: at.getTime(), ...options })).rejects.toBeInstanceOf(WebhookVerificationError);
    await refused({ body: body.replace('L-1001', 'L-1002') });
    await refused({ secret: generateWebhookSecret() });
    await refused({ headers: { ...headers, 'webhook-id': 'msg_other' } });
    await refused({ now: at.getTime() + 301_000 });
    await refused({ now: at.getTime() - 301_000 });
    await refused({ headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': headers['webhook-timestamp'] } });
    await refused({ headers: { ...headers, 'webhook-signature': 'v1,not base64!' } });
  });

  it('verifies a real delivery: a subscription made through the SDK, its test event signed and posted by the dispatcher', async () => {
    receiver.respond = (request, res) => {
      const challenge = JSON.parse(request.body).challenge;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(challenge ? JSON.stringify({ challenge }) : '{}');
    };
    const client = createWaybillClient({ baseUrl: t.apiUrl, auth: await t.token('prairie-integration') });
    const created = await client.POST('/api/p/v1.0/webhooks', {
      body: { Name: 'SDK test', Url: `${receiver.url}/sdk`, SubsidiaryId: 'sub_kc', EventTypes: ['load.*'] },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const id = created.data!.Id;
    expect((await client.POST('/api/p/v1.0/webhooks/{id}/verify', { params: { path: { id } } })).data).toMatchObject({ Verified: true });
    const queued = await client.POST('/api/p/v1.0/webhooks/{id}/test', { params: { path: { id } } });
    expect(queued.response.status).toBe(202);
    receiver.requests.length = 0;
    await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick();

    const [delivery] = receiver.requests.filter((r) => r.path === '/sdk');
    expect(delivery).toBeDefined();
    const event = await verifyWebhook<{ WebhookId: string }>({
      secret: created.data!.Secret,
      headers: delivery!.headers,
      body: delivery!.body,
      now: t.clock.now().getTime(),
    });
    expect(event).toMatchObject({ type: 'webhook.test', data: { WebhookId: id } });
  });
});
