import { closeServer, listenOn, urlOf } from '../adapters/app.js';
import { SigningKeys } from '../core/signing-keys/signing-keys.js';
import { createLogger } from '../adapters/logger.js';
import { clusterExposition } from '../adapters/metrics/cluster.js';
import { createMetricsServer } from '../adapters/metrics/server.js';
import { systemClock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { createDb, redactUrl } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { ApiWorkers } from './api-workers.js';
import { resolveSecretKey } from './secret-key.js';
import { stopOnSignals, type Stop } from './shutdown.js';
import { loadStartData, startBackgroundJobs } from './start-data.js';
import { welcome } from './welcome.js';

/** The primary's own pool: migrations, the fixture, the periodic jobs and metric gauges, one at a time mostly. */
const PRIMARY_POOL_SIZE = 3;
/** Longer than a worker's own 10 s drain, so the workers' exits are waited for, not cut short. */
const PRIMARY_GRACE_MS = 15_000;

/**
 * `npm start` with WEB_CONCURRENCY=N > 1 (Postgres): this process migrates, loads the data
 * once, creates the first signing key (N workers would each make their own), runs the periodic
 * jobs once, forks N API workers (node:cluster) that share the API and token ports, prints the
 * banner once they all listen, and serves METRICS_PORT with the sum over the workers. It
 * serves no request itself: on Linux it accepts the connections and hands them to the
 * workers in turn, so it stays free of request work.
 */
export async function runClusterPrimary(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel).child({ pid: process.pid, role: 'primary' });
  const secretKey = resolveSecretKey(config);
  config.secretKey = secretKey;
  const clock = systemClock;
  const db = createDb(config.databaseUrl, { maxConnections: Math.min(config.databasePoolSize, PRIMARY_POOL_SIZE), statementCache: config.databaseStatementCache });
  await migrateToLatest(db);
  const jobs = await startBackgroundJobs({ db, config, clock, logger });
  const { demoClient, noTenants } = await loadStartData({ db, config, secretKey, clock, logger });
  await SigningKeys.load({ db, config, clock });

  let stop: Stop | null = null;
  const workers = new ApiWorkers({ count: config.webConcurrency, logger, onGiveUp: (reason) => void stop?.(reason, 1) });
  const metrics = config.metricsPort === null ? null : createMetricsServer({ db, clock, logger, render: () => clusterExposition(db, clock) });
  stop = stopOnSignals(logger, 'in-flight requests in every API worker', PRIMARY_GRACE_MS, async () => {
    await workers.stop();
    if (metrics) await closeServer(metrics);
    await jobs.stop();
    await db.destroy();
  });

  const { apiUrl, authUrl } = await workers.start();
  if (metrics) await listenOn(metrics, config.metricsPort ?? 0, config.host);
  const metricsUrl = metrics ? urlOf(metrics, config.host) : null;
  logger.info(
    { apiUrl, authUrl, metricsUrl, database: redactUrl(config.databaseUrl), workers: workers.pids() },
    `listening with ${config.webConcurrency} API workers`,
  );
  process.stdout.write(welcome({ apiUrl, authUrl, metricsUrl, audience: config.audience, client: demoClient, production: config.production, noTenants, workers: config.webConcurrency }));
}
