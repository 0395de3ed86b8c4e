import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createDb } from '../db/create-db.js';
import { SECRET_KEY } from './harness.js';
import { bannerUrls, builtBin, ROOT, scratchDatabase, serverEnv, startProcess, type ScratchDatabase, type ServerProcess } from './support/server-process.js';

const SLOW = 120_000;
const DEMO_CLIENT = { id: 'prairie-integration', secret: 'demo-secret-prairie-all-0001' };
const AUDIENCE = 'https://api.freight.local';

let server: ServerProcess | undefined;
let database: ScratchDatabase | undefined;
afterEach(async () => {
  await server?.stop();
  await database?.dispose();
  server = undefined;
  database = undefined;
});

/**
 * The server on an empty database of its own: `npm start` as an operator runs it (bin/start.ts
 * under tsx), or, where the test is about what the server does, not about the command, the
 * built bin/start.js (which starts in a fraction of the time).
 */
async function start(env: Record<string, string>, as: 'npm start' | 'built' = 'built'): Promise<{ output: string; apiUrl: string; authUrl: string }> {
  database = await scratchDatabase();
  const args = as === 'npm start' ? ['--import', 'tsx', 'bin/start.ts'] : builtBin('start');
  server = startProcess(process.execPath, args, serverEnv(database.url, {
    LOG_LEVEL: 'warn',
    API_AUDIENCE: AUDIENCE,
    SEED: '',
    ...env,
  }));
  const output = await server.waitFor(/Waybill is running[\s\S]*\n\n[\s\S]*\n\n/);
  return { output, ...bannerUrls(output) };
}

async function tokenStatus(authUrl: string, client: { id: string; secret: string }): Promise<number> {
  const response = await fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: client.id, client_secret: client.secret, audience: AUDIENCE, grant_type: 'client_credentials' }),
  });
  await response.text();
  return response.status;
}

describe('the server with NODE_ENV=production', () => {
  it('loads no demo data into an empty database and says how to create a tenant and a client', async () => {
    const { output, authUrl } = await start({ NODE_ENV: 'production' });
    expect(output).toContain('no demo data was loaded');
    expect(output).toContain('npm run admin -- tenant:create');
    expect(output).toContain('npm run admin -- client:create');
    expect(output).not.toContain(DEMO_CLIENT.secret);
    expect(output).not.toContain('export TOKEN=');
    expect(await tokenStatus(authUrl, DEMO_CLIENT)).toBe(401);
    expect(await database!.db.selectFrom('tenants').select('id').execute()).toEqual([]);
    expect(await database!.db.selectFrom('api_clients').select('client_id').execute()).toEqual([]);
  }, SLOW);

  it('loads the fixture SEED names, and prints none of its secrets', async () => {
    const { output, authUrl } = await start({ NODE_ENV: 'production', SEED: join(ROOT, 'fixtures', 'demo.json') });
    expect(await tokenStatus(authUrl, DEMO_CLIENT)).toBe(200);
    expect(output).not.toContain(DEMO_CLIENT.secret);
    expect((await database!.db.selectFrom('tenants').select('id').execute()).length).toBeGreaterThan(0);
  }, SLOW);
});

describe('npm start in development (the sandbox)', () => {
  it('loads the demo data and prints one line that stores a working token in TOKEN (npm start as the README has it)', async () => {
    const { output, apiUrl } = await start({ NODE_ENV: 'development' }, 'npm start');
    const line = /^ {2}(export TOKEN=.*)$/m.exec(output)?.[1];
    expect(line, output).toBeDefined();
    // The exact banner line, then a call with the token it stored.
    const script = `${line}\ncurl -s -o /dev/null -w '%{http_code}' ${apiUrl}/api/p/v1.0/subsidiaries -H "Authorization: Bearer $TOKEN"`;
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { cwd: ROOT });
    expect(stdout).toBe('200');
  }, SLOW);
});

/** A demo token straight from the token host. */
async function demoToken(authUrl: string): Promise<string> {
  const response = await fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: DEMO_CLIENT.id, client_secret: DEMO_CLIENT.secret, audience: AUDIENCE, grant_type: 'client_credentials' }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}

describe('the server in development: the sandbox activity (bin/sandbox-activity.ts)', () => {
  it('gives in-transit trucks positions, a geofence visit with detention, notes and an invoice, and the demo subscriptions delivered and failed attempts', async () => {
    // At info level: the sandbox's account of the geofence visit is a line a newcomer reads.
    const { apiUrl, authUrl } = await start({ NODE_ENV: 'development', LOG_LEVEL: 'info' });
    const token = await demoToken(authUrl);
    // The demo client may send 10 requests a second (docs/api-rules.md#rate-limits), and this
    // test reads faster than that when the machine is quick: on a 429 it waits the Retry-After
    // and asks again, as an integrator does.
    const get = async (path: string): Promise<{ status: number; body: any }> => {
      const response = await fetch(`${apiUrl}/api/p/v1.0${path}`, { headers: { authorization: `Bearer ${token}` } });
      if (response.status === 429) {
        await new Promise((resolve) => setTimeout(resolve, Number(response.headers.get('retry-after') ?? 1) * 1000));
        return get(path);
      }
      return { status: response.status, body: (await response.json()) as any };
    };
    // trp_1108_a (generated, InTransit) rides trk_103: the trail's last reading is the story's now.
    const position = await get('/assets/trk_103/locations/latest');
    expect(position.status).toBe(200);
    expect(position.body).toMatchObject({ TripId: 'trp_1108_a', RecordedAt: '2026-11-22T12:00:00.000Z' });
    // The arriving trucks reached their delivery; dispatched trips got a seal.
    const arrived = await get('/trips/trp_1110_a');
    expect(arrived.body.Stops.at(-1)).toMatchObject({ Status: 'Arrived', ArrivedAt: '2026-11-22T11:40:00.000Z' });
    const dispatched = await get('/trips/trp_2001_a');
    expect(dispatched.body.References.map((r: any) => r.Name)).toContain('Seal Number');
    // The back office's own writes on that first start: a Public and an Internal note on each
    // in-transit load, one delivered load invoiced through POST /invoices' procedure (the next
    // number after the fixture's INV-2001), and loads found by the ExternalIds the demo gives.
    const notes = await get('/loads/L-1108/notes');
    expect(notes.body.Items.map((note: any) => note.Access).sort()).toEqual(['Internal', 'Public']);
    const invoices = (await get('/invoices?PageSize=100')).body.Items as any[];
    const made = invoices.find((invoice) => invoice.Number === 'INV-2002');
    expect(made).toMatchObject({ Status: 'Open' });
    expect(made.LineItems.length).toBeGreaterThan(0);
    const found = await get('/loads?ExternalId=shipperedi:ORD-1101');
    expect(found.body.Items.map((load: any) => load.LoadNumber)).toEqual(['L-1101']);

    // trk_113 (trp_2106_a) replays a visit to its Dallas delivery instead of a trail: its
    // positions alone arrive and depart the stop, and Great Plains' 30 free minutes and
    // DetentionRate (fixtures/demo-base.json) make the wait a billed detention.
    const visited = (await get('/trips/trp_2106_a')).body;
    expect(visited.Status).toBe('Delivered');
    const fenced = visited.Stops.find((stop: any) => stop.Id === 'stp_2106_2');
    expect(fenced).toMatchObject({
      Status: 'Completed',
      ArrivedAt: '2026-11-22T10:05:00.000Z',
      ArrivalSource: 'Geofence',
      DepartedAt: '2026-11-22T11:40:00.000Z',
      DepartureSource: 'Geofence',
      Detention: { StartedAt: '2026-11-22T10:35:00.000Z', EndedAt: '2026-11-22T11:40:00.000Z', Minutes: 65, FreeMinutes: 30 },
    });
    expect(fenced.Detention.AccessorialId).toEqual(expect.any(String));
    const billed = (await get(`/accessorials/customer/${fenced.Detention.AccessorialId}`)).body;
    // 65 minutes are 1.25 hours at 75 an hour.
    expect(billed).toMatchObject({ CustomerId: 'cus_plains_brokerage', TripId: 'trp_2106_a', Quantity: 1.25, Amount: { Amount: 93.75 }, ExternalId: 'detention:stp_2106_2' });
    const stopEvents = (await get('/events?Types=stop.*&PageSize=500')).body.Items as any[];
    // Each once, in the feed's (commit) order: the arrival is recorded after its free time ran
    // out, so its write starts the detention, after stop.arrived; the departure ends it.
    expect(stopEvents.filter((event) => event.data.StopId === 'stp_2106_2').map((event) => event.type)).toEqual([
      'stop.arrived',
      'stop.detention.started',
      'stop.departed',
      'stop.detention.ended',
    ]);
    // The whole output so far: the log line may be flushed after the banner the start waited for.
    expect(server!.output()).toContain(`sandbox: truck trk_113 arrived at stp_2106_2 (Dallas, TX) by geofence at 10:05 UTC, detention 65 min billed as ${fenced.Detention.AccessorialId} for 93.75, departed 11:40 UTC (geofence)`);

    // The dispatcher delivers the trip.changed events of those writes: the sandbox's receiver
    // takes them (refusing one first attempt in three), the unreachable Dallas URL fails.
    const statuses = async (webhookId: string) =>
      ((await get(`/webhooks/${webhookId}/delivery-logs?PageSize=100`)).body.Items as any[]).map((item) => item.Status);
    const deadline = Date.now() + 60_000;
    let received: string[] = [];
    let refused: string[] = [];
    while (Date.now() < deadline) {
      received = await statuses('wh_kc_sandbox');
      refused = await statuses('wh_dal_tms');
      if (received.includes('success') && received.includes('failure') && refused.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(received).toContain('success');
    expect(received).toContain('failure');
    expect(refused.length).toBeGreaterThan(0);
    expect(new Set(refused)).toEqual(new Set(['failure']));
  }, SLOW);
});

describe('npm run sandbox:reset', () => {
  it('rebuilds the sandbox SQLite database from the demo data, and refuses anything else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-sandbox-'));
    const env = { DATABASE_URL: `sqlite:${join(dir, 'freight.db')}`, SECRET_KEY: SECRET_KEY.toString('utf8'), NODE_ENV: 'development' };
    try {
      const reset = async (extra: Record<string, string> = {}) => {
        const run = startProcess('npm', ['run', '--silent', 'sandbox:reset'], { ...env, ...extra });
        const code = await new Promise<number | null>((resolve) => run.child.on('exit', resolve));
        return { code, output: run.output() };
      };
      const first = await reset();
      expect(first.code, first.output).toBe(0);
      const db = createDb(env.DATABASE_URL);
      await db.insertInto('tenants').values({ id: 'tn_scratch', name: 'Scratch' } as any).execute().catch(async () => {
        // Other columns may be required: any change to the data will do.
        await db.deleteFrom('api_clients').where('client_id', '=', DEMO_CLIENT.id).execute();
      });
      await db.destroy();

      const second = await reset();
      expect(second.code, second.output).toBe(0);
      const after = createDb(env.DATABASE_URL);
      try {
        expect(await after.selectFrom('tenants').select('id').where('id', '=', 'tn_scratch').execute()).toEqual([]);
        expect(await after.selectFrom('api_clients').select('client_id').where('client_id', '=', DEMO_CLIENT.id).execute()).toHaveLength(1);
      } finally {
        await after.destroy();
      }

      const production = await reset({ NODE_ENV: 'production' });
      expect(production.code).toBe(1);
      expect(production.output).toContain('NODE_ENV=production');
      const postgres = await reset({ DATABASE_URL: 'postgres://nobody:secret@127.0.0.1:1/none' });
      expect(postgres.code).toBe(1);
      expect(postgres.output).not.toContain('secret');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, SLOW);
});
