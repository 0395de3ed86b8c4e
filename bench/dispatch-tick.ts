/**
 * `node --import tsx bench/dispatch-tick.ts` (and with TEST_DATABASE_URL for Postgres): the
 * dispatcher's cost in the first-share burst of the ingestion benchmark, without the whole
 * bench. BENCH_SHARES (2,000) pending share posts of one customer are fanned out and posted by
 * one `Dispatcher.tick()` (default concurrency) to a 204 receiver in a child process; reported:
 * the tick's wall time and CPU time, and the statements it ran by kind (BEGIN/COMMIT aside).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import { ManualClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { appendShares, type ShareDraft } from '../core/visibility-shares/share.repository.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { createDb, createSchema, dropSchema, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { SECRET_KEY, testFixture } from '../test/harness.js';
import { Dispatcher } from '../workers/dispatcher.js';

const SHARES = Number(process.env.BENCH_SHARES ?? 2_000);
const postgresUrl = process.env.TEST_DATABASE_URL;

const RECEIVER = `
const http = require('node:http');
http.createServer((req, res) => {
  req.resume();
  req.on('end', () => { res.statusCode = 204; res.end(); });
}).listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
`;

function startReceiver(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (chunk: Buffer) => resolve({ url: `http://127.0.0.1:${chunk.toString().trim()}/tracking`, child }));
  });
}

/** Counts the statements a Kysely instance (and its transactions) executes, by kind. */
class StatementCounter implements KyselyPlugin {
  readonly counts = new Map<string, number>();
  private readonly kinds = new WeakMap<object, string>();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    this.kinds.set(args.queryId, args.node.kind.replace('QueryNode', '').replace('Node', '').toLowerCase());
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const kind = this.kinds.get(args.queryId) ?? 'other';
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    return args.result;
  }
}

async function openDatabase(): Promise<{ db: Db; name: string; dispose(): Promise<void> }> {
  if (postgresUrl) {
    const schema = `dispatch_tick_${randomBytes(4).toString('hex')}`;
    await createSchema(postgresUrl, schema);
    const db = createDb(postgresUrl, { schema });
    return { db, name: 'postgres', dispose: async () => (await db.destroy(), await dropSchema(postgresUrl, schema)) };
  }
  const dir = mkdtempSync(join(tmpdir(), 'dispatch-tick-'));
  const db = createDb(`sqlite:${join(dir, 'bench.db')}`);
  return { db, name: 'sqlite (file, WAL)', dispose: async () => (await db.destroy(), rmSync(dir, { recursive: true, force: true })) };
}

async function main(): Promise<void> {
  const { db, name, dispose } = await openDatabase();
  const receiver = await startReceiver();
  try {
    await migrateToLatest(db);
    const clock = new ManualClock('2026-11-23T12:00:00Z');
    await loadFixture(db, testFixture(), { clock, secretKey: SECRET_KEY });
    const config = { ...loadConfig({ DATABASE_URL: 'sqlite::memory:' }), secretKey: SECRET_KEY };
    await db
      .updateTable('customers')
      .set({ visibility_url: receiver.url, visibility_secret_encrypted: encryptSecret(SECRET_KEY, 'visibility-secret', generateWebhookSecret()) })
      .where('id', '=', 'cus_heartland')
      .execute();
    const load = await db.selectFrom('loads').select(['id', 'load_number', 'subsidiary_id']).where('load_number', '=', 'L-1001').executeTakeFirstOrThrow();
    const drafts: ShareDraft[] = Array.from({ length: SHARES }, (_, i) => ({
      tenantId: 'tn_prairie',
      subsidiaryId: load.subsidiary_id,
      customerId: 'cus_heartland',
      loadId: load.id,
      loadNumber: load.load_number,
      tripId: null,
      tripNumber: null,
      eventType: 'Location',
      type: 'tracking.location',
      stopId: null,
      coordinates: { Latitude: (38 + i / 10_000).toFixed(4), Longitude: '-97.0' },
      address: null,
      data: { LoadNumber: load.load_number, Coordinates: { Latitude: (38 + i / 10_000).toFixed(4), Longitude: '-97.0' } },
    }));
    for (let i = 0; i < drafts.length; i += 500) await appendShares(db, clock, drafts.slice(i, i + 500));

    const counter = new StatementCounter();
    const dispatcher = new Dispatcher({ db: db.withPlugin(counter), config, clock });
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await dispatcher.tick();
    const wall = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const completed = await db.selectFrom('visibility_shares').select(db.fn.countAll<number>().as('n')).where('status', '=', 'Completed').executeTakeFirstOrThrow();
    const statements = [...counter.counts].map(([kind, n]) => `${kind} ${n}`).join(', ');
    console.log(
      `${name}: ${result.attempted} posts in ${wall.toFixed(0)} ms wall, ${((used.user + used.system) / 1000).toFixed(0)} ms CPU; ` +
        `${Number(completed.n)} shares Completed; statements: ${statements}`,
    );
  } finally {
    receiver.child.kill();
    await dispose();
  }
}

await main();
