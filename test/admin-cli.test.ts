import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, createSchema, dropSchema, type Db } from '../db/create-db.js';
import { AUDIENCE, postToken, SECRET_KEY, startAuthHost, type AuthHost } from './support/auth-setup.js';
import { testDatabaseKind } from './support/database.js';
import { builtBin } from './support/server-process.js';
import { sendTo } from './support/edi-documents.js';
import { seedPartners } from './support/edi-partners.js';
import { ManualClock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { testFixture } from './harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SLOW = 90_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let databaseUrl: string;
let db: Db;
let cleanup: () => Promise<void>;
let host: AuthHost | undefined;

/** The CLI, built (bin/admin.js in dist/), in its own process, on the same database as the test. */
function admin(...args: string[]): Promise<Run> {
  return runCli(process.execPath, [...builtBin('admin'), ...args]);
}

/** `npm run admin` as an operator runs it (bin/admin.ts under tsx). */
function npmRunAdmin(...args: string[]): Promise<Run> {
  return runCli('npm', ['run', '--silent', 'admin', '--', ...args]);
}

function runCli(command: string, args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, SECRET_KEY: SECRET_KEY.toString('utf8'), JWT_PRIVATE_KEY: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function secretIn(run: Run): string {
  const secret = /^client_secret: (\S+)$/m.exec(run.stdout)?.[1];
  expect(secret, run.stdout + run.stderr).toBeDefined();
  return secret!;
}

const tokenRequest = (clientId: string, clientSecret: string) => ({
  grant_type: 'client_credentials',
  client_id: clientId,
  client_secret: clientSecret,
  audience: AUDIENCE,
});

beforeAll(async () => {
  if (testDatabaseKind() === 'postgres') {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    await createSchema(url, schema);
    // The CLI gets the schema the way any libpq-style client would: a startup option in the URL.
    databaseUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    db = createDb(url, { schema, maxConnections: 2 });
    cleanup = async () => {
      await db.destroy();
      await dropSchema(url, schema);
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'waybill-admin-'));
    databaseUrl = `sqlite:${join(dir, 'a.db')}`;
    db = createDb(databaseUrl);
    cleanup = async () => {
      await db.destroy();
      rmSync(dir, { recursive: true, force: true });
    };
  }
});

afterAll(async () => {
  await host?.close();
  await cleanup();
});

describe('admin CLI', () => {
  it('prints help with the scope catalog (through npm run admin)', async () => {
    const run = await npmRunAdmin('help');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('client:create');
    expect(run.stdout).toContain('key:rotate');
    expect(run.stdout).toContain('webhook:manage');
  }, SLOW);

  it('exits 2 on usage errors', async () => {
    const runs = await Promise.all([
      admin(),
      admin('tenant:destroy'),
      admin('tenant:create', '--id', 'tn_x'),
      admin('tenant:list', '--bogus', '1'),
      admin('client:revoke', 'extra-positional'),
    ]);
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/error: /);
    }
  }, SLOW);

  it('creates a tenant and a subsidiary, refusing duplicates and unknown tenants', async () => {
    const created = await admin('tenant:create', '--id', 'tn_cli', '--name', 'CLI Freight', '--plan', 'HosEta');
    expect(created.code, created.stderr).toBe(0);
    const [again, gold, tenants] = await Promise.all([
      admin('tenant:create', '--id', 'tn_cli', '--name', 'Again'),
      admin('tenant:create', '--id', 'tn_gold', '--name', 'Gold', '--plan', 'Gold'),
      admin('tenant:list'),
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already exists');
    expect(gold.code).toBe(2);
    expect(tenants.stdout).toContain('tn_cli\tHosEta\tCLI Freight');

    expect((await admin('subsidiary:create', '--tenant', 'tn_cli', '--id', 'sub_cli', '--name', 'CLI East')).code).toBe(0);
    const [unknownTenant, subsidiaries] = await Promise.all([
      admin('subsidiary:create', '--tenant', 'tn_none', '--id', 'sub_x', '--name', 'X'),
      admin('subsidiary:list', '--tenant', 'tn_cli'),
    ]);
    expect(unknownTenant.code).toBe(1);
    expect(subsidiaries.stdout).toContain('sub_cli\tCLI East');
  }, SLOW);

  it('creates a client whose printed secret gets a token from the token host', async () => {
    const run = await admin(
      'client:create', '--tenant', 'tn_cli', '--id', 'cli-client', '--subsidiary', 'sub_cli',
      '--scopes', 'load:read trip:read', '--name', 'CLI app',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('not shown again');
    const secret = secretIn(run);

    host = await startAuthHost({ db });
    // The CLI works in real time; so does this host from here on.
    host.clock.set(new Date());
    const answer = await postToken(host.url, tokenRequest('cli-client', secret));
    expect(answer.status).toBe(200);
    expect(answer.body.scope).toBe('load:read trip:read');
    const claims = JSON.parse(Buffer.from(answer.body.access_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ tid: 'tn_cli', sid: 'sub_cli', azp: 'cli-client' });
  }, SLOW);

  it('refuses unknown scopes, foreign subsidiaries and taken client ids', async () => {
    const [badScope, foreign, taken] = await Promise.all([
      admin('client:create', '--tenant', 'tn_cli', '--id', 'c2', '--scopes', 'load:read load:write'),
      admin('client:create', '--tenant', 'tn_cli', '--id', 'c3', '--subsidiary', 'sub_none', '--scopes', 'load:read'),
      admin('client:create', '--tenant', 'tn_cli', '--id', 'cli-client', '--scopes', 'load:read'),
    ]);
    expect(badScope.code).toBe(2);
    expect(badScope.stderr).toContain('load:write');
    expect(foreign.code).toBe(1);
    expect(taken.code).toBe(1);
  }, SLOW);

  it('lists clients without secrets or hashes', async () => {
    const run = await admin('client:list', '--tenant', 'tn_cli');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('cli-client\ttn_cli\tsub_cli\tactive\tload:read trip:read\tCLI app');
    expect(run.stdout).not.toContain('scrypt');
  }, SLOW);

  it('rotates a secret: the old one fails, the new one works', async () => {
    const before = await admin('client:create', '--tenant', 'tn_cli', '--id', 'rotating', '--scopes', 'trip:read');
    const oldSecret = secretIn(before);
    const run = await admin('client:rotate-secret', '--id', 'rotating');
    expect(run.code, run.stderr).toBe(0);
    const newSecret = secretIn(run);
    expect(newSecret).not.toBe(oldSecret);
    expect((await postToken(host!.url, tokenRequest('rotating', oldSecret))).status).toBe(401);
    expect((await postToken(host!.url, tokenRequest('rotating', newSecret))).status).toBe(200);
    expect((await admin('client:rotate-secret', '--id', 'no-such-client')).code).toBe(1);
  }, SLOW);

  it('rotates the signing key; the running host picks it up and keeps the old key published', async () => {
    const oldKid = host!.keys.signingKey().kid;
    const run = await admin('key:rotate');
    expect(run.code, run.stderr).toBe(0);
    const newKid = /New signing key (\S+)\./.exec(run.stdout)?.[1];
    expect(newKid).toBeDefined();
    host!.clock.advance(61_000);

    const secret = secretIn(await admin('client:rotate-secret', '--id', 'rotating'));
    const answer = await postToken(host!.url, tokenRequest('rotating', secret));
    expect(decodeProtectedHeader(answer.body.access_token).kid).toBe(newKid);
    expect(host!.keys.jwks().keys.map((k) => k.kid)).toEqual([newKid, oldKid]);

    const list = await admin('key:list');
    expect(list.stdout).toMatch(new RegExp(`${newKid}\\t\\S+\\tgenerated\\tin service`));
    expect(list.stdout).toMatch(new RegExp(`${oldKid}\\t\\S+\\tgenerated\\tretired, published until `));
  }, SLOW);

  it('revokes a client: its secret no longer gets tokens', async () => {
    const before = await admin('client:create', '--tenant', 'tn_cli', '--id', 'leaving', '--scopes', 'load:read');
    const secret = secretIn(before);
    expect((await postToken(host!.url, tokenRequest('leaving', secret))).status).toBe(200);
    const run = await admin('client:revoke', '--id', 'leaving');
    expect(run.code, run.stderr).toBe(0);
    const answer = await postToken(host!.url, tokenRequest('leaving', secret));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ error: 'access_denied', error_description: 'Unauthorized' });
    expect((await admin('client:list')).stdout).toMatch(/leaving\ttn_cli\t\*\trevoked/);
    expect((await admin('client:revoke', '--id', 'no-such-client')).code).toBe(1);
  }, SLOW);
  it("lists a tenant's EDI partners and queues an outbound document's delivery again", async () => {
    const clock = new ManualClock('2026-11-22T12:00:00Z');
    await loadFixture(db, testFixture(), { clock, secretKey: SECRET_KEY });
    await seedPartners(db, { secretKey: SECRET_KEY } as Config);
    await db.updateTable('edi_partners').set({ outbound_url: 'https://edi.example.com/inbox' }).where('id', '=', 'edp_kc').execute();
    const sent = await sendTo(db, clock, 'tn_prairie', 'edp_kc');
    const polled = await sendTo(db, clock, 'tn_prairie', 'edp_dal');
    const delivery = () => db.selectFrom('webhook_deliveries').selectAll().where('edi_document_id', '=', sent.id).executeTakeFirstOrThrow();
    await db.updateTable('webhook_deliveries').set({ state: 'failed', attempts: 4 }).where('id', '=', (await delivery()).id).execute();

    const [partners, none, resent, refused, unknown] = await Promise.all([
      admin('edi:partners', '--tenant', 'tn_prairie'),
      admin('edi:partners', '--tenant', 'tn_cli'),
      admin('edi:resend', '--tenant', 'tn_prairie', '--document', sent.id),
      admin('edi:resend', '--tenant', 'tn_prairie', '--document', polled.id),
      admin('edi:resend', '--tenant', 'tn_harbor', '--document', sent.id),
    ]);
    expect(partners.code, partners.stderr).toBe(0);
    expect(partners.stdout).toContain('edp_kc\tActive\tZZ/HEARTLANDKC\tcus_heartland\t1\thttps://edi.example.com/inbox\tPartner HEARTLANDKC');
    expect(partners.stdout).toContain('edp_dal\tActive\tZZ/LONESTAR\tcus_lonestar\t1\t(polls)');
    expect(partners.stdout).not.toContain('edp_harbor');
    expect(none.stdout).toContain('Tenant tn_cli has no EDI partners.');
    expect(resent.code, resent.stderr).toBe(0);
    expect(resent.stdout).toContain(`webhook-id ${(await delivery()).id}`);
    expect(await delivery()).toMatchObject({ state: 'pending', retry_base: 4 });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/no OutboundUrl/);
    expect(unknown.code).toBe(1);
    expect((await admin('edi:resend', '--tenant', 'tn_prairie')).code).toBe(2);
  }, SLOW);
});
