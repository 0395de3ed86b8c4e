import { SignJWT, generateKeyPair } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueAccessToken } from '../adapters/auth/token.js';
import { startTestApp, type TestApp } from './harness.js';

// The verifier's cases in test/bearer.test.ts, here as an integrator meets them: over HTTP.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const path = '/api/p/v1.0/subsidiaries/sub_kc';
const subject = { clientId: 'prairie-integration', tenantId: 'tn_prairie', subsidiaryId: null, scopes: ['subsidiary:read'] };

async function expect401(token: string) {
  const response = await t.api(path, { as: `raw:${token}` });
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  expect(response.body.Type).toBe(`${t.apiUrl}/errors/Unauthorized`);
  expect(response.text).not.toContain(token);
}

describe('bearer tokens over HTTP', () => {
  it('accepts a token minted by the server for the audience', async () => {
    const { access_token } = await issueAccessToken({ keys: t.app.keys, config: t.config, clock: t.clock }, subject);
    expect((await t.api(path, { as: `raw:${access_token}` })).status).toBe(200);
  });

  it('refuses a token for another audience or issuer', async () => {
    const wrongAudience = await issueAccessToken({ keys: t.app.keys, config: { ...t.config, audience: 'https://elsewhere.invalid' }, clock: t.clock }, subject);
    await expect401(wrongAudience.access_token);
    const wrongIssuer = await issueAccessToken({ keys: t.app.keys, config: { ...t.config, issuer: 'https://evil.invalid/' }, clock: t.clock }, subject);
    await expect401(wrongIssuer.access_token);
  });

  it('refuses a tampered signature, alg none and a key it does not know', async () => {
    const { access_token } = await issueAccessToken({ keys: t.app.keys, config: t.config, clock: t.clock }, subject);
    const [header, payload, signature] = access_token.split('.') as [string, string, string];
    const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
    await expect401(`${header}.${payload}.${flipped}`);
    const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url');
    await expect401(`${none}.${payload}.`);
    const { privateKey } = await generateKeyPair('ES256');
    const stranger = await new SignJWT(JSON.parse(Buffer.from(payload, 'base64url').toString()))
      .setProtectedHeader({ alg: 'ES256', kid: 'someone-else', typ: 'at+jwt' })
      .sign(privateKey);
    await expect401(stranger);
  });

  it('refuses a token once it has expired', async () => {
    const { access_token } = await issueAccessToken({ keys: t.app.keys, config: t.config, clock: t.clock }, subject);
    expect((await t.api(path, { as: `raw:${access_token}` })).status).toBe(200);
    t.clock.advance(86_400 * 1000 + 1000);
    await expect401(access_token);
  });
});
