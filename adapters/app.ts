import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AnyTRPCRouter } from '@trpc/server';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Db } from '../db/create-db.js';
import { SigningKeys } from '../core/signing-keys/signing-keys.js';
import { createAuthHandler } from './auth/server.js';
import { createBearerVerifier } from './auth/verify.js';
import type { Logger } from './logger.js';
import { createRateLimits, type RateLimits } from './http/rate-limit.js';
import { createApiHandler } from './api-host.js';
import { observeCore } from './metrics/registry.js';
import { createMetricsServer } from './metrics/server.js';

export interface App {
  api: Server;
  auth: Server;
  keys: SigningKeys;
  /** The metrics listener; null unless METRICS_PORT is set. */
  metrics: Server | null;
  /**
   * Listens on `port`/`authPort` (0 picks free ports), and on `metricsPort` when metrics are on,
   * and returns the bound URLs (`metricsUrl` null when metrics are off).
   */
  listen(ports?: { port: number; authPort: number; metricsPort?: number }): Promise<{ apiUrl: string; authUrl: string; metricsUrl: string | null }>;
  /** Stops accepting, lets in-flight requests finish, then resolves. The caller closes the db. */
  close(): Promise<void>;
}

export interface AppOptions {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
  /** Tests may serve their own procedures through the real edge. */
  router?: AnyTRPCRouter;
  /** The limiter of both hosts; by default over the store that suits `db` (memory or Postgres). */
  rateLimits?: RateLimits;
  /**
   * false in a WEB_CONCURRENCY worker: it still measures (with METRICS_PORT), but the primary
   * listens on METRICS_PORT and answers the sum over the workers.
   */
  serveMetrics?: boolean;
}

/** Both hosts of one process: the API host and the token host, over one database. */
export async function createApp(options: AppOptions): Promise<App> {
  const { db, config, clock, logger } = options;
  const keys = await SigningKeys.load({ db, config, clock });
  const verifyBearer = createBearerVerifier({ keys, config, clock });
  const rateLimits = options.rateLimits ?? createRateLimits({ db, config, clock, logger });
  const measured = config.metricsPort !== null;
  const api = createServer(
    { keepAliveTimeout: 5_000 },
    createApiHandler({ db, config, clock, logger, rateLimits, verifyBearer, router: options.router, measured }),
  );
  const auth = createServer({ keepAliveTimeout: 5_000 }, createAuthHandler({ db, config, keys, clock, logger, rateLimits }));
  const metrics = measured && options.serveMetrics !== false ? createMetricsServer({ db, clock, logger }) : null;
  // A worker without the listener still counts batches and delivery attempts for the primary's sum.
  if (measured && !metrics) observeCore();
  const servers = [api, auth, ...(metrics ? [metrics] : [])];

  return {
    api,
    auth,
    keys,
    metrics,
    async listen(ports = { port: config.port, authPort: config.authPort }) {
      await Promise.all([
        listenOn(api, ports.port, config.host),
        listenOn(auth, ports.authPort, config.host),
        ...(metrics ? [listenOn(metrics, ports.metricsPort ?? config.metricsPort ?? 0, config.host)] : []),
      ]);
      return { apiUrl: urlOf(api, config.host), authUrl: urlOf(auth, config.host), metricsUrl: metrics ? urlOf(metrics, config.host) : null };
    },
    async close() {
      await Promise.all(servers.map(closeServer));
      // After the last request: units leased from a shared budget go back for other processes.
      await rateLimits.close();
    },
  };
}

export function listenOn(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export function urlOf(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Graceful: no new connections, idle keep-alive sockets closed, in-flight requests finish. */
export function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
