/**
 * `npm run bench -- edi`: what the outbound 214s cost position ingestion (docs/edi.md#outbound-214,
 * budget: at most 5% of the throughput). Two runs of the ingest bench's fleet (200 tenants, their
 * trucks on InTransit trips of a HosEta plan, so Live ETAs move), limits off, each on a fresh
 * database and after a warm-up, that differ only in whether each load came from an EDI partner's
 * tender with `214`: without, every batch still asks which of its trips have a partner (and finds
 * none); with, it also sends each load's `X6` (hourly) and its `AG`s (when the delivery ETA moves
 * 15 minutes), each a stored interchange.
 *
 * The partners and tenders are written straight into the seeded database (the fixture format has
 * no EDI partners), before the server sees its first reading. SQLite runs on a file; Postgres
 * when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server (BENCH_EDI_DB=sqlite|postgres for
 * one). BENCH_EDI_SECONDS (60) per run, BENCH_TENANTS (200) for a smaller fleet.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb } from '../db/create-db.js';
import { fetchTokens, postPositions, slotsOf } from './fleet-clients.js';
import { buildFleet, type Fleet } from './position-fleet.js';
import type { LoadPlan, LoadResult } from './position-load.js';
import { recordResults } from './results.js';
import { createBenchDatabase, dropBenchDatabases, startServer, stop } from './server-process.js';

const SECONDS = Number(process.env.BENCH_EDI_SECONDS ?? 60);
const WARMUP_SECONDS = 5;
const CONNECTIONS = Number(process.env.BENCH_POSITION_CONNECTIONS ?? 64);
const work = mkdtempSync(join(tmpdir(), 'waybill-edi-bench-'));

const load = (url: string, slots: LoadPlan['slots'], seconds: number) => postPositions(work, url, slots, seconds, CONNECTIONS);

/** Each tenant's customer becomes a partner with 214, and each load the accepted tender of that partner. */
async function tenderFleetFromPartners(databaseUrl: string, fleet: Fleet): Promise<number> {
  const db = createDb(databaseUrl);
  const now = '2026-11-21T12:00:00.000Z';
  let tenders = 0;
  try {
    for (const tenant of fleet.fixture.Tenants) {
      const customerId = tenant.Customers[0]!.Id;
      const partnerId = `edp_bench_${tenant.Id}`;
      await db
        .insertInto('edi_partners')
        .values({
          id: partnerId,
          tenant_id: tenant.Id,
          subsidiary_id: null,
          customer_id: customerId,
          name: `EDI ${tenant.Id}`,
          their_isa_qualifier: 'ZZ',
          their_isa_id: tenant.Id.slice(-15).toUpperCase(),
          their_gs_id: 'BENCHSHIPPER',
          our_isa_qualifier: 'ZZ',
          our_isa_id: 'BENCHCARRIER',
          our_gs_id: 'BENCHCARRIER',
          our_scac: 'BNCH',
          transactions: JSON.stringify(['204', '990', '214', '210']),
          outbound_url: null,
          usage_indicator: 'T',
          status: 'Active',
          secret_encrypted: 'unused: no OutboundUrl',
          last_control_number: 0,
          version: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const rows = (tenant.Loads ?? []).map((loadRow) => ({
        id: `tnd_bench_${loadRow.Id}`,
        tenant_id: tenant.Id,
        subsidiary_id: null,
        customer_id: customerId,
        external_id: `SHP-${loadRow.LoadNumber}`,
        status: 'Accepted',
        received_at: now,
        respond_by: null,
        responded_at: now,
        rejection_reason: null,
        load_id: loadRow.Id,
        load_number: loadRow.LoadNumber,
        rate_amount: 185000,
        rate_currency: 840,
        equipment: 'Dry Van',
        references_json: JSON.stringify([{ Name: 'PO Number', Value: `PO-${loadRow.LoadNumber}` }]),
        stops_json: '[]',
        edi_partner_id: partnerId,
        version: 2,
        created_at: now,
        updated_at: now,
      }));
      if (rows.length > 0) await db.insertInto('tenders').values(rows).execute();
      tenders += rows.length;
    }
  } finally {
    await db.destroy();
  }
  return tenders;
}

async function countOutbound214s(databaseUrl: string): Promise<number> {
  const db = createDb(databaseUrl);
  try {
    const row = await db.selectFrom('edi_documents').select((eb) => eb.fn.countAll<number>().as('n')).where('set_id', '=', '214').executeTakeFirstOrThrow();
    return Number(row.n);
  } finally {
    await db.destroy();
  }
}

async function measure(label: string, freshDatabase: (name: string) => Promise<string>): Promise<void> {
  const fleet = buildFleet(null);
  const fixturePath = join(work, 'fleet.json');
  writeFileSync(fixturePath, JSON.stringify(fleet.fixture));
  const results = new Map<'without' | 'with', { result: LoadResult; documents: number }>();
  for (const kind of ['without', 'with'] as const) {
    const databaseUrl = await freshDatabase(`edi_${kind}`);
    const server = await startServer(databaseUrl, fixturePath, false);
    if (kind === 'with') console.log(`[${label}] ${await tenderFleetFromPartners(databaseUrl, fleet)} loads tendered by partners with 214`);
    const slots = slotsOf(fleet, await fetchTokens(server.authUrl!, fleet.clients));
    await load(server.apiUrl, slots, WARMUP_SECONDS);
    const result = await load(server.apiUrl, slots, SECONDS);
    await stop(server);
    const documents = await countOutbound214s(databaseUrl);
    console.log(`[${label}] ${kind} partners: ${(result.accepted / result.seconds).toFixed(0)} accepted/s, p99 ${result.p99} ms, ${documents} 214s stored`);
    results.set(kind, { result, documents });
  }
  const rate = (result: LoadResult) => result.accepted / result.seconds;
  const without = results.get('without')!;
  const withPartners = results.get('with')!;
  const cost = 1 - rate(withPartners.result) / rate(without.result);
  console.log(`[${label}] outbound 214s: ${(cost * 100).toFixed(1)}% of the throughput (the budget is 5%)`);
  recordResults(
    `edi-214/${label}`,
    {
      connections: CONNECTIONS,
      seconds: SECONDS,
      with_partners_accepted_per_s: rate(withPartners.result),
      with_partners_p99_ms: withPartners.result.p99,
      with_partners_214s: withPartners.documents,
      without_partners_accepted_per_s: rate(without.result),
      without_partners_p99_ms: without.result.p99,
    },
    { edi_214_cost: cost },
  );
}

async function main(): Promise<void> {
  const only = process.env.BENCH_EDI_DB;
  try {
    if (only !== 'postgres') await measure('sqlite', async (name) => `sqlite:${join(work, `${name}.db`)}`);
    const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (only !== 'sqlite') {
      if (postgresUrl) {
        const prefix = `waybill_edi_bench_${process.pid}`;
        const made: string[] = [];
        try {
          await measure('postgres', (name) => {
            made.push(`${prefix}_${name}`);
            return createBenchDatabase(postgresUrl, `${prefix}_${name}`);
          });
        } finally {
          await dropBenchDatabases(postgresUrl, made);
        }
      } else console.log('\n[postgres] skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
