import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * The processes lanes' global setup: brings the production build (dist/) up to date, as their
 * tests run the admin CLI, the worker and most servers from it (`builtBin` in
 * test/support/server-process.ts): node starts a built script in a third of the time tsx takes
 * to compile it, and these tests start dozens. The build is incremental (tsconfig.build.json),
 * so after `npm run build` this is a check of a few seconds; .ci/run, having just built,
 * says so with WAYBILL_TEST_BUILT=1.
 */
export default function setup(): void {
  // Both processes lanes run this; the first one's build serves the run.
  if (process.env.WAYBILL_TEST_BUILT === '1') return;
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: fileURLToPath(new URL('../..', import.meta.url)), stdio: 'inherit' });
  process.env.WAYBILL_TEST_BUILT = '1';
}
