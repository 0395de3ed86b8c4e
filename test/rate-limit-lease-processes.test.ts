import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIENCE, fetchToken, secretOf, testFixture } from './harness.js';
import { testDatabaseKind } from './support/database.js';
import { bannerUrls, builtBin, scratchDatabase, serverEnv, startProcess, type ScratchDatabase, type ServerProcess } from './support/server-process.js';

/**
 * Issue 19: the limits of docs/api-rules.md#rate-limits hold across processes. Two real API processes (`bin/start.ts`,
 * each its own Node process with its own leasing store) on one Postgres database, a burst of
 * concurrent requests of one key spread over both. The windows here are real minutes, so a
 * burst starts only with enough of the current minute left.
 */
const SLOW = 120_000;
const onPostgres = testDatabaseKind() === 'postgres';

interface Api {
  process: ServerProcess;
  apiUrl: string;
  authUrl: string;
}

describe.skipIf(!onPostgres)('two API processes on one Postgres database', () => {
  let database: ScratchDatabase;
  let dir: string;
  const apis: Api[] = [];

  beforeAll(async () => {
    database = await scratchDatabase();
    dir = mkdtempSync(join(tmpdir(), 'waybill-lease-'));
    const fixturePath = join(dir, 'fixture.json');
    writeFileSync(fixturePath, JSON.stringify(testFixture()));
    // One after the other: the first migrates and loads the fixture, the second finds it there.
    for (let i = 0; i < 2; i++) {
      const started = startProcess(process.execPath, builtBin('start'), serverEnv(database.url, {
        LOG_LEVEL: 'warn',
        API_AUDIENCE: AUDIENCE,
        NODE_ENV: 'production',
        SEED: fixturePath,
        RATE_LIMITS: 'on',
        WEBHOOKS: 'off',
      }));
      const output = await started.waitFor(/Waybill is running[\s\S]*\n\n[\s\S]*\n\n/);
      apis.push({ process: started, ...bannerUrls(output) });
    }
  }, SLOW);

  afterAll(async () => {
    for (const api of apis) await api.process.stop();
    await database?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, SLOW);

  /** Waits, if need be, for a minute with at least `seconds` of it left: a burst stays in one window. */
  async function roomInMinute(seconds: number): Promise<void> {
    const left = 60_000 - (Date.now() % 60_000);
    if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
  }

  async function postToken(authUrl: string, clientId: string) {
    const response = await fetch(`${authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: clientId, client_secret: secretOf(clientId), audience: AUDIENCE, grant_type: 'client_credentials' }),
    });
    await response.text();
    return response.status;
  }

  it(
    'token endpoint (30 a minute, leased a request at a time): of 60 concurrent requests over both, exactly 30 pass',
    async () => {
      await roomInMinute(25);
      // Thirty to each process, interleaved; however they are spread, a process leases only
      // for the requests it has (sliceFor), so no unit is left stranded in the other.
      const statuses = await Promise.all(Array.from({ length: 60 }, (_, i) => postToken(apis[i % 2]!.authUrl, 'prairie-integration')));
      expect(statuses.filter((status) => status === 200).length).toBe(30);
      expect(statuses.filter((status) => status === 429).length).toBe(30);
      // Both refuse the rest of the minute.
      for (const api of apis) expect(await postToken(api.authUrl, 'prairie-integration')).toBe(429);
      const row = await database.db.selectFrom('rate_limits').selectAll().where('key', '=', 'oauth-token:prairie-integration').executeTakeFirstOrThrow();
      expect(row.hits).toBe(30);
    },
    SLOW,
  );

  it(
    'GET users/list (5 a minute, then 3 minutes blocked): exactly 5 of a burst pass, and both processes refuse for the one block',
    async () => {
      await roomInMinute(25);
      const token = await fetchToken(apis[0]!.authUrl, 'tn_prairie-all', secretOf('tn_prairie-all'));
      const list = async (api: Api) => {
        const response = await fetch(`${api.apiUrl}/api/p/v1.0/users/list`, { headers: { authorization: `Bearer ${token}` } });
        await response.text();
        return { status: response.status, retryAfter: Number(response.headers.get('retry-after')) };
      };
      const burst = await Promise.all(Array.from({ length: 12 }, (_, i) => list(apis[i % 2]!)));
      expect(burst.filter((answer) => answer.status === 429).length).toBe(7);
      expect(burst.filter((answer) => answer.status !== 429).every((answer) => answer.status === 200)).toBe(true);
      // The block is in the shared row, started once; both processes refuse until it ends.
      const row = await database.db.selectFrom('rate_limits').selectAll().where('key', '=', 'GET users/list:tn_prairie-all').executeTakeFirstOrThrow();
      expect(row.hits).toBe(5);
      const blockEnd = Date.parse(row.blocked_until!);
      expect(blockEnd - Date.now()).toBeGreaterThan(170_000);
      for (const api of apis) {
        const answer = await list(api);
        expect(answer.status).toBe(429);
        expect(Math.abs(answer.retryAfter - Math.ceil((blockEnd - Date.now()) / 1000))).toBeLessThanOrEqual(1);
      }
      // Refusals did not extend it.
      const after = await database.db.selectFrom('rate_limits').select('blocked_until').where('key', '=', 'GET users/list:tn_prairie-all').executeTakeFirstOrThrow();
      expect(after.blocked_until).toBe(row.blocked_until);
    },
    SLOW,
  );
});
