import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthHandler } from '../../adapters/auth/server.js';
import { SigningKeys } from '../../core/signing-keys/signing-keys.js';
import { silentLogger } from '../../adapters/logger.js';
import { ManualClock } from '../../core/clock.js';
import { loadConfig, type Config } from '../../core/config.js';
import { hashSecret } from '../../core/crypto/secret-hash.js';
import type { Db } from '../../db/create-db.js';
import { createTestDatabase } from './database.js';

export const AUDIENCE = 'https://api.auth-test.invalid';
export const AUTH_URL = 'https://auth.auth-test.invalid';
export const ISSUER = `${AUTH_URL}/`;
export const SECRET_KEY = Buffer.from('auth-test-secret-key-0123456789abcdef');
export const TENANT_ID = 'tenant-auth';
export const START = '2026-11-22T12:00:00.000Z';

export interface TestClient {
  id: string;
  secret: string;
  scopes: string[];
  subsidiaryId: string | null;
  active: boolean;
}

export const CLIENTS = {
  company: { id: 'acme-company', secret: 'company-secret-0001', scopes: ['load:read', 'trip:read', 'trip:update'], subsidiaryId: null, active: true },
  east: { id: 'acme-east', secret: 'east-secret-0001', scopes: ['load:read', 'visibility:create'], subsidiaryId: 'sub-east', active: true },
  west: { id: 'acme-west', secret: 'west-secret-0001', scopes: ['trip:read'], subsidiaryId: 'sub-west', active: true },
  revoked: { id: 'acme-revoked', secret: 'revoked-secret-0001', scopes: ['load:read'], subsidiaryId: null, active: false },
  // Characters that RFC 6749 2.3.1 form-encodes inside HTTP Basic credentials.
  special: { id: 'acme special:id', secret: 'p@ss:w+rd %/é', scopes: ['carrier:read'], subsidiaryId: null, active: true },
} satisfies Record<string, TestClient>;

export function testConfig(env: Record<string, string> = {}): Config {
  return {
    ...loadConfig({ API_AUDIENCE: AUDIENCE, PUBLIC_AUTH_URL: AUTH_URL, DATABASE_URL: 'sqlite::memory:', ...env }),
    secretKey: SECRET_KEY,
  };
}

/** The tenant, two subsidiaries and the CLIENTS, written directly as the CLI would. */
export async function insertAuthData(db: Db, now: Date): Promise<void> {
  const createdAt = now.toISOString();
  await db.insertInto('tenants').values({ id: TENANT_ID, name: 'Acme Freight', plan: 'Standard', created_at: createdAt }).execute();
  await db
    .insertInto('subsidiaries')
    .values([
      { id: 'sub-east', tenant_id: TENANT_ID, name: 'East', created_at: createdAt },
      { id: 'sub-west', tenant_id: TENANT_ID, name: 'West', created_at: createdAt },
    ])
    .execute();
  for (const client of Object.values(CLIENTS) as TestClient[]) {
    await db
      .insertInto('api_clients')
      .values({
        client_id: client.id,
        tenant_id: TENANT_ID,
        subsidiary_id: client.subsidiaryId,
        name: null,
        scopes: client.scopes.join(' '),
        secret_hash: await hashSecret(client.secret),
        active: client.active ? 1 : 0,
        created_at: createdAt,
        secret_rotated_at: null,
      })
      .execute();
  }
}

export interface AuthHost {
  db: Db;
  config: Config;
  clock: ManualClock;
  keys: SigningKeys;
  /** Base URL of the listening token host. */
  url: string;
  close(): Promise<void>;
}

export interface AuthHostOptions {
  /** Extra environment for the config (RATE_LIMITS, JWT_PRIVATE_KEY, ...). Rate limits are off unless set. */
  env?: Record<string, string>;
  /** Reuse a database (and its data) instead of a fresh one. */
  db?: Db;
}

/** A token host on a free port over a fresh migrated database holding the test tenant. */
export async function startAuthHost(options: AuthHostOptions = {}): Promise<AuthHost> {
  const clock = new ManualClock(START);
  const config = testConfig({ RATE_LIMITS: 'off', ...options.env });
  const database = options.db ? undefined : await createTestDatabase();
  const db = options.db ?? database!.db;
  if (database) await insertAuthData(db, clock.now());
  const keys = await SigningKeys.load({ db, config, clock });
  const server = createServer(createAuthHandler({ db, config, keys, clock, logger: silentLogger() }));
  const url = await listen(server);
  return {
    db,
    config,
    clock,
    keys,
    url,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await database?.dispose();
    },
  };
}

export function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`));
  });
}

export interface TokenAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export interface TokenCall {
  encoding?: 'json' | 'form';
  /** Credentials sent with HTTP Basic, form-encoded per RFC 6749 2.3.1. */
  basic?: { id: string; secret: string };
  headers?: Record<string, string>;
  /** A raw body that replaces the encoded fields. */
  raw?: string;
}

export function basicHeader(id: string, secret: string): string {
  const encode = (part: string) => new URLSearchParams({ p: part }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

export async function postToken(url: string, fields: Record<string, unknown>, call: TokenCall = {}): Promise<TokenAnswer> {
  const encoding = call.encoding ?? 'json';
  const headers: Record<string, string> = {
    'Content-Type': encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
    ...(call.basic ? { Authorization: basicHeader(call.basic.id, call.basic.secret) } : {}),
    ...call.headers,
  };
  const body =
    call.raw ??
    (encoding === 'json'
      ? JSON.stringify(fields)
      : new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString());
  const response = await fetch(`${url}/oauth/token`, { method: 'POST', headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Left as text; the caller's assertions will show it.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** The body fields of a valid request for a client. */
export function grant(client: TestClient, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    grant_type: 'client_credentials',
    client_id: client.id,
    client_secret: client.secret,
    audience: AUDIENCE,
    ...extra,
  };
}
