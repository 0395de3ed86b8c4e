import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { systemClock } from '../core/clock.js';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { appendEvent } from '../core/events/outbox.repository.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { createDb, createSchema, dropSchema, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { SECRET_KEY, testFixture } from './harness.js';
import { testDatabaseKind } from './support/database.js';
import { builtBin } from './support/server-process.js';
import { startReceiver, verifyDelivery, type Receiver } from './support/webhook-receiver.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EVENTS = 150;

let databaseUrl: string;
let db: Db;
let cleanup: () => Promise<void>;
let receiver: Receiver;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  if (testDatabaseKind() === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await createSchema(url, schema);
    databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    db = createDb(url, { schema, maxConnections: 2 });
    cleanup = async () => {
      await db.destroy();
      await dropSchema(url, schema);
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-worker-'));
    databaseUrl = `sqlite:${join(dir, 'w.db')}`;
    db = createDb(databaseUrl);
    cleanup = async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  await migrateToLatest(db);
  await loadFixture(db, testFixture(), { clock: systemClock, secretKey: SECRET_KEY });
  receiver = await startReceiver();
}, 60_000);

afterAll(async () => {
  for (const worker of workers) worker.kill('SIGKILL');
  await receiver?.close();
  await cleanup?.();
});

/** The worker (the built bin/worker.js) in its own process (node itself, so SIGKILL hits the worker). */
function startWorker(): ChildProcess {
  const child = spawn(process.execPath, builtBin('worker'), {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SECRET_KEY: SECRET_KEY.toString('utf8'),
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_RETRY_DELAYS: '1,1,1',
      LOG_LEVEL: 'silent',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  workers.push(child);
  return child;
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it(
  'delivers every event of a burst after the worker is killed mid-burst and restarted; redeliveries keep their webhook-id',
  async () => {
    const secret = generateWebhookSecret();
    const now = new Date().toISOString();
    await db
      .insertInto('webhooks')
      .values({
        id: 'wh_crash',
        tenant_id: 'tn_prairie',
        subsidiary_id: 'sub_kc',
        name: 'crash',
        url: `${receiver.url}/crash`,
        event_types: JSON.stringify(['trip.*']),
        secret_encrypted: encryptSecret(SECRET_KEY, 'webhook-secret', secret),
        previous_secret_encrypted: null,
        previous_secret_expires_at: null,
        enabled: 1,
        status: 'Active',
        consecutive_failures: 0,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // Slow answers keep attempts in flight, so the kill lands in the middle of the burst.
    receiver.respond = (_request, res) => {
      setTimeout(() => {
        res.writeHead(200);
        res.end();
      }, 150).unref();
    };
    for (let i = 0; i < EVENTS; i++) {
      await appendEvent(db, systemClock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type: 'trip.changed', data: { Id: `trip_${i}` } });
    }

    const first = startWorker();
    await until(() => receiver.requests.length >= 40, 30_000);
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    const beforeRestart = receiver.requests.length;
    expect(beforeRestart).toBeLessThan(EVENTS);

    startWorker();
    const done = async () => {
      const open = await db.selectFrom('webhook_deliveries').select('id').where('state', '<>', 'succeeded').execute();
      const total = await db.selectFrom('webhook_deliveries').select('id').execute();
      return total.length === EVENTS && open.length === 0;
    };
    await until(done, 45_000);

    const idsByEvent = new Map<string, Set<string>>();
    for (const request of receiver.requests) {
      const payload = verifyDelivery(secret, request, systemClock) as { data: { Id: string } };
      const ids = idsByEvent.get(payload.data.Id) ?? new Set<string>();
      ids.add(String(request.headers['webhook-id']));
      idsByEvent.set(payload.data.Id, ids);
    }
    expect(idsByEvent.size).toBe(EVENTS);
    // Attempts in flight at the kill were received but never recorded: they came again.
    expect(receiver.requests.length).toBeGreaterThan(EVENTS);
    for (const ids of idsByEvent.values()) expect(ids.size).toBe(1);
    const outbox = await db.selectFrom('outbox').select('id').where('dispatched_at', 'is', null).execute();
    expect(outbox).toEqual([]);
  },
  90_000,
);
