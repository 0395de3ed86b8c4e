import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `bench/results.json`: the figures of the last run of each benchmark (one object per
 * benchmark and database: the run's date, the machine's cores and Node, each figure and each
 * ratio), so a later run can be compared with this one. Each benchmark records its own part;
 * the parts of benchmarks not run this time are kept.
 */
const here = fileURLToPath(new URL('.', import.meta.url));
// Compiled into .bench-build/bench/: the file lives in the source folder.
const RESULTS = process.env.BENCH_RESULTS ?? join(here, '..', '..', 'bench', 'results.json');

export type Figures = Record<string, number | string | boolean | null>;

export function recordResults(name: string, figures: Figures, ratios: Record<string, number> = {}): void {
  const all: Record<string, unknown> = existsSync(RESULTS) ? JSON.parse(readFileSync(RESULTS, 'utf8')) : {};
  all[name] = {
    date: new Date().toISOString(),
    cores: availableParallelism(),
    node: process.version,
    figures: round(figures),
    ratios: round(ratios),
  };
  const sorted = Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(`${RESULTS}.tmp`, `${JSON.stringify(sorted, null, 2)}\n`);
  renameSync(`${RESULTS}.tmp`, RESULTS);
}

function round<T extends Record<string, unknown>>(values: T): T {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1000) / 1000 : value]),
  ) as T;
}
