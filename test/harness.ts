import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnyTRPCRouter } from '@trpc/server';
import { createApp, type App } from '../adapters/app.js';
import { silentLogger, type Logger } from '../adapters/logger.js';
import { projectRoot } from '../adapters/project-root.js';
import { SCOPES } from '../core/auth/scopes.js';
import { ManualClock } from '../core/clock.js';
import { loadConfig, type Config } from '../core/config.js';
import { loadFixture } from '../seeding/load-fixture.js';
import type { Db } from '../db/create-db.js';
import { createTestDatabaseWith, type TestDatabase } from './support/database.js';

export const AUDIENCE = 'https://api.test.invalid';
export const SECRET_KEY = Buffer.from('test-secret-key-0123456789abcdef-0123456789');

/**
 * The demo data's hand-written records (fixtures/demo-base.json: the ones tests address by id,
 * without the generated fleet of fixtures/demo.json, which would only make every test's
 * database slower to fill and its lists longer) plus clients every test needs: all scopes,
 * subsidiary-bound, no useful scope.
 */
export function testFixture(): any {
  const fixture = JSON.parse(readFileSync(join(projectRoot(), 'fixtures', 'demo-base.json'), 'utf8'));
  for (const tenant of fixture.Tenants) {
    tenant.Clients.push(
      { ClientId: `${tenant.Id}-all`, ClientSecret: `secret-${tenant.Id}-all`, Scopes: [...SCOPES], SubsidiaryId: null },
      // A client without any scope: the "missing scope" case of every route, whatever scopes routes add.
      { ClientId: `${tenant.Id}-none`, ClientSecret: `secret-${tenant.Id}-none`, Scopes: [], SubsidiaryId: null },
    );
    for (const subsidiary of tenant.Subsidiaries) {
      tenant.Clients.push({
        ClientId: `${subsidiary.Id}-all`,
        ClientSecret: `secret-${subsidiary.Id}-all`,
        Scopes: [...SCOPES],
        SubsidiaryId: subsidiary.Id,
      });
    }
  }
  return fixture;
}

/** Secret of a client of `testFixture()`. */
export function secretOf(clientId: string): string {
  for (const tenant of testFixture().Tenants) {
    const client = tenant.Clients.find((c: any) => c.ClientId === clientId);
    if (client) return client.ClientSecret;
  }
  throw new Error(`no fixture client ${clientId}`);
}

export interface TestApp {
  db: Db;
  config: Config;
  clock: ManualClock;
  app: App;
  apiUrl: string;
  authUrl: string;
  /** A real token from the token endpoint, cached per client (the endpoint allows 30 a minute). */
  token(clientId: string): Promise<string>;
  /** An authenticated (or not) request to the API host. */
  api(path: string, init?: ApiInit): Promise<ApiResponse>;
  close(): Promise<void>;
}

export interface ApiInit {
  method?: string;
  /** A client id (its token is fetched), a raw token with `raw:` prefix, or null for none. */
  as?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface StartOptions {
  fixture?: unknown;
  now?: string;
  env?: Record<string, string>;
  router?: AnyTRPCRouter;
  /** A database to use instead of a fresh one (a file-backed SQLite one, to read its bytes); the app disposes of it. */
  database?: TestDatabase;
  /** A logger to use instead of the silent one (to read what was logged). */
  logger?: Logger;
}

/** A fresh migrated database with the fixture, and both hosts on free ports. */
export async function startTestApp(options: StartOptions = {}): Promise<TestApp> {
  const clock = new ManualClock(options.now ?? '2026-11-22T12:00:00Z');
  const fixture = options.fixture ?? testFixture();
  const database = options.database ?? (await createTestDatabaseWith(fixture, { clock, secretKey: SECRET_KEY }));
  if (options.database) await loadFixture(database.db, fixture, { clock, secretKey: SECRET_KEY });
  const config: Config = {
    ...loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      HOST: '127.0.0.1',
      PORT: '0',
      AUTH_PORT: '0',
      API_AUDIENCE: AUDIENCE,
      // Limits are tested on their own (rate-limits.test.ts); elsewhere they would only add noise.
      RATE_LIMITS: 'off',
      ...options.env,
    }),
    secretKey: SECRET_KEY,
  };
  const app = await createApp({ db: database.db, config, clock, logger: options.logger ?? silentLogger(), router: options.router });
  // The test's client shares the event loop with the servers: after a long synchronous step (a
  // SQLite migration on a busy machine) the server's idle timer and the client's next request on
  // the same kept-alive socket run in the same turn, and the request meets a reset. Idle sockets
  // live longer than any such step here.
  app.api.keepAliveTimeout = 120_000;
  app.auth.keepAliveTimeout = 120_000;
  const { apiUrl, authUrl } = await app.listen({ port: 0, authPort: 0 });
  // Links and problem types name the bound URLs, as PUBLIC_BASE_URL would in production.
  config.publicBaseUrl = apiUrl;
  const tokens = new Map<string, Promise<string>>();

  const token = (clientId: string) => {
    let cached = tokens.get(clientId);
    if (!cached) {
      cached = fetchToken(authUrl, clientId, secretOf(clientId));
      tokens.set(clientId, cached);
    }
    return cached;
  };

  return {
    db: database.db,
    config,
    clock,
    app,
    apiUrl,
    authUrl,
    token,
    async api(path, init = {}) {
      const headers: Record<string, string> = { ...init.headers };
      if (init.as) headers.authorization = `Bearer ${init.as.startsWith('raw:') ? init.as.slice(4) : await token(init.as)}`;
      let body: string | FormData | undefined;
      // FormData goes as it is: fetch writes the multipart body and its boundary.
      if (init.body instanceof FormData) body = init.body;
      else if (init.body !== undefined) {
        body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
        headers['content-type'] ??= 'application/json';
      }
      const response = await fetch(apiUrl + path, { method: init.method ?? 'GET', headers, body });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async close() {
      await app.close();
      await database.dispose();
    },
  };
}

export async function fetchToken(authUrl: string, clientId: string, secret: string): Promise<string> {
  const response = await fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: secret, audience: AUDIENCE, grant_type: 'client_credentials' }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`token for ${clientId}: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
