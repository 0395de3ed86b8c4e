import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../core/crypto/secret-box.js';
import { appendEvent } from '../core/events/outbox.repository.js';
import { generateWebhookSecret } from '../core/webhooks/signing.js';
import { Dispatcher } from '../workers/dispatcher.js';
import { SECRET_KEY, startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { startReceiver, type Receiver } from './support/webhook-receiver.js';
import { webhookFixture } from './support/webhook-fixture.js';

let t: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  t = await startTestApp({ fixture: webhookFixture() });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const base = '/api/p/v1.0/webhooks';
const NOW = Date.parse('2026-11-22T12:00:00Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

async function hook(id: string, values: { enabled?: number; consecutive_failures?: number; subsidiary?: string } = {}) {
  const now = new Date(NOW).toISOString();
  await t.db
    .insertInto('webhooks')
    .values({
      id,
      tenant_id: 'tn_prairie',
      subsidiary_id: values.subsidiary ?? 'sub_kc',
      name: `Hook ${id}`,
      url: `${receiver.url}/${id}`,
      event_types: JSON.stringify(['trip.*']),
      secret_encrypted: encryptSecret(SECRET_KEY, 'webhook-secret', generateWebhookSecret()),
      previous_secret_encrypted: null,
      previous_secret_expires_at: null,
      enabled: values.enabled ?? 1,
      status: 'Active',
      consecutive_failures: values.consecutive_failures ?? 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

interface Seed {
  status: 'success' | 'failure' | 'timeout' | 'skipped';
  ago: number;
  duration?: number;
  type?: string;
  http?: number | null;
  reason?: string | null;
  body?: string | null;
}

let seq = 0;
async function attempts(webhookId: string, seeds: Seed[]) {
  const rows = seeds.map((s) => {
    seq += 1;
    return {
      id: `att_${String(seq).padStart(8, '0')}`,
      tenant_id: 'tn_prairie',
      delivery_id: `msg_${webhookId}_${seq}`,
      event_id: `evt_${webhookId}_${seq}`,
      webhook_id: webhookId,
      customer_id: null,
      event_type: s.type ?? 'trip.changed',
      attempt: 1,
      status: s.status,
      http_status: s.http === undefined ? (s.status === 'success' ? 200 : s.status === 'failure' ? 500 : null) : s.http,
      duration_ms: s.status === 'skipped' ? 0 : (s.duration ?? 100),
      reason: s.reason === undefined ? (s.status === 'success' ? null : `${s.status} reason`) : s.reason,
      response_body: s.body ?? null,
      attempted_at: new Date(NOW - s.ago).toISOString(),
    };
  });
  for (let i = 0; i < rows.length; i += 500) await t.db.insertInto('webhook_delivery_attempts').values(rows.slice(i, i + 500)).execute();
}

/** RFC 4180 parsing, to check the export as a spreadsheet would read it. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  expect(field).toBe('');
  expect(row).toEqual([]);
  return rows;
}

for (const [suffix, path] of [
  ['/delivery-logs', '/delivery-logs'],
  ['/delivery-logs/export', '/delivery-logs/export'],
  ['/health', '/health'],
] as const) {
  describeAuthCases(() => t, {
    method: 'GET',
    path: `${base}/wh_kc_ops${suffix}`,
    scope: 'webhook:read',
    otherTenantPath: `${base}/wh_harbor_ops${path}`,
    missingPath: `${base}/wh_nowhere${path}`,
    otherSubsidiary: { as: 'sub_kc-all', path: `${base}/wh_dal_ops${path}` },
  });
}

describe('GET /webhooks/{webhookId}/delivery-logs', () => {
  beforeAll(async () => {
    await hook('wh_logs');
    await attempts('wh_logs', [
      { status: 'success', ago: 1 * MINUTE, type: 'trip.changed', body: 'ok' },
      { status: 'failure', ago: 2 * MINUTE, type: 'trip.status.changed' },
      { status: 'timeout', ago: 3 * HOUR, type: 'trip.changed' },
      { status: 'skipped', ago: 2 * DAY, type: 'load.changed' },
      { status: 'success', ago: 10 * DAY, type: 'trip.changed' },
    ]);
  });

  it('lists attempts newest first in the log shape', async () => {
    const response = await t.api(`${base}/wh_logs/delivery-logs`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    expect(response.body.Total).toBe(5);
    expect(response.body.Items.map((i: any) => i.Status)).toEqual(['success', 'failure', 'timeout', 'skipped', 'success']);
    expect(response.body.Items[0]).toEqual({
      Id: expect.stringMatching(/^att_/),
      DeliveryId: expect.stringMatching(/^msg_/),
      EventId: expect.stringMatching(/^evt_/),
      WebhookId: 'wh_logs',
      EventType: 'trip.changed',
      Attempt: 1,
      Status: 'success',
      HttpStatus: 200,
      DurationMs: 100,
      Reason: null,
      ResponseBody: 'ok',
      Timestamp: new Date(NOW - MINUTE).toISOString(),
    });
  });

  it.each([
    ['Status=failure', ['failure']],
    ['EventType=trip.changed', ['success', 'timeout', 'success']],
    [`From=${new Date(NOW - DAY).toISOString()}`, ['success', 'failure', 'timeout']],
    [`To=${new Date(NOW - 3 * HOUR).toISOString()}`, ['timeout', 'skipped', 'success']],
    ['From=2026-11-20T00:00:00&To=2026-11-22T09:00:00Z', ['timeout', 'skipped']],
    ['Status=success&EventType=trip.changed&From=2026-11-21T00:00:00Z', ['success']],
  ])('filters with %s', async (query, statuses) => {
    const response = await t.api(`${base}/wh_logs/delivery-logs?${query}`, { as: 'tn_prairie-all' });
    expect(response.status, response.text).toBe(200);
    expect(response.body.Items.map((i: any) => i.Status)).toEqual(statuses);
    expect(response.body.Total).toBe(statuses.length);
  });

  it('pages', async () => {
    const response = await t.api(`${base}/wh_logs/delivery-logs?Page=1&PageSize=2`, { as: 'tn_prairie-all' });
    expect(response.body).toMatchObject({ Page: 1, PageSize: 2, Total: 5 });
    expect(response.body.Items.map((i: any) => i.Status)).toEqual(['timeout', 'skipped']);
  });

  it('keeps Total exact from its counters as attempts arrive in batches, change status and go', async () => {
    await hook('wh_counts');
    const totals = async () => {
      const read = async (query: string) => (await t.api(`${base}/wh_counts/delivery-logs?PageSize=1${query}`, { as: 'tn_prairie-all' })).body.Total;
      return { all: await read(''), failures: await read('&Status=failure'), successes: await read('&Status=success') };
    };
    const counted = async () => {
      const rows = await t.db.selectFrom('webhook_delivery_attempts').select(['status']).where('webhook_id', '=', 'wh_counts').execute();
      const of = (status: string) => rows.filter((row) => row.status === status).length;
      return { all: rows.length, failures: of('failure'), successes: of('success') };
    };
    expect(await totals()).toEqual({ all: 0, failures: 0, successes: 0 });
    // 1,200 attempts in statements of 500, as the attempt log writes them.
    await attempts('wh_counts', Array.from({ length: 1200 }, (_, k) => ({ status: k % 3 === 0 ? 'failure' : 'success', ago: k * MINUTE })));
    expect(await totals()).toEqual(await counted());
    expect((await totals()).all).toBe(1200);
    await t.db.updateTable('webhook_delivery_attempts').set({ status: 'timeout' }).where('webhook_id', '=', 'wh_counts').where('status', '=', 'failure').where('attempted_at', '<', new Date(NOW - 600 * MINUTE).toISOString()).execute();
    await t.db.updateTable('webhook_delivery_attempts').set({ webhook_id: 'wh_logs' }).where('id', '=', (await t.db.selectFrom('webhook_delivery_attempts').select('id').where('webhook_id', '=', 'wh_counts').orderBy('id').limit(1).executeTakeFirstOrThrow()).id).execute();
    expect(await totals()).toEqual(await counted());
    await t.db.deleteFrom('webhook_delivery_attempts').where('webhook_id', '=', 'wh_counts').where('status', '=', 'success').where('attempted_at', '<', new Date(NOW - 300 * MINUTE).toISOString()).execute();
    expect(await totals()).toEqual(await counted());
    expect((await totals()).all).toBeLessThan(1200);
    // The attempt moved to wh_logs counts there; put it back so the other tests see their five.
    await t.db.deleteFrom('webhook_delivery_attempts').where('webhook_id', '=', 'wh_logs').where('delivery_id', 'like', 'msg_wh_counts_%').execute();
    expect((await t.api(`${base}/wh_logs/delivery-logs`, { as: 'tn_prairie-all' })).body.Total).toBe(5);
  });

  it.each([
    ['Status=failed', 'Status'],
    ['From=yesterday', 'From'],
    ['To=2026-13-01T00:00:00Z', 'To'],
    ['From=2026-11-22T00:00:00Z&To=2026-11-21T00:00:00Z', 'To'],
    ['PageSize=0', 'PageSize'],
    ['Color=red', 'Color'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const response = await t.api(`${base}/wh_logs/delivery-logs?${query}`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual([field]);
  });

  it('shows the attempts the dispatcher recorded', async () => {
    await hook('wh_live');
    receiver.respond = (_request, res) => {
      res.writeHead(502);
      res.end('bad gateway');
    };
    const event = await appendEvent(t.db, t.clock, { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', type: 'trip.changed', data: { Id: 'trip_1' } });
    await new Dispatcher({ db: t.db, config: t.config, clock: t.clock }).tick();
    const response = await t.api(`${base}/wh_live/delivery-logs`, { as: 'tn_prairie-all' });
    expect(response.body.Items).toEqual([
      expect.objectContaining({ Status: 'failure', HttpStatus: 502, Reason: 'The receiver answered HTTP 502.', ResponseBody: 'bad gateway', Attempt: 1 }),
    ]);
    const request = receiver.requests.find((r) => r.path === '/wh_live');
    // The webhook-id is the event's id (EventId); DeliveryId is the delivery to this subscription.
    expect(request!.headers['webhook-id']).toBe(event);
    expect(response.body.Items[0].EventId).toBe(event);
    const delivery = await t.db.selectFrom('webhook_deliveries').select('id').where('webhook_id', '=', 'wh_live').executeTakeFirstOrThrow();
    expect(response.body.Items[0].DeliveryId).toBe(delivery.id);
  });
});

describe('GET /webhooks/{webhookId}/delivery-logs/export', () => {
  beforeAll(async () => {
    await hook('wh_export');
    const seeds: Seed[] = [];
    for (let i = 0; i < 120; i++) seeds.push({ status: i % 3 === 0 ? 'failure' : 'success', ago: (i + 1) * MINUTE });
    seeds[0] = { status: 'failure', ago: 30_000, reason: 'He said "no", then\r\nhung up', body: 'a,b' };
    await attempts('wh_export', seeds);
  });

  const exportOf = (query = '', headers: Record<string, string> = {}) =>
    t.api(`${base}/wh_export/delivery-logs/export${query}`, { as: 'tn_prairie-all', headers });

  it.each([
    ['?Format=csv', {}, 'csv'],
    ['?Format=json', { accept: 'text/csv' }, 'json'],
    ['?Format=csv', { accept: 'application/json' }, 'csv'],
    ['', { accept: 'text/csv' }, 'csv'],
    ['', { accept: 'application/csv' }, 'csv'],
    ['', { accept: 'application/json' }, 'json'],
    ['', { accept: 'application/vnd.waybill+json' }, 'json'],
    ['', { accept: 'text/csv;q=0.4, application/json' }, 'json'],
    ['', { accept: 'application/json;q=0.2, text/csv;q=0.9' }, 'csv'],
    ['', { accept: 'text/html, */*' }, 'json'],
    ['', {}, 'json'],
  ])('resolves %s with %j to %s', async (query, headers, format) => {
    const response = await exportOf(query, headers);
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('content-type')).toBe(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="delivery-logs-wh_export.${format}"`);
  });

  it('refuses another Format value', async () => {
    const response = await exportOf('?Format=xml');
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['Format']);
  });

  it('writes RFC 4180 CSV with a header row, the list order and its fields', async () => {
    const response = await exportOf('?Format=csv&PageSize=100');
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('content-length')).toBeNull();
    const rows = parseCsv(response.text);
    expect(rows[0]).toEqual(['Id', 'DeliveryId', 'EventId', 'WebhookId', 'EventType', 'Attempt', 'Status', 'HttpStatus', 'DurationMs', 'Reason', 'ResponseBody', 'Timestamp']);
    expect(rows).toHaveLength(101);
    const list = await t.api(`${base}/wh_export/delivery-logs?PageSize=100`, { as: 'tn_prairie-all' });
    const asText = (v: unknown) => (v === null ? '' : String(v));
    expect(rows.slice(1)).toEqual(list.body.Items.map((item: any) => Object.values(item).map(asText)));
    expect(rows[1]![9]).toBe('He said "no", then\r\nhung up');
    expect(rows[1]![10]).toBe('a,b');
    expect(response.text).toContain('"He said ""no"", then\r\nhung up","a,b"');
  });

  it('includes pages 0 through Page: 50 rows by default, (Page + 1) × PageSize otherwise', async () => {
    expect((await exportOf()).body).toHaveLength(50);
    expect((await exportOf('?Page=0&PageSize=7')).body).toHaveLength(7);
    const two = await exportOf('?Page=1&PageSize=10');
    expect(two.body).toHaveLength(20);
    const list = await t.api(`${base}/wh_export/delivery-logs?Page=1&PageSize=10`, { as: 'tn_prairie-all' });
    expect(two.body.slice(10)).toEqual(list.body.Items);
    expect((await exportOf('?Page=5&PageSize=100')).body).toHaveLength(120);
    expect((await exportOf('?PageSize=101')).status).toBe(400);
  });

  it('applies the list filters', async () => {
    const response = await exportOf('?Status=failure&Page=9&PageSize=100&Format=json');
    expect(response.body).toHaveLength(40);
    expect(new Set(response.body.map((r: any) => r.Status))).toEqual(new Set(['failure']));
  });

  it('exports an empty log as a header row or an empty array', async () => {
    expect((await exportOf('?Format=csv&EventType=none')).text).toBe(
      'Id,DeliveryId,EventId,WebhookId,EventType,Attempt,Status,HttpStatus,DurationMs,Reason,ResponseBody,Timestamp\r\n',
    );
    expect((await exportOf('?EventType=none')).text).toBe('[]');
  });

  it('stops at 25,000 rows', async () => {
    await hook('wh_big');
    const seeds: Seed[] = [];
    for (let i = 0; i < 25_050; i++) seeds.push({ status: 'success', ago: i * 1000 });
    await attempts('wh_big', seeds);
    const response = await t.api(`${base}/wh_big/delivery-logs/export?Format=csv&Page=999&PageSize=100`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(200);
    const lines = response.text.split('\r\n');
    expect(lines).toHaveLength(25_002);
    expect(lines.at(-1)).toBe('');
    const json = await t.api(`${base}/wh_big/delivery-logs/export?Page=999&PageSize=100`, { as: 'tn_prairie-all' });
    expect(json.body).toHaveLength(25_000);
    expect(new Set(json.body.map((r: any) => r.Id)).size).toBe(25_000);
  }, 60_000);
});

describe('GET /webhooks/{webhookId}/health', () => {
  const health = (id: string, query = '') => t.api(`${base}/${id}/health${query}`, { as: 'tn_prairie-all' });

  it('reports the metrics of the last 7 days by default', async () => {
    await hook('wh_health', { consecutive_failures: 1 });
    await attempts('wh_health', [
      { status: 'success', ago: HOUR, duration: 120, type: 'trip.changed' },
      { status: 'success', ago: 2 * HOUR, duration: 80 },
      { status: 'failure', ago: 3 * DAY, duration: 300 },
      { status: 'timeout', ago: 4 * DAY, duration: 10_000 },
      { status: 'skipped', ago: 5 * DAY },
      { status: 'success', ago: 6 * DAY, duration: 100 },
      { status: 'failure', ago: 8 * DAY, duration: 50 },
    ]);
    const response = await health('wh_health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      WebhookId: 'wh_health',
      WebhookName: 'Hook wh_health',
      Period: { Days: 7, StartDate: '2026-11-15T12:00:00.000Z', EndDate: '2026-11-22T12:00:00.000Z' },
      Metrics: {
        TotalAttempts: 6,
        SuccessCount: 3,
        FailureCount: 1,
        TimeoutCount: 1,
        SkippedCount: 1,
        SuccessRate: 60,
        AvgDurationMs: 2120,
        MaxDurationMs: 10_000,
      },
      ConsecutiveFailures: 1,
      Status: 'Degraded',
      LastDelivery: { Timestamp: new Date(NOW - HOUR).toISOString(), Status: 'success', EventType: 'trip.changed' },
    });
  });

  it('narrows to 1 day and widens to 30; other periods are refused', async () => {
    const one = await health('wh_health', '?Days=1');
    expect(one.body.Period).toEqual({ Days: 1, StartDate: '2026-11-21T12:00:00.000Z', EndDate: '2026-11-22T12:00:00.000Z' });
    expect(one.body.Metrics).toMatchObject({ TotalAttempts: 2, SuccessCount: 2, SuccessRate: 100, AvgDurationMs: 100, MaxDurationMs: 120 });
    expect(one.body.Status).toBe('Healthy');
    const thirty = await health('wh_health', '?Days=30');
    expect(thirty.body.Metrics).toMatchObject({ TotalAttempts: 7, FailureCount: 2 });
    for (const days of ['5', '0', 'seven', '7.5']) {
      const refused = await health('wh_health', `?Days=${days}`);
      expect(refused.status).toBe(400);
      expect(Object.keys(refused.body.Errors)).toEqual(['Days']);
    }
  });

  it('rounds SuccessRate to 2 decimals', async () => {
    await hook('wh_rate');
    await attempts('wh_rate', [
      { status: 'success', ago: HOUR, duration: 1 },
      { status: 'success', ago: HOUR, duration: 1 },
      { status: 'failure', ago: HOUR, duration: 2 },
    ]);
    const response = await health('wh_rate');
    expect(response.body.Metrics).toMatchObject({ SuccessRate: 66.67, AvgDurationMs: 1.33 });
  });

  it.each([
    ['Disabled', { enabled: 0, consecutive_failures: 7 }, [{ status: 'success', ago: HOUR } as Seed]],
    ['NoTraffic', {}, [{ status: 'success', ago: 8 * DAY } as Seed]],
    ['Failing', { consecutive_failures: 5 }, [{ status: 'success', ago: HOUR } as Seed]],
    ['Degraded', { consecutive_failures: 4 }, [...Array(19).fill({ status: 'success', ago: HOUR }), { status: 'failure', ago: HOUR }, { status: 'failure', ago: HOUR }]],
    ['Healthy', { consecutive_failures: 4 }, [...Array(19).fill({ status: 'success', ago: HOUR }), { status: 'failure', ago: HOUR }]],
  ])('answers Status %s', async (status, values, seeds) => {
    const id = `wh_status_${status.toLowerCase()}`;
    await hook(id, values);
    await attempts(id, seeds);
    const response = await health(id);
    expect(response.body.Status).toBe(status);
  });

  it('answers zeros and a null LastDelivery for a subscription without attempts', async () => {
    await hook('wh_quiet');
    const response = await health('wh_quiet');
    expect(response.body.Metrics).toEqual({
      TotalAttempts: 0,
      SuccessCount: 0,
      FailureCount: 0,
      TimeoutCount: 0,
      SkippedCount: 0,
      SuccessRate: 0,
      AvgDurationMs: 0,
      MaxDurationMs: 0,
    });
    expect(response.body.LastDelivery).toBeNull();
    expect(response.body.Status).toBe('NoTraffic');
  });

  it('lets a subsidiary-bound client read its own subscription', async () => {
    await hook('wh_dal_health', { subsidiary: 'sub_dal' });
    expect((await t.api(`${base}/wh_dal_health/health`, { as: 'sub_dal-all' })).status).toBe(200);
    expect((await t.api(`${base}/wh_dal_health/delivery-logs`, { as: 'sub_kc-all' })).status).toBe(404);
  });
});
