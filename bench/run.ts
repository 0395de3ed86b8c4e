import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench [-- name…]`: runs every benchmark, or those whose name contains one of the
 * words given (`npm run bench -- ingest fuel`), one after the other in their own process, and
 * stops at the first that fails. Each prints its figures and records them in bench/results.json.
 */
const here = fileURLToPath(new URL('.', import.meta.url));

const BENCHMARKS: Array<{ name: string; file: string; nodeArgs?: string[] }> = [
  { name: 'read', file: 'subsidiary-read.bench.js' },
  { name: 'webhooks', file: 'webhook-dispatch.bench.js', nodeArgs: ['--expose-gc'] },
  { name: 'ingest', file: 'position-ingest.bench.js' },
  { name: 'lists', file: 'list-pages.bench.js' },
  { name: 'fuel', file: 'fuel-import.bench.js' },
  { name: 'uploads', file: 'uploads.bench.js' },
  { name: 'writes', file: 'load-writes.bench.js' },
  { name: 'events', file: 'events-feed.bench.js' },
  { name: 'edi-204', file: 'edi-inbound.bench.js' },
  { name: 'edi-214', file: 'edi-214.bench.js' },
];

const words = process.argv.slice(2).map((word) => word.toLowerCase());
const chosen = words.length === 0 ? BENCHMARKS : BENCHMARKS.filter((bench) => words.some((word) => bench.name.includes(word) || bench.file.includes(word)));
if (chosen.length === 0) {
  console.error(`No benchmark matches ${words.join(' ')}; there are: ${BENCHMARKS.map((bench) => bench.name).join(', ')}`);
  process.exit(2);
}
for (const bench of chosen) {
  console.log(`\n=== ${bench.name} (${bench.file})`);
  const run = spawnSync(process.execPath, [...(bench.nodeArgs ?? []), join(here, bench.file)], { stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`${bench.name} failed (exit ${run.status ?? run.signal})`);
    process.exit(1);
  }
}
