import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../core/config.js';
import { createMigrator } from '../db/migrate.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { startTestApp, type TestApp } from './harness.js';
import { createTestDatabase } from './support/database.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';

describe('DATABASE_STATEMENT_CACHE', () => {
  it('defaults to 200 and takes a whole number from 0 to 10000', () => {
    expect(loadConfig({}).databaseStatementCache).toBe(200);
    expect(loadConfig({ DATABASE_STATEMENT_CACHE: '0' }).databaseStatementCache).toBe(0);
    expect(loadConfig({ DATABASE_STATEMENT_CACHE: '10000' }).databaseStatementCache).toBe(10_000);
    for (const bad of ['-1', '10001', '2.5', 'many']) {
      expect(() => loadConfig({ DATABASE_STATEMENT_CACHE: bad }), bad).toThrow(/DATABASE_STATEMENT_CACHE must be a whole number from 0 to 10000/);
    }
  });
});

describe('DATABASE_POOL_SIZE', () => {
  it('defaults to 10 and takes a whole number from 1 to 1000', () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '1' }).databasePoolSize).toBe(1);
    expect(loadConfig({ DATABASE_POOL_SIZE: '1000' }).databasePoolSize).toBe(1000);
  });

  it('refuses anything else at start-up with a message naming the variable', () => {
    for (const bad of ['0', '1001', '-3', '2.5', 'ten', '1e2']) {
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad }), bad).toThrow(ConfigError);
      expect(() => loadConfig({ DATABASE_POOL_SIZE: bad }), bad).toThrow(/DATABASE_POOL_SIZE must be a whole number from 1 to 1000/);
    }
  });
});

describe('GET /readyz', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('is 200 when the database answers and has run every migration', async () => {
    const response = await t.api('/readyz');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).toEqual({ Status: 'ready', Database: 'ok', Migrations: 'current' });
    expect((await t.api('/readyz')).status).toBe(200);
  });

  it('is 503 naming the pending migration on a database one migration short, and runs none', async () => {
    const database = await createTestDatabase();
    const short = await startTestApp({ database });
    try {
      // After start-up (the fixture needs every table), and before the first readiness check.
      const migrator = await createMigrator(database.db);
      const { error, results } = await migrator.migrateDown();
      expect(error).toBeUndefined();
      const undone = results![0]!.migrationName;
      const response = await short.api('/readyz');
      expect(response.status).toBe(503);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.body).toMatchObject({
        Status: 503,
        Database: 'ok',
        Migrations: 'pending',
        PendingMigrations: [undone],
      });
      expect(response.body.Detail).toContain('npm run migrate');
      // Still pending: the check never migrates.
      const again = await migrator.getMigrations();
      expect(again.find((m) => m.name === undone)?.executedAt).toBeUndefined();
      // /healthz only asks whether the database answers.
      expect((await short.api('/healthz')).status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('is 503 when the database does not answer', async () => {
    const database = await createTestDatabase();
    const down = await startTestApp({ database });
    await database.db.destroy();
    try {
      const response = await down.api('/readyz');
      expect(response.status).toBe(503);
      expect(response.body).toMatchObject({ Database: 'unreachable' });
    } finally {
      await down.app.close();
    }
  });

  it('answers other methods with 405', async () => {
    const response = await t.api('/readyz', { method: 'POST', body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('Prometheus metrics (METRICS_PORT)', () => {
  let t: TestApp;
  let metricsUrl: string;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_PORT: '0' } });
    metricsUrl = `http://127.0.0.1:${(t.app.metrics!.address() as AddressInfo).port}/metrics`;
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const scrape = async () => {
    const response = await fetch(metricsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    return response.text();
  };
  /** The value of the first sample whose line holds every fragment; 0 when there is none. */
  const sample = (text: string, ...fragments: string[]) => {
    const line = text.split('\n').find((l) => !l.startsWith('#') && fragments.every((f) => l.includes(f)));
    return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
  };

  it('counts requests by route template and status, with latency histograms, and no ids in labels', async () => {
    const before = await scrape();
    const route = 'route="/api/p/v{version}/loads/{loadNumber}"';
    for (let i = 0; i < 3; i++) expect((await t.api('/api/p/v1.0/loads/L-1001', { as: 'prairie-integration' })).status).toBe(200);
    expect((await t.api('/api/p/v1.0/loads/L-NOPE-42', { as: 'prairie-integration' })).status).toBe(404);
    expect((await t.api('/api/p/v1.0/nothing/here/77')).status).toBe(404);
    expect((await t.api('/healthz')).status).toBe(200);
    expect((await t.api('/openapi/v1.0.json')).status).toBe(200);
    const after = await scrape();

    const count = (text: string, status: string) => sample(text, 'waybill_http_request_duration_seconds_count{', route, 'method="GET"', `status="${status}"`);
    expect(count(after, '200') - count(before, '200')).toBe(3);
    expect(count(after, '404') - count(before, '404')).toBe(1);
    const bucket = (text: string) => sample(text, 'waybill_http_request_duration_seconds_bucket{', 'le="+Inf"', route, 'status="200"');
    expect(bucket(after) - bucket(before)).toBe(3);
    expect(sample(after, 'waybill_http_request_duration_seconds_sum{', route, 'status="200"')).toBeGreaterThan(0);
    expect(sample(after, 'waybill_http_request_duration_seconds_count{', 'route="/healthz"')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'waybill_http_request_duration_seconds_count{', 'route="/openapi/v1.0.json"')).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'waybill_http_request_duration_seconds_count{', 'route="unmatched"')).toBeGreaterThanOrEqual(1);
    expect(after).not.toContain('L-1001');
    expect(after).not.toContain('L-NOPE-42');
    expect(after).not.toContain('/nothing/here');
  });

  it('measures position batches', async () => {
    const before = sample(await scrape(), 'waybill_position_batch_size_count');
    const posted = await t.api('/api/p/v1.0/assets/drv_cara/locations', {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' }, RecordedAt: '2026-11-22T11:58:00Z' },
    });
    expect(posted.status, posted.text).toBe(201);
    const after = await scrape();
    expect(sample(after, 'waybill_position_batch_size_count') - before).toBe(1);
    expect(sample(after, 'waybill_position_batch_size_sum')).toBeGreaterThanOrEqual(1);
  });

  it('reports the outbox lag and pending deliveries, and counts delivery attempts by outcome', async () => {
    receiver.respond = (request, res) => {
      const body = JSON.parse(request.body);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body.challenge ? JSON.stringify({ challenge: body.challenge }) : '{}');
    };
    const created = await t.api('/api/p/v1.0/webhooks', {
      method: 'POST',
      as: 'prairie-integration',
      body: { Name: 'metrics', Url: `${receiver.url}/hooks`, SubsidiaryId: 'sub_kc', EventTypes: ['document.*'] },
    });
    expect(created.status, created.text).toBe(201);
    await t.api(`/api/p/v1.0/webhooks/${created.body.Id}/verify`, { method: 'POST', as: 'prairie-integration' });
    const patched = await t.api('/api/p/v1.0/loads/L-1001/documents/doc_1001_bol', {
      method: 'PATCH',
      as: 'prairie-integration',
      body: { DocumentType: 'Proof of Delivery' },
    });
    expect(patched.status, patched.text).toBe(200);

    // The event waits in the outbox: its age is the lag (the clock moved on since it was written).
    t.clock.advance(30_000);
    const waiting = await scrape();
    expect(sample(waiting, 'waybill_outbox_oldest_undispatched_age_seconds')).toBeGreaterThanOrEqual(30);

    const successes = sample(waiting, 'waybill_webhook_delivery_attempts_total{', 'outcome="success"');
    await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick();
    const delivered = await scrape();
    expect(sample(delivered, 'waybill_outbox_oldest_undispatched_age_seconds')).toBe(0);
    expect(sample(delivered, 'waybill_webhook_deliveries_pending')).toBe(0);
    expect(sample(delivered, 'waybill_webhook_delivery_attempts_total{', 'outcome="success"') - successes).toBe(1);
  });

  it('is not served on the API port, and only GET /metrics is served on its own port', async () => {
    expect((await t.api('/metrics')).status).toBe(404);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: 'POST' })).status).toBe(405);
  });

  it('is off without METRICS_PORT', async () => {
    const plain = await startTestApp();
    try {
      expect(plain.app.metrics).toBeNull();
    } finally {
      await plain.close();
    }
  });
});
