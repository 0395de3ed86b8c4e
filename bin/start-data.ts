import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../adapters/logger.js';
import { projectRoot } from '../adapters/project-root.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { loadFixture } from '../seeding/load-fixture.js';
import type { Db } from '../db/create-db.js';
import { startIdempotencyKeyExpiry } from '../workers/idempotency-key-expiry.js';
import { startPositionPartitions } from '../workers/position-partitions.js';
import { startEventRetention } from '../workers/event-retention.js';
import { startTenderExpiry } from '../workers/tender-expiry.js';
import { startDetentionStarts } from '../workers/detention-start.js';

/** What the start banner says about the data: the demo client to print, or that there is nobody yet. */
export interface StartData {
  demoClient: { id: string; secret: string } | null;
  noTenants: boolean;
}

/**
 * Loads SEED or (outside production) the demo data into an empty database, once per start:
 * by the one process of `npm start`, or by the primary with WEB_CONCURRENCY > 1.
 */
export async function loadStartData(options: { db: Db; config: Config; secretKey: Buffer; clock: Clock; logger: Logger }): Promise<StartData> {
  const { db, config, secretKey, clock, logger } = options;
  const empty = !(await db.selectFrom('tenants').select('id').limit(1).executeTakeFirst());
  const demoPath = join(projectRoot(), 'fixtures', 'demo.json');
  // Production never gets the demo data (its client secrets are published): only a SEED it names.
  const fixturePath = config.seed ?? (config.production ? null : demoPath);
  let demoClient: { id: string; secret: string } | null = null;
  if (empty && fixturePath) {
    const fixture = JSON.parse(await readFile(fixturePath, 'utf8'));
    const summary = await loadFixture(db, fixture, { clock, secretKey });
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
  return { demoClient, noTenants: empty && !fixturePath };
}

/**
 * The periodic jobs that need one runner per start, not one per API process: the hourly
 * position-partition pass, tender expiry, detention starts, idempotency-key expiry and event retention. (Each is safe beside
 * another process's, as `npm run worker` runs them too; running them N times would only
 * repeat the work.)
 */
export async function startBackgroundJobs(options: { db: Db; config: Config; clock: Clock; logger: Logger }): Promise<{ stop(): Promise<void> }> {
  const { db, config, clock, logger } = options;
  const partitions = await startPositionPartitions({ db, clock, retentionDays: config.positionRetentionDays, logger });
  const tenderExpiry = startTenderExpiry({ db, clock, logger });
  const detentionStarts = startDetentionStarts({ db, clock: clock, logger });
  const keyExpiry = startIdempotencyKeyExpiry({ db, clock, logger });
  const eventRetention = startEventRetention({ db, clock, logger });
  return {
    async stop() {
      await partitions.stop();
      await tenderExpiry.stop();
      await detentionStarts.stop();
      await keyExpiry.stop();
      await eventRetention.stop();
    },
  };
}
