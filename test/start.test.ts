import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_KEY } from './harness.js';
import { bannerUrls, ROOT, scratchDatabase, startProcess, type ScratchDatabase, type ServerProcess } from './support/server-process.js';

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

/** `npm start` as an operator runs it (bin/start.ts under tsx), on an empty database of its own. */
async function start(env: Record<string, string>): Promise<{ output: string; apiUrl: string; authUrl: string }> {
  database = await scratchDatabase();
  server = startProcess(process.execPath, ['--import', 'tsx', 'bin/start.ts'], {
    DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    PORT: '0',
    AUTH_PORT: '0',
    SECRET_KEY: SECRET_KEY.toString('utf8'),
    JWT_PRIVATE_KEY: '',
    LOG_LEVEL: 'warn',
    API_AUDIENCE: AUDIENCE,
    SEED: '',
    ...env,
  });
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

describe('npm start with NODE_ENV=production', () => {
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
  it('loads the demo data and prints one line that stores a working token in TOKEN', async () => {
    const { output, apiUrl } = await start({ NODE_ENV: 'development' });
    const line = /^ {2}(export TOKEN=.*)$/m.exec(output)?.[1];
    expect(line, output).toBeDefined();
    // The exact banner line, then a call with the token it stored.
    const script = `${line}\ncurl -s -o /dev/null -w '%{http_code}' ${apiUrl}/api/p/v1.0/subsidiaries -H "Authorization: Bearer $TOKEN"`;
    const { stdout } = await promisify(execFile)('bash', ['-c', script], { cwd: ROOT });
    expect(stdout).toBe('200');
  }, SLOW);
});
