/**
 * `npm run bench -- edi`, the 204 part (docs/edi.md#inbound): 204 load tenders parsed, checked,
 * mapped and stored as tenders per second on one core, in-process through the procedure
 * (`createCaller`, the path REST and tRPC both run, without the HTTP client's share of the one
 * core). Each call is one interchange holding one 204 (three stops, references, a window and
 * an appointment) with a new ISA13 and shipment id: its tender, tender.received, the inbound
 * document with its answer, and the 997 stored for the partner, all in one transaction.
 *
 * Also timed apart: parse + check + map of the same interchange alone (no database), so the
 * database's share of a receipt shows. BENCH_EDI_DB=sqlite|postgres (default sqlite: a file
 * in a temporary folder; Postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL, the bench
 * creates and drops its own database there), BENCH_EDI_COUNT interchanges (default 2,000),
 * after BENCH_EDI_WARMUP (100) untimed ones.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { map204 } from '../core/edi/inbound/map-204.js';
import { checkGroup, checkTransactionSet, parseInterchange } from '../core/edi/x12/index.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { createCaller } from '../core/router.js';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { loadFixture } from '../seeding/load-fixture.js';
import { interchangeOf204s } from '../test/edi/inbound-builder.js';
import { seedPartners } from '../test/support/edi-partners.js';
import { AUDIENCE, SECRET_KEY, testFixture } from '../test/harness.js';
import { percentile } from './big-tenant-server.js';
import { recordResults } from './results.js';
import { createBenchDatabase, dropBenchDatabases } from './server-process.js';

const COUNT = Number(process.env.BENCH_EDI_COUNT ?? 2000);
const WARMUP = Number(process.env.BENCH_EDI_WARMUP ?? 100);
const KIND = process.env.BENCH_EDI_DB === 'postgres' ? 'postgres' : 'sqlite';
const BENCH_DB = 'waybill_bench_edi';

const STOPS = [
  [['S5', '1', 'LD', '38000', 'L'], ['L11', 'PICK-1', 'CR'], ['G62', '37', '20271130', 'I', '0600', 'LT'], ['G62', '38', '20271130', 'K', '1000', 'LT'], ['N1', 'SH', 'Plant'], ['N3', '1200 Oven Way'], ['N4', 'Kansas City', 'MO', '64120', 'US']],
  [['S5', '2', 'UL', '20000', 'L'], ['G62', '70', '20271201', 'I', '0730', 'CT'], ['N1', 'ST', 'DC 4'], ['N3', '88 Distribution Blvd'], ['N4', 'Omaha', 'NE', '68102']],
  [['S5', '3', 'UL', '18000', 'L'], ['G62', '68', '20271201', 'I', '1300', 'UT'], ['N1', 'CN', 'DC 7'], ['N3', '4 Rail Spur Rd'], ['N4', 'Des Moines', 'IA', '50309', 'US']],
];
const interchange = (n: number) => interchangeOf204s(n, [{ shipment: `BENCH-${n}`, stops: STOPS }]);

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'waybill-edi-bench-'));
  const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (KIND === 'postgres' && !serverUrl) throw new Error('BENCH_EDI_DB=postgres needs BENCH_DATABASE_URL or TEST_DATABASE_URL');
  const databaseUrl = KIND === 'postgres' ? await createBenchDatabase(serverUrl!, BENCH_DB) : `sqlite:${join(work, 'edi.sqlite')}`;
  const db = createDb(databaseUrl);
  try {
    await migrateToLatest(db);
    await loadFixture(db, testFixture(), { clock: systemClock, secretKey: SECRET_KEY });
    const config = { ...loadConfig({ API_AUDIENCE: AUDIENCE, RATE_LIMITS: 'off', PORT: '0', AUTH_PORT: '0', DATABASE_URL: databaseUrl }), secretKey: SECRET_KEY };
    await seedPartners(db, config);
    const caller = createCaller({
      db,
      clock: systemClock,
      config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'bench', Scopes: ['edi:submit'] },
    });

    // Parse, check and map alone.
    const sample = interchange(1);
    const mapStarted = performance.now();
    for (let i = 0; i < COUNT; i++) {
      const parsed = parseInterchange(sample);
      if (!parsed.ok) throw new Error(parsed.message);
      const group = parsed.interchange.groups[0]!;
      checkGroup(group);
      const set = group.sets[0]!;
      if (checkTransactionSet(set, { functionalId: 'SM', component: '>' }).length > 0 || !map204(set).ok) throw new Error('the sample does not map');
    }
    const mapSeconds = (performance.now() - mapStarted) / 1000;

    let next = 1000;
    for (let i = 0; i < WARMUP; i++) await caller.ediInbound.submitInterchange({ version: '1.0', Interchange: interchange(next++) });
    const latencies: number[] = [];
    const started = performance.now();
    for (let i = 0; i < COUNT; i++) {
      const one = performance.now();
      const answer = await caller.ediInbound.submitInterchange({ version: '1.0', Interchange: interchange(next++) });
      latencies.push(performance.now() - one);
      if (answer.Transactions[0]?.Status !== 'Accepted') throw new Error(`rejected: ${JSON.stringify(answer.Transactions[0]?.Errors)}`);
    }
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const figures = {
      interchanges: COUNT,
      tendersPerSecond: COUNT / seconds,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      parseCheckMapPerSecond: COUNT / mapSeconds,
    };
    console.log(`EDI 204 receipt, ${KIND}, in-process through the procedure, one at a time:`);
    console.log(`  ${figures.tendersPerSecond.toFixed(0)} 204s stored as tenders per second (p50 ${figures.p50Ms.toFixed(2)} ms, p99 ${figures.p99Ms.toFixed(2)} ms)`);
    console.log(`  ${figures.parseCheckMapPerSecond.toFixed(0)} parsed, checked and mapped per second without the database`);
    recordResults(`edi-204-${KIND}`, figures);
  } finally {
    await db.destroy();
    if (KIND === 'postgres') await dropBenchDatabases(serverUrl!, [BENCH_DB]);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
