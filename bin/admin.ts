import { parseArgs } from 'node:util';
import { isScopeName, parseScopeList, SCOPES } from '../core/auth/scopes.js';
import { systemClock } from '../core/clock.js';
import { loadConfig, type Config } from '../core/config.js';
import { listTenantPartners } from '../core/edi/partner.repository.js';
import { resendEdiDocument } from '../core/edi/resend-edi-document.js';
import { listAllKeys } from '../core/signing-keys/signing-key.repository.js';
import { SigningKeys } from '../core/signing-keys/signing-keys.js';
import { listClients } from '../core/tenancy/client.repository.js';
import { createClient, revokeClient, rotateClientSecret } from '../core/tenancy/client-credentials.js';
import { createSubsidiary, createTenant, listSubsidiaries } from '../core/tenancy/tenant-setup.js';
import { listTenants, PLANS, type TPlan } from '../core/tenancy/tenant.repository.js';
import { createDb, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { resolveSecretKey } from './secret-key.js';

/**
 * The operator CLI (`npm run admin -- <command>`): tenants, subsidiaries, API clients,
 * signing keys and EDI deliveries. It reads the command line and prints; the work and its refusals (unknown
 * tenant, id taken) are the core's. Exit codes: 0 done, 2 usage error, 1 failure.
 */

/** Wrong command line: exit 2. */
class UsageError extends Error {}

interface Context {
  db: Db;
  config: Config;
  out: (line: string) => void;
  warn: (line: string) => void;
}

type Options = Record<string, string | undefined>;

interface Command {
  usage: string;
  summary: string;
  required: string[];
  optional: string[];
  run(ctx: Context, options: Options): Promise<void>;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;

function id(options: Options, name: string): string {
  const value = options[name] ?? '';
  if (!ID.test(value)) throw new UsageError(`--${name} must be 1 to 128 letters, digits or . _ : @ - (got "${value}")`);
  return value;
}

function text(options: Options, name: string): string {
  const value = (options[name] ?? '').trim();
  if (value === '') throw new UsageError(`--${name} must not be empty`);
  return value;
}

function printSecret(ctx: Context, secret: string): void {
  ctx.out(`client_secret: ${secret}`);
  ctx.warn('Store this secret now: it is not shown again (only its hash is kept).');
}

const commands: Record<string, Command> = {
  'tenant:create': {
    usage: 'tenant:create --id <id> --name <name> [--plan Standard|HosEta]',
    summary: 'create a tenant',
    required: ['id', 'name'],
    optional: ['plan'],
    async run({ db, out }, options) {
      const plan = options.plan ?? 'Standard';
      if (!(PLANS as readonly string[]).includes(plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
      const tenantId = id(options, 'id');
      const name = text(options, 'name');
      await createTenant(db, { id: tenantId, name, plan: plan as TPlan, now: systemClock.now() });
      out(`Created tenant ${tenantId} (${name}, plan ${plan}).`);
    },
  },
  'tenant:list': {
    usage: 'tenant:list',
    summary: 'list tenants',
    required: [],
    optional: [],
    async run({ db, out }) {
      const tenants = await listTenants(db);
      if (tenants.length === 0) out('No tenants.');
      for (const t of tenants) out(`${t.id}\t${t.plan}\t${t.name}`);
    },
  },
  'subsidiary:create': {
    usage: 'subsidiary:create --tenant <tenantId> --id <id> --name <name>',
    summary: "create a subsidiary of a tenant",
    required: ['tenant', 'id', 'name'],
    optional: [],
    async run({ db, out }, options) {
      const tenantId = id(options, 'tenant');
      const subsidiaryId = id(options, 'id');
      const name = text(options, 'name');
      await createSubsidiary(db, { tenantId, id: subsidiaryId, name, now: systemClock.now() });
      out(`Created subsidiary ${subsidiaryId} (${name}) of tenant ${tenantId}.`);
    },
  },
  'subsidiary:list': {
    usage: 'subsidiary:list --tenant <tenantId>',
    summary: "list a tenant's subsidiaries",
    required: ['tenant'],
    optional: [],
    async run({ db, out }, options) {
      const tenantId = id(options, 'tenant');
      const subsidiaries = await listSubsidiaries(db, tenantId);
      if (subsidiaries.length === 0) out(`Tenant ${tenantId} has no subsidiaries.`);
      for (const s of subsidiaries) out(`${s.id}\t${s.name}`);
    },
  },
  'client:create': {
    usage: 'client:create --tenant <tenantId> --id <clientId> --scopes "a b c" [--subsidiary <id>] [--name <name>]',
    summary: 'create an API client and print its secret once',
    required: ['tenant', 'id', 'scopes'],
    optional: ['subsidiary', 'name'],
    async run(ctx, options) {
      const { db, out } = ctx;
      const tenantId = id(options, 'tenant');
      const clientId = id(options, 'id');
      const subsidiaryId = options.subsidiary === undefined ? null : id(options, 'subsidiary');
      const name = options.name === undefined ? null : text(options, 'name');
      const scopes = parseScopeList(options.scopes ?? '');
      const unknown = scopes.filter((scope) => !isScopeName(scope));
      if (unknown.length > 0) throw new UsageError(`unknown scope ${unknown.join(', ')}; "help" lists the catalog`);
      if (scopes.length === 0) throw new UsageError('--scopes must name at least one scope');
      const secret = await createClient(db, { clientId, tenantId, subsidiaryId, name, scopes, now: systemClock.now() });
      const reach = subsidiaryId === null ? 'all subsidiaries' : `subsidiary ${subsidiaryId}`;
      out(`Created client ${clientId} for tenant ${tenantId} (${reach}), scopes: ${scopes.join(' ')}`);
      printSecret(ctx, secret);
    },
  },
  'client:list': {
    usage: 'client:list [--tenant <tenantId>]',
    summary: 'list API clients (never their secrets)',
    required: [],
    optional: ['tenant'],
    async run({ db, out }, options) {
      const clients = await listClients(db, options.tenant === undefined ? {} : { tenantId: id(options, 'tenant') });
      if (clients.length === 0) out('No clients.');
      for (const c of clients) {
        const state = c.active ? 'active' : 'revoked';
        out(`${c.clientId}\t${c.tenantId}\t${c.subsidiaryId ?? '*'}\t${state}\t${c.scopes.join(' ')}\t${c.name ?? ''}`);
      }
    },
  },
  'client:rotate-secret': {
    usage: 'client:rotate-secret --id <clientId>',
    summary: 'replace a client secret (the old one stops working) and print the new one once',
    required: ['id'],
    optional: [],
    async run(ctx, options) {
      const clientId = id(options, 'id');
      const { secret, active } = await rotateClientSecret(ctx.db, clientId, systemClock.now());
      ctx.out(`New secret for client ${clientId}; the old secret no longer works.`);
      if (!active) ctx.warn(`Client ${clientId} is revoked and stays revoked.`);
      printSecret(ctx, secret);
    },
  },
  'client:revoke': {
    usage: 'client:revoke --id <clientId>',
    summary: 'stop a client from getting tokens',
    required: ['id'],
    optional: [],
    async run({ db, out }, options) {
      const clientId = id(options, 'id');
      await revokeClient(db, clientId);
      out(`Revoked client ${clientId}: it gets no new tokens; tokens already issued expire within 24 hours.`);
    },
  },
  'key:rotate': {
    usage: 'key:rotate',
    summary: 'generate a new token signing key; the old one stays published until its tokens expire',
    required: [],
    optional: [],
    async run({ db, config, out }) {
      const kid = await SigningKeys.rotate(db, { ...config, secretKey: resolveSecretKey(config) }, systemClock);
      out(`New signing key ${kid}. Running servers switch to it within a minute; the previous key stays in the JWKS until its last token expires.`);
    },
  },
  'key:list': {
    usage: 'key:list',
    summary: 'list token signing keys',
    required: [],
    optional: [],
    async run({ db, out }) {
      const now = systemClock.now().toISOString();
      const keys = await listAllKeys(db);
      if (keys.length === 0) out('No signing keys yet (one is generated on first start).');
      for (const k of keys) {
        const state =
          k.retired_at === null ? 'in service' : k.expires_at !== null && k.expires_at > now ? `retired, published until ${k.expires_at}` : 'expired';
        const source = k.private_jwk_encrypted === null ? 'JWT_PRIVATE_KEY' : 'generated';
        out(`${k.kid}\t${k.created_at}\t${source}\t${state}`);
      }
    },
  },
  'edi:partners': {
    usage: 'edi:partners --tenant <tenantId>',
    summary: "list a tenant's EDI trading partners (never their secrets)",
    required: ['tenant'],
    optional: [],
    async run({ db, out }, options) {
      const tenantId = id(options, 'tenant');
      const partners = await listTenantPartners(db, tenantId);
      if (partners.length === 0) out(`Tenant ${tenantId} has no EDI partners.`);
      for (const p of partners) {
        const sender = `${p.their_isa_qualifier}/${p.their_isa_id}`;
        out(`${p.id}\t${p.status}\t${sender}\t${p.customer_id}\t${p.last_control_number}\t${p.outbound_url ?? '(polls)'}\t${p.name}`);
      }
    },
  },
  'edi:resend': {
    usage: 'edi:resend --tenant <tenantId> --document <documentId>',
    summary: "queue an outbound EDI document's delivery to its partner again",
    required: ['tenant', 'document'],
    optional: [],
    async run({ db, out }, options) {
      const tenantId = id(options, 'tenant');
      const documentId = id(options, 'document');
      const deliveryId = await resendEdiDocument(db, systemClock, tenantId, documentId);
      out(`Queued document ${documentId} for delivery (webhook-id ${deliveryId}); a running dispatcher sends it within seconds.`);
    },
  },
};

function helpText(): string {
  const width = Math.max(...Object.keys(commands).map((name) => name.length));
  return [
    'Usage: npm run admin -- <command> [options]',
    '',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}\n  ${' '.repeat(width)}    ${c.usage}`),
    `  ${'help'.padEnd(width)}  this text`,
    '',
    `Scopes: ${SCOPES.join(' ')}`,
    '',
  ].join('\n');
}

function parseCommandLine(argv: string[]): { command: Command; options: Options } | 'help' {
  const [name, ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') return 'help';
  if (name === undefined) throw new UsageError('a command is required');
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  let values: Options;
  try {
    const spec = Object.fromEntries([...command.required, ...command.optional].map((o) => [o, { type: 'string' as const }]));
    ({ values } = parseArgs({ args: rest, options: spec, strict: true, allowPositionals: false }) as { values: Options });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n  usage: ${command.usage}`);
  }
  const missing = command.required.filter((option) => values[option] === undefined);
  if (missing.length > 0) {
    throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}\n  usage: ${command.usage}`);
  }
  return { command, options: values };
}

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseCommandLine>;
  try {
    parsed = parseCommandLine(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`error: ${error.message}\nRun "npm run admin -- help" for the commands.\n`);
    return 2;
  }
  if (parsed === 'help') {
    process.stdout.write(helpText());
    return 0;
  }

  const config = loadConfig();
  const db = createDb(config.databaseUrl);
  const ctx: Context = {
    db,
    config,
    out: (line) => process.stdout.write(`${line}\n`),
    warn: (line) => process.stderr.write(`${line}\n`),
  };
  try {
    await migrateToLatest(db);
    await parsed.command.run(ctx, parsed.options);
    return 0;
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
