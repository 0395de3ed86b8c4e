/**
 * Where one list page's time goes, on a database the list benchmark filled (a copy of
 * BENCH_LISTS_REUSE's, never the kept one itself: this script only reads, but opening a SQLite
 * file sets its journal mode):
 *
 *     npx tsx bench/list-page-costs.ts sqlite:/tmp/lists-copy.db
 *     npx tsx bench/list-page-costs.ts postgres://…/waybill_lists_copy
 *
 * For each page it prints medians over COSTS_RUNS runs (15) of: the whole procedure as the REST
 * edge runs it (input parse, resolver, output parse; core/procedure-plan.ts) plus JSON.stringify
 * of the answer; the resolver alone; the output parse alone; JSON.stringify alone; and the SQL:
 * each statement the resolver ran, executed again alone with its own parameters, summed. The
 * resolver minus the SQL is Kysely's compiling and the row → API object mapping. COSTS_ONLY=
 * <substring> keeps the pages whose name contains it. A few seconds in all: fit for a shared
 * machine, unlike `npm run bench`.
 */
import type { AnyTRPCProcedure } from '@trpc/server';
import type { CompiledQuery, QueryId } from 'kysely';
import { SCOPES } from '../core/auth/scopes.js';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { planProcedure } from '../core/procedure-plan.js';
import { appRouter } from '../core/router.js';
import type { Context } from '../core/trpc.js';
import { createDb, type Db } from '../db/create-db.js';
import { BIG_TENANT, SUBSIDIARIES } from './big-tenant.js';
import { Recorder } from './explain-plans.js';

interface Page {
  name: string;
  procedure: string;
  subsidiary?: boolean;
  /** The raw input, as the REST edge hands it over (query values are text). */
  input: Record<string, unknown> | ((run: PageRun) => Promise<Record<string, unknown>>);
}

/** What an input may need: a run of another input (a cursor, a Total). */
type PageRun = (procedure: string, input: Record<string, unknown>, subsidiary?: boolean) => Promise<any>;

const DRIVER = 'drv_big_0002';
const TRUCK = 'trk_big_0002';

const PAGES: Page[] = [
  { name: 'GET /trips first/100', procedure: 'trips.findTrips', input: { PageSize: '100' } },
  {
    name: 'GET /trips cursor walk/100 (page 2)',
    procedure: 'trips.findTrips',
    input: async (run) => ({ PageSize: '100', Cursor: (await run('trips.findTrips', { PageSize: '100' })).NextCursor }),
  },
  { name: 'GET /trips last/100', procedure: 'trips.findTrips', input: { PageSize: '100', Page: '2999' } },
  { name: 'POST /trips/search first/100', procedure: 'trips.searchTrips', input: { PageSize: 100 } },
  { name: 'POST /trips/search TruckId first/100', procedure: 'trips.searchTrips', input: { PageSize: 100, TruckId: TRUCK } },
  { name: 'POST /loads/search first/100', procedure: 'loads.searchLoads', input: { PageSize: 100 } },
  { name: 'POST /loads/search DriverId first/50', procedure: 'loads.searchLoads', input: { PageSize: 50, DriverId: DRIVER } },
  { name: 'POST /loads/search DriverId first/100', procedure: 'loads.searchLoads', input: { PageSize: 100, DriverId: DRIVER } },
  {
    name: 'POST /loads/search DriverId cursor walk/50',
    procedure: 'loads.searchLoads',
    input: async (run) => ({ PageSize: 50, DriverId: DRIVER, Cursor: (await run('loads.searchLoads', { PageSize: 50, DriverId: DRIVER })).NextCursor }),
  },
  { name: 'sub POST /loads/search DriverId first/50', procedure: 'loads.searchLoads', subsidiary: true, input: { PageSize: 50, DriverId: DRIVER } },
  {
    name: 'sub POST /trailers/events/search last/100',
    procedure: 'visibility.searchTrailerEvents',
    subsidiary: true,
    input: async (run) => {
      const { Total } = await run('visibility.searchTrailerEvents', { PageSize: 100 }, true);
      return { PageSize: 100, Page: Math.max(0, Math.ceil(Total / 100) - 1) };
    },
  },
];

const RUNS = Number(process.env.COSTS_RUNS ?? 15);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time<T>(work: () => Promise<T> | T): Promise<[T, number]> {
  const started = performance.now();
  const result = await work();
  return [result, performance.now() - started];
}

async function main(): Promise<void> {
  const url = process.argv[2];
  if (!url) throw new Error('usage: list-page-costs.ts <DATABASE_URL of a copy of a database the list benchmark filled>');
  const db = createDb(url);
  const recorder = new Recorder();
  const recording = db.withPlugin(recorder) as Db;
  const config = loadConfig();
  const procedures = appRouter._def.procedures as unknown as Record<string, AnyTRPCProcedure>;
  const contextOf = (subsidiary: boolean | undefined, on: Db): Context => ({
    db: on,
    clock: systemClock,
    config,
    principal: { TenantId: BIG_TENANT, SubsidiaryId: subsidiary ? SUBSIDIARIES[0] : null, ClientId: 'costs', Scopes: [...SCOPES] },
  });
  const planOf = (path: string) => planProcedure(path, procedures[path]!);
  const run: PageRun = (path, input, subsidiary) => planOf(path).run(contextOf(subsidiary, db), input);

  for (const page of PAGES.filter((p) => !process.env.COSTS_ONLY || p.name.includes(process.env.COSTS_ONLY))) {
    const input = typeof page.input === 'function' ? await page.input(run) : page.input;
    const plan = planOf(page.procedure);
    const def = procedures[page.procedure]!._def as unknown as {
      inputs: Array<{ parseAsync(v: unknown): Promise<unknown> }>;
      output: { safeParseAsync(v: unknown): Promise<{ success: boolean; data?: unknown }> };
      resolver: (opts: { ctx: Context; input: unknown }) => Promise<unknown>;
    };
    const parsedInput = await def.inputs[0]!.parseAsync(input);
    const whole: number[] = [];
    const resolver: number[] = [];
    const output: number[] = [];
    const json: number[] = [];
    const sqlTotals: number[] = [];
    const perStatement: number[][] = [];
    let sqlTexts: string[] = [];
    let statements = 0;
    let bytes = 0;
    for (let i = 0; i < RUNS; i++) {
      const [, wholeMs] = await time(async () => JSON.stringify((await plan.run(contextOf(page.subsidiary, db), input)).output));
      whole.push(wholeMs);
      recorder.recorded = [];
      const [result, resolverMs] = await time(() => def.resolver({ ctx: contextOf(page.subsidiary, recording), input: parsedInput }));
      resolver.push(resolverMs);
      const [parsed, outputMs] = await time(() => def.output.safeParseAsync(result));
      output.push(outputMs);
      const [body, jsonMs] = await time(() => JSON.stringify(parsed.data));
      json.push(jsonMs);
      bytes = body.length;
      const compiled: CompiledQuery[] = recorder.recorded.map(({ node }) => db.getExecutor().compileQuery(node, { queryId: 'costs' } as QueryId));
      statements = compiled.length;
      let sqlMs = 0;
      for (const [index, statement] of compiled.entries()) {
        const ms = (await time(() => db.executeQuery(statement)))[1];
        (perStatement[index] ??= []).push(ms);
        sqlMs += ms;
      }
      sqlTotals.push(sqlMs);
      sqlTexts = compiled.map((statement) => statement.sql.replace(/\s+/g, ' '));
    }
    const f = (values: number[]) => median(values).toFixed(1).padStart(6);
    console.log(
      `${page.name.padEnd(44)} whole ${f(whole)}  resolver ${f(resolver)} (sql ${f(sqlTotals)} in ${statements})  output parse ${f(output)}  stringify ${f(json)} ms  ${(bytes / 1024).toFixed(0)} KiB`,
    );
    if (process.env.COSTS_DETAIL) {
      for (const [index, text] of sqlTexts.entries()) console.log(`    ${f(perStatement[index]!)} ms  ${text.slice(0, 160)}`);
    }
  }
  await db.destroy();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
