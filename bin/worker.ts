import { closeServer, listenOn, urlOf } from '../adapters/app.js';
import { createLogger } from '../adapters/logger.js';
import { createMetricsServer } from '../adapters/metrics/server.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { redactUrl } from '../db/create-db.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { startPositionPartitions } from '../workers/position-partitions.js';
import { startEventRetention } from '../workers/event-retention.js';
import { startTenderExpiry } from '../workers/tender-expiry.js';
import { startDetentionStarts } from '../workers/detention-start.js';
import { startIdempotencyKeyExpiry } from '../workers/idempotency-key-expiry.js';
import { resolveSecretKey } from './secret-key.js';
import { stopOnSignals } from './shutdown.js';
import { openServerDb } from './server-db.js';

/**
 * `npm run worker` (README.md#commands): the webhook and visibility dispatcher alone, for deployments
 * where API processes run with WEBHOOKS=off and workers scale apart. Any number may run
 * against one Postgres database; a killed worker's deliveries are picked up once their lease
 * runs out, with the same webhook-id. It also runs the hourly position-partition pass, which
 * takes turns with the other processes' passes.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  // The same SECRET_KEY as the API processes: it decrypts the subscriptions' signing secrets.
  config.secretKey = resolveSecretKey(config);
  const db = await openServerDb(config, { migrate: true });
  const partitions = await startPositionPartitions({ db, clock: systemClock, retentionDays: config.positionRetentionDays, logger });
  const tenderExpiry = startTenderExpiry({ db, clock: systemClock, logger });
  const detentionStarts = startDetentionStarts({ db, clock: systemClock, logger });
  const keyExpiry = startIdempotencyKeyExpiry({ db, clock: systemClock, logger });
  const eventRetention = startEventRetention({ db, clock: systemClock, logger });
  const dispatcher = new Dispatcher({ db, config, clock: systemClock, logger });
  dispatcher.start();
  // METRICS_PORT: this worker's delivery attempts and the shared outbox lag, on its own port.
  const metrics = config.metricsPort === null ? null : createMetricsServer({ db, clock: systemClock, logger });
  if (metrics) await listenOn(metrics, config.metricsPort ?? 0, config.host);
  const metricsUrl = metrics ? `${urlOf(metrics, config.host)}/metrics` : null;
  logger.info({ database: redactUrl(config.databaseUrl), metricsUrl }, 'webhook dispatcher running');

  stopOnSignals(logger, 'attempts in flight', config.webhookTimeoutMs + 5_000, async () => {
    if (metrics) await closeServer(metrics);
    await dispatcher.stop();
    await partitions.stop();
    await tenderExpiry.stop();
    await detentionStarts.stop();
    await keyExpiry.stop();
    await eventRetention.stop();
    await db.destroy();
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`waybill worker failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
