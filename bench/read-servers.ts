import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../adapters/app.js';
import { silentLogger } from '../adapters/logger.js';
import { RateLimits } from '../adapters/http/rate-limit.js';
import { MemoryRateLimitStore } from '../adapters/http/rate-limit-store.js';
import { tenantRule, tokenRule } from '../adapters/http/rate-rules.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { getSubsidiary } from '../core/subsidiaries/subsidiary.repository.js';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { fetchToken, secretOf, testFixture, AUDIENCE, SECRET_KEY } from '../test/harness.js';

export const READ_PATH = '/api/p/v1.0/subsidiaries/sub_kc';

export interface ReadServers {
  /** The full stack, limits off. */
  fullUrl: string;
  /** The full stack, limits on over the memory store, thresholds raised. */
  limitedUrl: string;
  /** node:http → getSubsidiary → JSON.stringify. */
  bareUrl: string;
  /** The Authorization header of a real token from the token host. */
  auth: Record<string, string>;
  /** Each server's request listener, for loops that leave the sockets out. */
  listeners: { full: RequestListener; limited: RequestListener; bare: RequestListener };
  close(): Promise<void>;
}

/**
 * Every threshold of the REST read raised, so the measured reads are allowed: one token at
 * thousands of requests a second would otherwise be refused after 10, and a 429 is not the
 * read being measured. The rules are raised in place (this process's limits-off app never
 * reads them), so the limiter runs exactly as in production, with no wrapper of its own.
 */
function raiseThresholds(): void {
  for (const rule of [tokenRule, tenantRule]) rule.points = 1_000_000_000;
}

/** The authenticated read's servers, in this process, over one in-memory SQLite with the test fixture; URLs are of the read itself. */
export async function startReadServers(): Promise<ReadServers> {
  const db = createDb('sqlite::memory:');
  await migrateToLatest(db);
  await loadFixture(db, testFixture(), { clock: systemClock, secretKey: SECRET_KEY });
  const config = { ...loadConfig({ API_AUDIENCE: AUDIENCE, RATE_LIMITS: 'off', PORT: '0', AUTH_PORT: '0' }), secretKey: SECRET_KEY };
  const app = await createApp({ db, config, clock: systemClock, logger: silentLogger() });
  const { apiUrl, authUrl } = await app.listen({ port: 0, authPort: 0 });
  const limitedConfig = { ...config, rateLimits: true };
  raiseThresholds();
  const rateLimits = new RateLimits({ enabled: true, store: new MemoryRateLimitStore(), clock: systemClock, logger: silentLogger() });
  const limitedApp = await createApp({ db, config: limitedConfig, clock: systemClock, logger: silentLogger(), rateLimits });
  const { apiUrl: limitedUrl } = await limitedApp.listen({ port: 0, authPort: 0 });
  const token = await fetchToken(authUrl, 'prairie-integration', secretOf('prairie-integration'));

  const scope = { tenantId: 'tn_prairie', subsidiaryId: null };
  const bareListener: RequestListener = (req, res) => {
    const id = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
    getSubsidiary(db, scope, id).then((subsidiary) => {
      const body = JSON.stringify(subsidiary);
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
      res.end(body);
    });
  };
  const bare: Server = createServer(bareListener);
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  return {
    fullUrl: apiUrl + READ_PATH,
    limitedUrl: limitedUrl + READ_PATH,
    bareUrl: `http://127.0.0.1:${(bare.address() as AddressInfo).port}/subsidiaries/sub_kc`,
    auth: { authorization: `Bearer ${token}` },
    listeners: { full: listenerOf(app.api), limited: listenerOf(limitedApp.api), bare: bareListener },
    async close() {
      bare.close();
      await app.close();
      await limitedApp.close();
      await db.destroy();
    },
  };
}

function listenerOf(server: Server): RequestListener {
  return server.listeners('request')[0] as RequestListener;
}
