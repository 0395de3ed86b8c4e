import { calculateJwkThumbprint, createRemoteJWKSet, decodeProtectedHeader, exportJWK, exportPKCS8, generateKeyPair, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningKeys } from '../core/signing-keys/signing-keys.js';
import {
  AUDIENCE,
  CLIENTS,
  testConfig,
  grant,
  ISSUER,
  postToken,
  startAuthHost,
  TENANT_ID,
  type AuthHost,
  type TokenAnswer,
  type TokenCall,
} from './support/auth-setup.js';

const UNAUTHORIZED = { error: 'access_denied', error_description: 'Unauthorized' };

/** Every token-endpoint answer, whatever its status, is JSON that must not be cached. */
function expectTokenHeaders(answer: TokenAnswer): void {
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('pragma')).toBe('no-cache');
  expect(answer.headers.get('content-type')).toBe('application/json');
}

function expectError(answer: TokenAnswer, status: number, error: string): void {
  expectTokenHeaders(answer);
  expect(answer.status).toBe(status);
  expect(answer.body.error).toBe(error);
  expect(typeof answer.body.error_description).toBe('string');
}

let host: AuthHost;
beforeAll(async () => {
  host = await startAuthHost();
});
afterAll(async () => {
  await host.close();
});

const call = (fields: Record<string, unknown>, options?: TokenCall) => postToken(host.url, fields, options);

describe.each(['json', 'form'] as const)('POST /oauth/token with a %s body', (encoding) => {
  const send = (fields: Record<string, unknown>, options: TokenCall = {}) => call(fields, { encoding, ...options });

  it('issues an ES256 at+jwt that verifies against the served JWKS', async () => {
    const answer = await send(grant(CLIENTS.company));
    expectTokenHeaders(answer);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 86400,
      scope: 'load:read trip:read trip:update',
    });

    const jwks = createRemoteJWKSet(new URL(`${host.url}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(answer.body.access_token, jwks, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['ES256'],
      typ: 'at+jwt',
      currentDate: host.clock.now(),
    });
    expect(protectedHeader).toEqual({ alg: 'ES256', kid: host.keys.signingKey().kid, typ: 'at+jwt' });
    const iat = Math.floor(host.clock.now().getTime() / 1000);
    expect(payload).toEqual({
      iss: ISSUER,
      sub: 'acme-company@clients',
      aud: AUDIENCE,
      azp: 'acme-company',
      scope: 'load:read trip:read trip:update',
      tid: TENANT_ID,
      iat,
      exp: iat + 86400,
      jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
    });
  });

  it('gives every token its own jti', async () => {
    const first = await send(grant(CLIENTS.company));
    const second = await send(grant(CLIENTS.company));
    const jti = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti;
    expect(jti(first.body.access_token)).not.toBe(jti(second.body.access_token));
  });

  it('adds sid for a subsidiary-bound client', async () => {
    const answer = await send(grant(CLIENTS.east));
    expect(answer.status).toBe(200);
    const claims = JSON.parse(Buffer.from(answer.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ tid: TENANT_ID, sid: 'sub-east', azp: 'acme-east', scope: 'load:read visibility:create' });
  });

  it('accepts a charset parameter on the media type', async () => {
    const type = encoding === 'json' ? 'application/json; charset=UTF-8' : 'application/x-www-form-urlencoded;charset=utf-8';
    const answer = await send(grant(CLIENTS.company), { headers: { 'Content-Type': type } });
    expect(answer.status).toBe(200);
  });

  it('answers 401 access_denied for a wrong secret, an unknown client and a revoked client', async () => {
    for (const fields of [
      grant(CLIENTS.company, { client_secret: 'wrong' }),
      grant(CLIENTS.company, { client_id: 'no-such-client' }),
      grant(CLIENTS.revoked),
    ]) {
      const answer = await send(fields);
      expectError(answer, 401, 'access_denied');
      expect(answer.body).toEqual(UNAUTHORIZED);
      expect(answer.headers.get('www-authenticate')).toBeNull();
    }
  });

  it.each(['grant_type', 'client_id', 'client_secret', 'audience'])('answers 400 invalid_request without %s', async (field) => {
    const fields = grant(CLIENTS.company);
    delete fields[field];
    expectError(await send(fields), 400, 'invalid_request');
    // An empty value counts as absent (RFC 6749 3.1).
    expectError(await send({ ...fields, [field]: '' }), 400, 'invalid_request');
  });

  it('answers 400 unsupported_grant_type for another grant', async () => {
    for (const grantType of ['password', 'authorization_code', 'CLIENT_CREDENTIALS']) {
      expectError(await send(grant(CLIENTS.company, { grant_type: grantType })), 400, 'unsupported_grant_type');
    }
  });

  it('answers 400 invalid_target for another audience', async () => {
    for (const audience of ['https://elsewhere.invalid', `${AUDIENCE}/`]) {
      expectError(await send(grant(CLIENTS.company, { audience })), 400, 'invalid_target');
    }
  });

  it('answers 400 invalid_scope when a requested scope is not granted', async () => {
    expectError(await send(grant(CLIENTS.company, { scope: 'deduction:read' })), 400, 'invalid_scope');
    expectError(await send(grant(CLIENTS.company, { scope: 'load:read deduction:read' })), 400, 'invalid_scope');
  });

  it('never narrows: a granted subset still yields every granted scope', async () => {
    for (const scope of ['trip:read', 'load:read trip:update', 'load:read trip:read trip:update', '']) {
      const answer = await send(grant(CLIENTS.company, { scope }));
      expect(answer.status).toBe(200);
      expect(answer.body.scope).toBe('load:read trip:read trip:update');
      const claims = JSON.parse(Buffer.from(answer.body.access_token.split('.')[1], 'base64url').toString());
      expect(claims.scope).toBe('load:read trip:read trip:update');
    }
  });

  it('checks the client before grant_type, grant_type before audience, audience before scope', async () => {
    const bad = { grant_type: 'password', audience: 'https://elsewhere.invalid', scope: 'deduction:read' };
    expectError(await send(grant(CLIENTS.company, { ...bad, client_secret: 'wrong' })), 401, 'access_denied');
    expectError(await send(grant(CLIENTS.company, bad)), 400, 'unsupported_grant_type');
    const { grant_type: _ignored, ...withGoodGrant } = bad;
    expectError(await send(grant(CLIENTS.company, withGoodGrant)), 400, 'invalid_target');
  });

  it('checks required fields before the client', async () => {
    const { audience: _ignored, ...fields } = grant(CLIENTS.company, { client_secret: 'wrong' });
    expectError(await send(fields), 400, 'invalid_request');
  });
});

describe('POST /oauth/token with HTTP Basic client authentication', () => {
  const withoutCredentials = (client: { id: string; secret: string }) => {
    const { client_id: _id, client_secret: _secret, ...rest } = grant(CLIENTS.company);
    return { fields: rest, basic: client };
  };

  it.each(['json', 'form'] as const)('issues a token with credentials only in the header (%s body)', async (encoding) => {
    const { fields, basic } = withoutCredentials(CLIENTS.company);
    const answer = await call(fields, { encoding, basic });
    expectTokenHeaders(answer);
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('load:read trip:read trip:update');
  });

  it('form-urlencodes the id and secret inside the header (RFC 6749 2.3.1)', async () => {
    const { fields, basic } = withoutCredentials(CLIENTS.special);
    const answer = await call(fields, { encoding: 'form', basic });
    expect(answer.status).toBe(200);
    const claims = JSON.parse(Buffer.from(answer.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims.azp).toBe('acme special:id');
  });

  it.each(['json', 'form'] as const)('answers 401 with WWW-Authenticate for a wrong secret (%s body)', async (encoding) => {
    const { fields, basic } = withoutCredentials({ id: CLIENTS.company.id, secret: 'wrong' });
    const answer = await call(fields, { encoding, basic });
    expectError(answer, 401, 'access_denied');
    expect(answer.body).toEqual(UNAUTHORIZED);
    expect(answer.headers.get('www-authenticate')).toBe('Basic realm="token"');
  });

  it('answers 401 with WWW-Authenticate for a revoked client', async () => {
    const { fields, basic } = withoutCredentials(CLIENTS.revoked);
    const answer = await call(fields, { basic });
    expectError(answer, 401, 'access_denied');
    expect(answer.headers.get('www-authenticate')).toBe('Basic realm="token"');
  });

  it('accepts the same credentials in header and body, refuses different ones', async () => {
    const same = await call(grant(CLIENTS.company), { basic: CLIENTS.company });
    expect(same.status).toBe(200);
    const otherSecret = await call(grant(CLIENTS.company), { basic: { id: CLIENTS.company.id, secret: 'other' } });
    expectError(otherSecret, 400, 'invalid_request');
    const otherId = await call(grant(CLIENTS.company), { encoding: 'form', basic: CLIENTS.east });
    expectError(otherId, 400, 'invalid_request');
  });

  it('answers 400 invalid_request for a malformed Basic header', async () => {
    const { fields } = withoutCredentials(CLIENTS.company);
    for (const authorization of ['Basic', 'Basic !!!', `Basic ${Buffer.from('no-colon').toString('base64')}`, `Basic ${Buffer.from('id:%zz').toString('base64')}`]) {
      expectError(await call(fields, { headers: { Authorization: authorization } }), 400, 'invalid_request');
    }
  });
});

describe('POST /oauth/token with a malformed body', () => {
  it('answers 400 invalid_request for bad JSON, non-objects and wrong types', async () => {
    const bodies = [
      '{"grant_type":',
      '',
      JSON.stringify([grant(CLIENTS.company)]),
      'null',
      '"client_credentials"',
      JSON.stringify(grant(CLIENTS.company, { client_id: 42 })),
      JSON.stringify(grant(CLIENTS.company, { client_secret: { value: CLIENTS.company.secret } })),
      JSON.stringify(grant(CLIENTS.company, { scope: ['load:read'] })),
    ];
    for (const raw of bodies) expectError(await call({}, { raw }), 400, 'invalid_request');
  });

  it('answers 400 invalid_request, not 415, for another media type or charset', async () => {
    const json = JSON.stringify(grant(CLIENTS.company));
    for (const type of ['text/plain', 'application/xml', 'multipart/form-data; boundary=x', 'application/json; charset=latin1']) {
      expectError(await call({}, { raw: json, headers: { 'Content-Type': type } }), 400, 'invalid_request');
    }
    const response = await fetch(`${host.url}/oauth/token`, { method: 'POST', body: new Uint8Array(Buffer.from(json)) });
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 400 invalid_request for a repeated form parameter', async () => {
    const raw = `${new URLSearchParams(grant(CLIENTS.company) as Record<string, string>).toString()}&client_id=acme-east`;
    expectError(await call({}, { encoding: 'form', raw }), 400, 'invalid_request');
  });

  it('answers 400 invalid_request for invalid UTF-8', async () => {
    const response = await fetch(`${host.url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: new Uint8Array([0x7b, 0xff, 0x7d]),
    });
    expect(response.status).toBe(400);
  });

  it('answers 413 for a body over 16 KiB', async () => {
    for (const encoding of ['json', 'form'] as const) {
      const answer = await call(grant(CLIENTS.company, { padding: 'x'.repeat(17 * 1024) }), { encoding });
      expectError(answer, 413, 'invalid_request');
    }
  });

  it('ignores credentials in the query string', async () => {
    const { client_secret: _ignored, ...fields } = grant(CLIENTS.company);
    const response = await fetch(`${host.url}/oauth/token?client_secret=${CLIENTS.company.secret}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(fields),
    });
    expect(response.status).toBe(400);
  });
});

describe('token host routes', () => {
  it('serves the JWKS, cacheable for 5 minutes, with public members only', async () => {
    const response = await fetch(`${host.url}/.well-known/jwks.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('content-type')).toBe('application/json');
    const { keys } = (await response.json()) as { keys: Record<string, string>[] };
    expect(keys[0]).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: expect.any(String),
      y: expect.any(String),
      kid: host.keys.signingKey().kid,
      alg: 'ES256',
      use: 'sig',
    });
    const head = await fetch(`${host.url}/.well-known/jwks.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('answers 405 with Allow for a wrong method', async () => {
    const get = await fetch(`${host.url}/oauth/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(get.headers.get('cache-control')).toBe('no-store');
    const post = await fetch(`${host.url}/.well-known/jwks.json`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 404 JSON for anything else', async () => {
    for (const path of ['/', '/oauth/token/', '/oauth/authorize', '/.well-known/openid-configuration']) {
      const response = await fetch(`${host.url}${path}`, { method: 'POST' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toMatchObject({ error: 'not_found' });
    }
  });
});

describe('token endpoint rate limit', () => {
  let limited: AuthHost;
  beforeAll(async () => {
    limited = await startAuthHost({ env: { RATE_LIMITS: 'on' } });
  });
  afterAll(async () => {
    await limited.close();
  });

  it('answers the 31st request of a client within a minute with 429 and Retry-After, counting failed attempts', async () => {
    for (let i = 0; i < 15; i += 1) {
      expect((await postToken(limited.url, grant(CLIENTS.company))).status).toBe(200);
      expect((await postToken(limited.url, grant(CLIENTS.company, { client_secret: 'guess' }), { encoding: 'form' })).status).toBe(401);
    }
    const answer = await postToken(limited.url, grant(CLIENTS.company));
    expectError(answer, 429, 'too_many_requests');
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    // Counted per client id: others are not affected.
    expect((await postToken(limited.url, grant(CLIENTS.east))).status).toBe(200);
  });

  it('counts Basic credentials under the client id they name', async () => {
    for (let i = 0; i < 30; i += 1) {
      expect((await postToken(limited.url, grant(CLIENTS.west))).status).toBe(200);
    }
    const { client_id: _id, client_secret: _secret, ...rest } = grant(CLIENTS.west);
    const answer = await postToken(limited.url, rest, { basic: CLIENTS.west });
    expectError(answer, 429, 'too_many_requests');
  });

  it('does not count requests that name no client', async () => {
    for (let i = 0; i < 35; i += 1) {
      expect((await postToken(limited.url, {}, { raw: '[' })).status).toBe(400);
    }
    expect((await postToken(limited.url, grant(CLIENTS.special))).status).toBe(200);
  });
});

describe('signing key rotation', () => {
  it('keeps old tokens verifiable and publishes both keys; new tokens use the new kid', async () => {
    const rotating = await startAuthHost();
    try {
      const oldToken = (await postToken(rotating.url, grant(CLIENTS.company))).body.access_token as string;
      const oldKid = decodeProtectedHeader(oldToken).kid;

      const newKid = await SigningKeys.rotate(rotating.db, rotating.config, rotating.clock);
      expect(newKid).not.toBe(oldKid);
      // The running host notices within its reload interval.
      rotating.clock.advance(61_000);

      const newToken = (await postToken(rotating.url, grant(CLIENTS.company))).body.access_token as string;
      expect(decodeProtectedHeader(newToken).kid).toBe(newKid);

      const jwksResponse = await fetch(`${rotating.url}/.well-known/jwks.json`);
      const kids = ((await jwksResponse.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid);
      expect(kids).toEqual([newKid, oldKid]);

      const jwks = createRemoteJWKSet(new URL(`${rotating.url}/.well-known/jwks.json`));
      const options = { issuer: ISSUER, audience: AUDIENCE, algorithms: ['ES256'], currentDate: rotating.clock.now() };
      await expect(jwtVerify(oldToken, jwks, options)).resolves.toBeDefined();
      await expect(jwtVerify(newToken, jwks, options)).resolves.toBeDefined();

      // Once every token of the old key has expired, the key leaves the JWKS.
      rotating.clock.advance(86_400_000 + 61_000);
      const later = await fetch(`${rotating.url}/.well-known/jwks.json`);
      expect(((await later.json()) as { keys: { kid: string }[] }).keys.map((k) => k.kid)).toEqual([newKid]);
    } finally {
      await rotating.close();
    }
  });
});

describe('signing keys', () => {
  async function pemKey(): Promise<{ pem: string; kid: string }> {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const { kty, crv, x, y } = await exportJWK(publicKey);
    return { pem: await exportPKCS8(privateKey), kid: await calculateJwkThumbprint({ kty, crv, x, y }) };
  }

  it('signs with JWT_PRIVATE_KEY under its thumbprint and records its public key', async () => {
    const { pem, kid } = await pemKey();
    // Env files often carry the PEM on one line with literal \n.
    const pemHost = await startAuthHost({ env: { JWT_PRIVATE_KEY: pem.replace(/\n/g, '\\n') } });
    try {
      const token = (await postToken(pemHost.url, grant(CLIENTS.company))).body.access_token as string;
      expect(decodeProtectedHeader(token).kid).toBe(kid);
      const row = await pemHost.db.selectFrom('signing_keys').selectAll().where('kid', '=', kid).executeTakeFirstOrThrow();
      expect(row.private_jwk_encrypted).toBeNull();
      expect(JSON.parse(row.public_jwk)).not.toHaveProperty('d');
      await expect(SigningKeys.rotate(pemHost.db, pemHost.config, pemHost.clock)).rejects.toThrow(/JWT_PRIVATE_KEY/);
    } finally {
      await pemHost.close();
    }
  });

  it('keeps a replaced key published when JWT_PRIVATE_KEY takes over', async () => {
    const generated = await startAuthHost();
    const { pem, kid } = await pemKey();
    const oldToken = (await postToken(generated.url, grant(CLIENTS.company))).body.access_token as string;
    const pemHost = await startAuthHost({ db: generated.db, env: { JWT_PRIVATE_KEY: pem } });
    try {
      const kids = pemHost.keys.jwks().keys.map((k) => k.kid);
      expect(kids).toEqual([kid, decodeProtectedHeader(oldToken).kid]);
      const jwks = createRemoteJWKSet(new URL(`${pemHost.url}/.well-known/jwks.json`));
      await expect(
        jwtVerify(oldToken, jwks, { issuer: ISSUER, audience: AUDIENCE, currentDate: pemHost.clock.now() }),
      ).resolves.toBeDefined();
    } finally {
      await pemHost.close();
      await generated.close();
    }
  });

  it('fails clearly without SECRET_KEY, with another SECRET_KEY, or with a bad JWT_PRIVATE_KEY', async () => {
    const keyed = await startAuthHost();
    try {
      const { db, clock } = keyed;
      await expect(SigningKeys.load({ db, clock, config: { ...testConfig(), secretKey: null } })).rejects.toThrow(/SECRET_KEY/);
      const otherSecret = { ...testConfig(), secretKey: Buffer.from('another-secret-key-0123456789abcdef') };
      await expect(SigningKeys.load({ db, clock, config: otherSecret })).rejects.toThrow(/SECRET_KEY/);
      await expect(SigningKeys.rotate(db, { ...testConfig(), secretKey: null }, clock)).rejects.toThrow(/SECRET_KEY/);
      const badPem = { ...testConfig(), jwtPrivateKeyPem: 'not a key' };
      await expect(SigningKeys.load({ db, clock, config: badPem })).rejects.toThrow(/JWT_PRIVATE_KEY/);
    } finally {
      await keyed.close();
    }
  });
});
