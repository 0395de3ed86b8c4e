/**
 * `npm run bench` (webhooks): dispatcher throughput and the delivery-log export.
 *
 * Dispatch: BENCH_EVENTS events (20,000 by default) are in the outbox of a file SQLite
 * database; one dispatcher (the API process's, default concurrency) fans them out to one
 * Active subscription and delivers them, signed, to a bare node:http receiver in a child
 * process (so the receiver does not share the dispatcher's event loop). Reported: deliveries
 * per second from start to the last recorded success, and events lost (not received, by
 * distinct webhook-id). Target: ≥ 2,000 per second with 0 lost.
 *
 * Export: 25,000 attempts exported as CSV through the whole HTTP stack; reported: time and the
 * peak heap growth during the download (after a full GC when run with --expose-gc, as
 * `npm run bench` does), beside the same for 5,000 rows. Target: < 2 s, and memory flat in
 * the row count (the body is streamed in chunks, never built whole).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../adapters/app.js';
import { silentLogger } from '../adapters/logger.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { appendEvent } from '../core/events/outbox.repository.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { createDb, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { fetchToken, secretOf, testFixture, AUDIENCE, SECRET_KEY } from '../test/harness.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { recordResults } from './results.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 20_000);
const EXPORT_ROWS = 25_000;

const RECEIVER = `
const http = require('node:http');
const seen = new Set();
let total = 0;
http.createServer((req, res) => {
  if (req.method === 'GET') { res.end(JSON.stringify({ total, distinct: seen.size })); return; }
  total += 1;
  seen.add(req.headers['webhook-id']);
  req.resume();
  req.on('end', () => { res.writeHead(200); res.end(); });
}).listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });
`;

function startReceiver(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['-e', RECEIVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout!.once('data', (chunk: Buffer) => resolve({ url: `http://127.0.0.1:${chunk.toString().trim()}`, child }));
  });
}

async function subscription(db: Db, id: string, url: string): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('webhooks')
    .values({
      id,
      tenant_id: 'tn_prairie',
      subsidiary_id: 'sub_kc',
      name: id,
      url,
      event_types: JSON.stringify(['trip.*']),
      secret_encrypted: encryptSecret(SECRET_KEY, 'webhook-secret', generateWebhookSecret()),
      previous_secret_encrypted: null,
      previous_secret_expires_at: null,
      enabled: 1,
      status: 'Active',
      consecutive_failures: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

async function benchDispatch(db: Db, receiverUrl: string): Promise<void> {
  await subscription(db, 'wh_bench', `${receiverUrl}/hooks`);
  for (let i = 0; i < EVENTS; i += 1000) {
    await db.transaction().execute(async (trx) => {
      for (let j = i; j < Math.min(i + 1000, EVENTS); j++) {
        await appendEvent(trx, systemClock, {
          tenantId: 'tn_prairie',
          subsidiaryId: 'sub_kc',
          type: 'trip.changed',
          data: { Id: `trip_${j}`, Status: 'InTransit', diff: { changes: [{ Field: 'Status', From: 'Dispatched', To: 'InTransit' }] } },
        });
      }
    });
  }
  const config = { ...loadConfig({ DATABASE_URL: 'sqlite::memory:' }), secretKey: SECRET_KEY };
  const dispatcher = new Dispatcher({ db, config, clock: systemClock, pollIntervalMs: 20 });
  const started = performance.now();
  dispatcher.start();
  for (;;) {
    const row = await db
      .selectFrom('webhook_deliveries')
      .select((eb) => eb.fn.countAll<number>().as('done'))
      .where('state', '=', 'succeeded')
      .executeTakeFirstOrThrow();
    if (Number(row.done) >= EVENTS) break;
    if (performance.now() - started > 300_000) throw new Error('dispatch did not finish in 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - started) / 1000;
  await dispatcher.stop();
  const counts = (await (await fetch(`${receiverUrl}/count`)).json()) as { total: number; distinct: number };
  const rate = EVENTS / seconds;
  console.log(`dispatch: ${EVENTS} events in ${seconds.toFixed(2)} s = ${Math.round(rate)} deliveries/s; received ${counts.total} (${counts.distinct} distinct), lost ${EVENTS - counts.distinct}`);
  console.log(`dispatch target ≥ 2,000/s with 0 lost — ${rate >= 2000 && counts.distinct === EVENTS ? 'met' : 'NOT met'}`);
  recordResults('webhook-dispatch/sqlite', { events: EVENTS, seconds, deliveries_per_s: rate, received: counts.total, lost: EVENTS - counts.distinct });
}

async function benchExport(db: Db, apiUrl: string, token: string): Promise<void> {
  const measure = async (webhookId: string, rows: number) => {
    await subscription(db, webhookId, 'http://127.0.0.1:9/unused');
    const base = Date.now();
    for (let i = 0; i < rows; i += 500) {
      const batch = [];
      for (let j = i; j < Math.min(i + 500, rows); j++) {
        batch.push({
          id: `att_${webhookId}_${String(j).padStart(6, '0')}`,
          tenant_id: 'tn_prairie',
          delivery_id: `msg_${webhookId}_${j}`,
          webhook_id: webhookId,
          customer_id: null,
          event_type: 'trip.changed',
          attempt: 1 + (j % 3),
          status: j % 7 === 0 ? 'failure' : 'success',
          http_status: j % 7 === 0 ? 500 : 200,
          duration_ms: 20 + (j % 50),
          reason: j % 7 === 0 ? 'The receiver answered HTTP 500.' : null,
          response_body: j % 7 === 0 ? 'upstream "timeout", retry later' : 'ok',
          attempted_at: new Date(base - j * 1000).toISOString(),
        });
      }
      await db.insertInto('webhook_delivery_attempts').values(batch).execute();
    }
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let peak = heapBefore;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 5);
    const started = performance.now();
    const response = await fetch(`${apiUrl}/api/p/v1.0/webhooks/${webhookId}/delivery-logs/export?Format=csv&Page=249&PageSize=100`, {
      headers: { authorization: `Bearer ${token}` },
    });
    let bytes = 0;
    let lines = 0;
    for await (const chunk of response.body!) {
      bytes += chunk.length;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
    const ms = performance.now() - started;
    clearInterval(sampler);
    return { rows: lines - 1, ms, bytes, heapGrowthMb: (peak - heapBefore) / 1024 / 1024 };
  };
  const small = await measure('wh_export_small', 5_000);
  const large = await measure('wh_export_large', EXPORT_ROWS);
  for (const r of [small, large]) {
    console.log(`export: ${r.rows} rows, ${(r.bytes / 1024 / 1024).toFixed(1)} MiB in ${r.ms.toFixed(0)} ms, peak heap growth ${r.heapGrowthMb.toFixed(1)} MiB`);
  }
  console.log(`export target < 2 s for ${EXPORT_ROWS} rows — ${large.ms < 2000 && large.rows === EXPORT_ROWS ? 'met' : 'NOT met'}`);
  recordResults('delivery-log-export/sqlite', { rows: large.rows, ms: large.ms, mib: large.bytes / 1024 / 1024, heap_growth_mib: large.heapGrowthMb });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'waybill-bench-'));
  const db = createDb(`sqlite:${join(dir, 'bench.db')}`);
  const receiver = await startReceiver();
  try {
    await migrateToLatest(db);
    await loadFixture(db, testFixture(), { clock: systemClock, secretKey: SECRET_KEY });
    await benchDispatch(db, receiver.url);

    const config = {
      ...loadConfig({ DATABASE_URL: 'sqlite::memory:', HOST: '127.0.0.1', PORT: '0', AUTH_PORT: '0', API_AUDIENCE: AUDIENCE, RATE_LIMITS: 'off' }),
      secretKey: SECRET_KEY,
    };
    const app = await createApp({ db, config, clock: systemClock, logger: silentLogger() });
    const { apiUrl, authUrl } = await app.listen({ port: 0, authPort: 0 });
    try {
      await benchExport(db, apiUrl, await fetchToken(authUrl, 'tn_prairie-all', secretOf('tn_prairie-all')));
    } finally {
      await app.close();
    }
  } finally {
    receiver.child.kill();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
