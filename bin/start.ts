import cluster from 'node:cluster';
import { createApp } from '../adapters/app.js';
import { createLogger } from '../adapters/logger.js';
import { systemClock } from '../core/clock.js';
import { loadConfig, type Config } from '../core/config.js';
import { FixtureError } from '../seeding/load-fixture.js';
import { redactUrl } from '../db/create-db.js';
import { runApiWorker } from './api-worker.js';
import { runClusterPrimary } from './cluster-primary.js';
import { resolveSecretKey } from './secret-key.js';
import { stopOnSignals } from './shutdown.js';
import { loadStartData, startBackgroundJobs } from './start-data.js';
import { welcome } from './welcome.js';
import { startSandbox } from './sandbox-activity.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { openServerDb } from './server-db.js';

/**
 * `npm start` (README.md#commands): migrate, load SEED or (outside production) the demo data into an
 * empty database, start the API host and the token host (and the metrics listener with
 * METRICS_PORT), print how to get a token, and shut down gracefully.
 *
 * With WEB_CONCURRENCY > 1 (Postgres only) this process is the cluster's primary
 * (bin/cluster-primary.ts) and the same file, forked, runs each API worker (bin/api-worker.ts).
 */
async function main(): Promise<void> {
  if (cluster.isWorker) return runApiWorker();
  const config = loadConfig();
  if (config.webConcurrency > 1) {
    refuseSqliteCluster(config);
    return runClusterPrimary(config);
  }
  return runOneProcess(config);
}

/**
 * SQLite is one writer on one file and its rate-limit counters live in the process's memory:
 * N processes would multiply every limit by N. Refused rather than run wrong.
 */
function refuseSqliteCluster(config: Config): void {
  if (!config.databaseUrl.startsWith('sqlite:')) return;
  throw new Error(
    `WEB_CONCURRENCY=${config.webConcurrency} needs Postgres: on SQLite the rate limits are counted in one process's memory and the database file has one writer; use WEB_CONCURRENCY=1 or a postgres:// DATABASE_URL`,
  );
}

/** Everything in this one process: both hosts, the dispatcher and the periodic jobs. */
async function runOneProcess(config: Config): Promise<void> {
  const logger = createLogger(config.logLevel);
  const secretKey = resolveSecretKey(config);
  config.secretKey = secretKey;
  const clock = systemClock;
  const db = await openServerDb(config, { migrate: true, positions: true });
  const jobs = await startBackgroundJobs({ db, config, clock, logger });
  const { demoClient, noTenants } = await loadStartData({ db, config, secretKey, clock, logger });

  const app = await createApp({ db, config, clock, logger });
  // WEBHOOKS=off leaves delivery to `npm run worker` processes.
  const dispatcher = config.webhooks ? new Dispatcher({ db, config, clock, logger }) : null;
  dispatcher?.start();
  if (demoClient) await startSandbox({ db, clock, config, logger });
  const { apiUrl, authUrl, metricsUrl } = await app.listen();
  logger.info({ apiUrl, authUrl, metricsUrl, database: redactUrl(config.databaseUrl) }, 'listening');
  process.stdout.write(welcome({ apiUrl, authUrl, metricsUrl, audience: config.audience, client: demoClient, production: config.production, noTenants }));

  stopOnSignals(logger, 'in-flight requests', 10_000, async () => {
    await app.close();
    await dispatcher?.stop();
    await jobs.stop();
    await db.destroy();
  });
}

main().catch((error: unknown) => {
  if (error instanceof FixtureError) {
    process.stderr.write(`The fixture was refused:\n${error.problems.join('\n')}\n`);
  } else {
    process.stderr.write(`waybill failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
