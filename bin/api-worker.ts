import cluster from 'node:cluster';
import { createApp } from '../adapters/app.js';
import { createLogger } from '../adapters/logger.js';
import { answerMetricsRequests } from '../adapters/metrics/cluster.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { LISTENING, type ListeningMessage } from './cluster-messages.js';
import { resolveSecretKey } from './secret-key.js';
import { stopOnSignals } from './shutdown.js';
import { openServerDb } from './server-db.js';

/**
 * One API process of a WEB_CONCURRENCY cluster, forked by bin/cluster-primary.ts once the
 * primary has migrated and loaded the data: both hosts on the ports the cluster shares, over
 * the shared Postgres rate-limit store (so the limits of docs/api-rules.md#rate-limits hold over all the processes), and
 * a webhook dispatcher (WEBHOOKS=on) whose claims are leases taken with `FOR UPDATE SKIP
 * LOCKED`, so N of them never deliver one attempt twice.
 */
export async function runApiWorker(): Promise<void> {
  // The primary is gone (killed): nobody hands this process connections any more.
  let stop: ((reason: string) => Promise<void>) | null = null;
  process.on('disconnect', () => (stop ? void stop('primary gone') : process.exit(1)));

  const config = loadConfig();
  // The pid tells the workers' log lines apart (each request line too).
  const logger = createLogger(config.logLevel).child({ pid: process.pid, worker: cluster.worker?.id });
  // The primary created ./data/secret.key (outside production) before forking: this reads it.
  config.secretKey = resolveSecretKey(config);
  const clock = systemClock;
  const db = await openServerDb(config, { migrate: false, positions: true });
  const app = await createApp({ db, config, clock, logger, serveMetrics: false });
  if (config.metricsPort !== null) answerMetricsRequests();
  const dispatcher = config.webhooks ? new Dispatcher({ db, config, clock, logger }) : null;
  dispatcher?.start();
  const { apiUrl, authUrl } = await app.listen();
  logger.info({ apiUrl, authUrl }, 'API worker listening');

  stop = stopOnSignals(logger, 'in-flight requests', 10_000, async () => {
    await app.close();
    await dispatcher?.stop();
    await db.destroy();
  });
  process.send?.({ type: LISTENING, apiUrl, authUrl } satisfies ListeningMessage);
}
