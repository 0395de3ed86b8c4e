import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createApp } from '../adapters/app.js';
import { createLogger } from '../adapters/logger.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { FixtureError, loadFixture } from '../core/fixtures/load-fixture.js';
import { createDb, redactUrl } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { projectRoot } from '../adapters/project-root.js';
import { resolveSecretKey } from './secret-key.js';
import { stopOnSignals } from './shutdown.js';
import { welcome } from './welcome.js';
import { startSandbox } from './sandbox-activity.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { startPositionPartitions } from '../workers/position-partitions.js';
import { startTenderExpiry } from '../workers/tender-expiry.js';
import { startIdempotencyKeyExpiry } from '../workers/idempotency-key-expiry.js';

/**
 * `npm start` (CONTRACT.md): migrate, load SEED or (outside production) the demo data into an
 * empty database, start the API host and the token host (and the metrics listener with
 * METRICS_PORT), print how to get a token, and shut down gracefully.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  config.secretKey = resolveSecretKey(config);
  const clock = systemClock;
  const db = createDb(config.databaseUrl, { maxConnections: config.databasePoolSize });
  await migrateToLatest(db);
  const partitions = await startPositionPartitions({ db, clock, retentionDays: config.positionRetentionDays, logger });
  const tenderExpiry = startTenderExpiry({ db, clock, logger });
  const keyExpiry = startIdempotencyKeyExpiry({ db, clock, logger });

  const empty = !(await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst());
  const demoPath = join(projectRoot(), 'fixtures', 'demo.json');
  // Production never gets the demo data (its client secrets are published): only a SEED it names.
  const fixturePath = config.seed ?? (config.production ? null : demoPath);
  let demoClient: { id: string; secret: string } | null = null;
  if (empty && fixturePath) {
    const fixture = JSON.parse(await readFile(fixturePath, 'utf8'));
    const summary = await loadFixture(db, fixture, { clock, secretKey: config.secretKey });
    logger.info({ fixture: fixturePath, summary }, 'fixture loaded into the empty database');
    // Only the demo data's own, published credentials are printed; a SEED's secrets are not.
    const client = fixture.Tenants?.[0]?.Clients?.[0];
    if (client && fixturePath === demoPath && !config.production) demoClient = { id: client.ClientId, secret: client.ClientSecret };
  } else if (empty) {
    logger.warn('NODE_ENV=production and the database is empty: no demo data loaded (set SEED to load a fixture)');
  } else if (!config.seed && !config.production) {
    // The database was seeded before; the demo credentials still work if it was the demo data.
    const fixture = JSON.parse(await readFile(demoPath, 'utf8'));
    const client = fixture.Tenants[0].Clients[0];
    const known = await db.selectFrom('api_clients').select('client_id').where('client_id', '=', client.ClientId).executeTakeFirst();
    if (known) demoClient = { id: client.ClientId, secret: client.ClientSecret };
  }
  const noTenants = empty && !fixturePath;

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
    await partitions.stop();
    await tenderExpiry.stop();
    await keyExpiry.stop();
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
