import { exportSPKI, generateKeyPair, importJWK, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SigningKeys } from '../core/signing-keys/signing-keys.js';
import { createBearerVerifier, type BearerVerifier } from '../adapters/auth/verify.js';
import { ManualClock } from '../core/clock.js';
import { AppError } from '../core/errors.js';
import { AUDIENCE, CLIENTS, grant, ISSUER, postToken, START, startAuthHost, TENANT_ID, type AuthHost } from './support/auth-setup.js';

let host: AuthHost;
let verify: BearerVerifier;

beforeAll(async () => {
  host = await startAuthHost();
  verify = createBearerVerifier({ keys: host.keys, config: host.config, clock: host.clock });
});
afterAll(async () => {
  await host.close();
});

async function tokenFor(client: (typeof CLIENTS)[keyof typeof CLIENTS], url = host.url): Promise<string> {
  const answer = await postToken(url, grant(client));
  expect(answer.status).toBe(200);
  return answer.body.access_token as string;
}

async function expectUnauthorized(authorization: string | undefined, verifier: BearerVerifier = verify): Promise<void> {
  const error = await verifier(authorization).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).appCode).toBe('UNAUTHORIZED');
  // The message never echoes what was sent.
  const token = authorization?.split(' ').pop();
  if (token && token.length > 8) expect((error as AppError).message).not.toContain(token);
}

function claims(overrides: JWTPayload = {}): JWTPayload {
  const iat = Math.floor(new Date(START).getTime() / 1000);
  return {
    iss: ISSUER,
    sub: 'acme-company@clients',
    aud: AUDIENCE,
    azp: 'acme-company',
    scope: 'load:read',
    tid: TENANT_ID,
    iat,
    exp: iat + 86400,
    jti: 'forged',
    ...overrides,
  };
}

/** A token signed with the host's real key, with whatever header and claims a test wants. */
function signed(payload: JWTPayload, header: Record<string, unknown> = {}): Promise<string> {
  const { kid, key } = host.keys.signingKey();
  return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt', ...header }).sign(key);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('bearer verification', () => {
  it('turns a valid token into a Principal', async () => {
    await expect(verify(`Bearer ${await tokenFor(CLIENTS.company)}`)).resolves.toEqual({
      TenantId: TENANT_ID,
      SubsidiaryId: null,
      ClientId: 'acme-company',
      Scopes: ['load:read', 'trip:read', 'trip:update'],
    });
    await expect(verify(`bearer ${await tokenFor(CLIENTS.east)}`)).resolves.toEqual({
      TenantId: TENANT_ID,
      SubsidiaryId: 'sub-east',
      ClientId: 'acme-east',
      Scopes: ['load:read', 'visibility:create'],
    });
  });

  it('accepts the scheme in any case', async () => {
    const token = await tokenFor(CLIENTS.west);
    for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
      await expect(verify(`${scheme} ${token}`)).resolves.toMatchObject({ ClientId: 'acme-west' });
    }
  });

  it('refuses a missing or malformed Authorization header', async () => {
    const token = await tokenFor(CLIENTS.company);
    for (const header of [undefined, '', 'Bearer', 'Bearer ', token, `Basic ${token}`, `Token ${token}`, `Bearer ${token} extra`]) {
      await expectUnauthorized(header);
    }
  });

  it('refuses garbage', async () => {
    for (const garbage of ['garbage', 'a.b.c', 'e30.e30.', `${'x'.repeat(4000)}.y.z`, 'Zm9v', '...']) {
      await expectUnauthorized(`Bearer ${garbage}`);
    }
  });

  it('refuses a tampered signature or payload', async () => {
    const [header, payload, signature] = (await tokenFor(CLIENTS.company)).split('.') as [string, string, string];
    const middle = Math.floor(signature.length / 2);
    const flipped = signature.slice(0, middle) + (signature[middle] === 'A' ? 'B' : 'A') + signature.slice(middle + 1);
    await expectUnauthorized(`Bearer ${header}.${payload}.${flipped}`);
    const otherTenant = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), tid: 'tenant-other' };
    await expectUnauthorized(`Bearer ${header}.${b64(otherTenant)}.${signature}`);
  });

  it('refuses an unsigned alg "none" token', async () => {
    const header = { alg: 'none', typ: 'at+jwt', kid: host.keys.signingKey().kid };
    await expectUnauthorized(`Bearer ${b64(header)}.${b64(claims())}.`);
  });

  it('refuses an HS256 token keyed with the public key (algorithm confusion)', async () => {
    const { kid } = host.keys.signingKey();
    const publicJwk = host.keys.jwks().keys[0]!;
    const pem = await exportSPKI((await importJWK(publicJwk, 'ES256', { extractable: true })) as CryptoKey);
    for (const secret of [pem, JSON.stringify(publicJwk), publicJwk.x!]) {
      const forged = await new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' })
        .sign(new TextEncoder().encode(secret));
      await expectUnauthorized(`Bearer ${forged}`);
    }
  });

  it('refuses the wrong audience or issuer', async () => {
    await expectUnauthorized(`Bearer ${await signed(claims({ aud: 'https://elsewhere.invalid' }))}`);
    await expectUnauthorized(`Bearer ${await signed(claims({ iss: 'https://evil.invalid/' }))}`);
    await expectUnauthorized(`Bearer ${await signed(claims({ iss: ISSUER.slice(0, -1) }))}`);
  });

  it('refuses an unknown kid, a missing kid and a foreign key under our kid', async () => {
    await expectUnauthorized(`Bearer ${await signed(claims(), { kid: 'unknown-kid' })}`);
    const { kid, key } = host.keys.signingKey();
    const noKid = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' }).sign(key);
    await expectUnauthorized(`Bearer ${noKid}`);
    const foreign = await generateKeyPair('ES256');
    const impostor = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' }).sign(foreign.privateKey);
    await expectUnauthorized(`Bearer ${impostor}`);
  });

  it('refuses a token without typ at+jwt or without the claims a Principal needs', async () => {
    await expect(verify(`Bearer ${await signed(claims())}`)).resolves.toMatchObject({ ClientId: 'acme-company' });
    await expectUnauthorized(`Bearer ${await signed(claims(), { typ: 'JWT' })}`);
    for (const missing of ['tid', 'azp', 'scope', 'exp']) {
      const payload = claims();
      delete payload[missing];
      await expectUnauthorized(`Bearer ${await signed(payload)}`);
    }
    await expectUnauthorized(`Bearer ${await signed(claims({ sid: 7 }))}`);
    await expectUnauthorized(`Bearer ${await signed(claims({ tid: '' }))}`);
  });

  it('refuses an expired token, cached or not', async () => {
    const clock = new ManualClock(host.clock.now());
    const ownVerify = createBearerVerifier({ keys: host.keys, config: host.config, clock });
    const cached = await tokenFor(CLIENTS.company);
    const fresh = await tokenFor(CLIENTS.east);
    await expect(ownVerify(`Bearer ${cached}`)).resolves.toBeDefined();

    clock.advance(86_400_000 - 1_000);
    await expect(ownVerify(`Bearer ${cached}`)).resolves.toBeDefined();
    clock.advance(1_000);
    await expectUnauthorized(`Bearer ${cached}`, ownVerify);
    await expectUnauthorized(`Bearer ${fresh}`, ownVerify);
  });

  it('skips signature checks for a token it has verified, within a bounded cache', async () => {
    const small = createBearerVerifier({ keys: host.keys, config: host.config, clock: host.clock, cacheSize: 2 });
    const lookups = vi.spyOn(host.keys, 'verificationKey');
    try {
      const [a, b, c] = [await tokenFor(CLIENTS.company), await tokenFor(CLIENTS.east), await tokenFor(CLIENTS.west)];
      await small(`Bearer ${a}`);
      await small(`Bearer ${a}`);
      expect(lookups).toHaveBeenCalledTimes(1);
      await small(`Bearer ${b}`);
      await small(`Bearer ${c}`);
      expect(lookups).toHaveBeenCalledTimes(3);
      // `a` was the least recently used, so it left the cache and is verified again.
      await small(`Bearer ${a}`);
      expect(lookups).toHaveBeenCalledTimes(4);
    } finally {
      lookups.mockRestore();
    }
  });
});

describe('verification across signing key rotation', () => {
  it('verifies tokens of the old and the new key, and finds keys rotated by another process', async () => {
    const rotating = await startAuthHost();
    try {
      // A second process on the same database (say, an API host), with its own clock.
      const otherClock = new ManualClock(rotating.clock.now());
      const otherKeys = await SigningKeys.load({ db: rotating.db, config: rotating.config, clock: otherClock });
      const otherVerify = createBearerVerifier({ keys: otherKeys, config: rotating.config, clock: otherClock });
      const oldToken = await tokenFor(CLIENTS.company, rotating.url);
      await expect(otherVerify(`Bearer ${oldToken}`)).resolves.toMatchObject({ ClientId: 'acme-company' });

      const newKid = await SigningKeys.rotate(rotating.db, rotating.config, rotating.clock);
      await rotating.keys.refresh();
      expect(rotating.keys.signingKey().kid).toBe(newKid);
      const newToken = await tokenFor(CLIENTS.company, rotating.url);

      const ownVerify = createBearerVerifier({ keys: rotating.keys, config: rotating.config, clock: rotating.clock });
      await expect(ownVerify(`Bearer ${oldToken}`)).resolves.toMatchObject({ ClientId: 'acme-company' });
      await expect(ownVerify(`Bearer ${newToken}`)).resolves.toMatchObject({ ClientId: 'acme-company' });
      await expect(otherVerify(`Bearer ${newToken}`)).resolves.toMatchObject({ ClientId: 'acme-company' });
      expect(otherKeys.jwks().keys.map((k) => k.kid)).toContain(newKid);
    } finally {
      await rotating.close();
    }
  });

  it('reloads for an unknown kid at most once every 30 seconds', async () => {
    const rotating = await startAuthHost();
    try {
      const clock = new ManualClock(rotating.clock.now());
      const keys = await SigningKeys.load({ db: rotating.db, config: rotating.config, clock });
      expect(await keys.verificationKey('no-such-kid')).toBeUndefined();
      const newKid = await SigningKeys.rotate(rotating.db, rotating.config, rotating.clock);
      expect(await keys.verificationKey(newKid)).toBeUndefined();
      clock.advance(30_000);
      expect(await keys.verificationKey(newKid)).toBeDefined();
    } finally {
      await rotating.close();
    }
  });
});
