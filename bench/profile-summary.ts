/**
 * Where a profiled server's time goes, per accepted request:
 *
 *   node .bench-build/bench/profile-summary.js <file.cpuprofile>… [--accepted N] [--last S] [--top K]
 *
 * Reads V8 CPU profiles (`node --cpu-prof`, e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof
 * --cpu-prof-dir=/tmp/prof" on the position benchmark) and attributes each sample's time to one
 * bucket: the innermost frame of its stack that belongs to a known component (jose, the rate
 * limiter, zod, the database drivers, pino, the geocoder, the ETA model, JSON), else the
 * innermost Node-internal frame (HTTP parsing, sockets, timers: "http & sockets"), else the
 * innermost application frame ("edge" for adapters/, "core" for core/), else "other". V8's own
 * pseudo-frames keep their own buckets: "(idle)" is the event loop waiting (for the database,
 * for the next request), "(garbage collector)" GC, "(program)" native code V8 cannot place
 * (libuv, the HTTP parser's C side).
 *
 * --accepted N   the requests the profile served (accepted positions): adds µs per request
 * --last S       only the last S seconds of samples (the measured run, not start-up and warm-up)
 * --top K        also lists the K functions with the most self time (default 15; 0 for none)
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Components that own any time spent inside them, wherever they sit in the stack. */
const COMPONENTS: Array<{ bucket: string; test: (frame: CallFrame) => boolean }> = [
  { bucket: 'jwt (jose)', test: (f) => /node_modules\/jose\/|adapters\/auth\/verify\./.test(f.url) },
  { bucket: 'rate limiter', test: (f) => /adapters\/http\/rate-limit/.test(f.url) },
  { bucket: 'validation (zod)', test: (f) => /node_modules\/zod\/|core\/shared\/safe-text\./.test(f.url) },
  {
    bucket: 'database (kysely, drivers)',
    test: (f) => /node_modules\/(kysely|pg|pg-protocol|pg-pool|pg-types|pgpass|postgres-[a-z]+|better-sqlite3)\/|\/db\/(create-db|dialect)/.test(f.url),
  },
  { bucket: 'logging (pino)', test: (f) => /node_modules\/(pino|pino-std-serializers|sonic-boom|thread-stream|fast-redact|@pinojs)\/|adapters\/logger\./.test(f.url) },
  { bucket: 'reverse geocoding', test: (f) => /core\/visibility\/reverse-geocode\./.test(f.url) },
  { bucket: 'eta model', test: (f) => /core\/eta\/|core\/trips\/trip-etas\./.test(f.url) },
  { bucket: 'json parse/stringify', test: (f) => f.url === '' && (f.functionName === 'stringify' || f.functionName === 'parse') },
  { bucket: 'metrics (prom-client)', test: (f) => /node_modules\/prom-client\//.test(f.url) },
];

const PSEUDO: Record<string, string> = {
  '(idle)': 'idle',
  '(garbage collector)': 'gc',
  '(program)': 'program (native, unplaced)',
  '(root)': 'other',
};

function isNodeInternal(frame: CallFrame): boolean {
  return frame.url.startsWith('node:') || /^(internal\/|_http_|net\.js|events\.js|stream)/.test(frame.url);
}

function appBucket(frame: CallFrame): string | null {
  if (/\/adapters\//.test(frame.url)) return 'edge (adapters, other)';
  if (/\/core\/visibility\/position-/.test(frame.url)) return 'position batching (lookups, trip choice)';
  if (/\/core\//.test(frame.url)) return 'core (other)';
  return null;
}

export interface Summary {
  totalUs: number;
  buckets: Map<string, number>;
  functions: Map<string, number>;
}

export function summarize(profile: CpuProfile, lastSeconds?: number): Summary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const bucketOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = bucketOf.get(id);
    if (known !== undefined) return known;
    const leaf = byId.get(id)!.callFrame;
    let bucket = PSEUDO[leaf.functionName] && leaf.url === '' ? PSEUDO[leaf.functionName]! : null;
    if (bucket === null) {
      let internal: string | null = null;
      let app: string | null = null;
      for (let at: number | undefined = id; at !== undefined && bucket === null; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        bucket = COMPONENTS.find((component) => component.test(frame))?.bucket ?? null;
        if (internal === null && app === null && isNodeInternal(frame)) internal = 'http & sockets (node internals)';
        app ??= appBucket(frame);
      }
      bucket ??= internal ?? app ?? 'other';
    }
    bucketOf.set(id, bucket);
    return bucket;
  };

  // A sample lasts until the next one (the last sample until the profile's end).
  const times: number[] = [];
  let t = profile.startTime;
  for (const delta of profile.timeDeltas) times.push((t += delta));
  const from = lastSeconds === undefined ? -Infinity : profile.endTime - lastSeconds * 1e6;

  const buckets = new Map<string, number>();
  const functions = new Map<string, number>();
  let totalUs = 0;
  profile.samples.forEach((id, index) => {
    if (times[index]! < from) return;
    const duration = (times[index + 1] ?? profile.endTime) - times[index]!;
    if (duration <= 0) return;
    totalUs += duration;
    const bucket = classify(id);
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + duration);
    const frame = byId.get(id)!.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + duration);
  });
  return { totalUs, buckets, functions };
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) return url.slice(modules + 'node_modules/'.length);
  const project = url.search(/\/(adapters|core|db|bench|bin|workers)\//);
  return project !== -1 ? url.slice(project + 1) : url;
}

function option(args: string[], name: string): number | undefined {
  const index = args.indexOf(name);
  if (index === -1) return undefined;
  const value = Number(args[index + 1]);
  if (!Number.isFinite(value)) throw new Error(`${name} needs a number`);
  args.splice(index, 2);
  return value;
}

function main(): void {
  const args = process.argv.slice(2);
  const accepted = option(args, '--accepted');
  const last = option(args, '--last');
  const top = option(args, '--top') ?? 15;
  if (args.length === 0) {
    console.error('usage: profile-summary <file.cpuprofile>… [--accepted N] [--last seconds] [--top K]');
    process.exit(2);
  }
  for (const file of args) {
    const { totalUs, buckets, functions } = summarize(JSON.parse(readFileSync(file, 'utf8')) as CpuProfile, last);
    console.log(`\n${file}: ${(totalUs / 1e6).toFixed(1)} s sampled${accepted ? `, ${accepted} requests` : ''}`);
    const busy = totalUs - (buckets.get('idle') ?? 0);
    console.log(`${'bucket'.padEnd(42)} ${'share'.padStart(6)}${accepted ? ` ${'µs/req'.padStart(8)}` : ''}`);
    for (const [bucket, us] of [...buckets].sort((a, b) => b[1] - a[1])) {
      const perRequest = accepted ? ` ${(us / accepted).toFixed(1).padStart(8)}` : '';
      console.log(`${bucket.padEnd(42)} ${((us / totalUs) * 100).toFixed(1).padStart(5)}%${perRequest}`);
    }
    if (accepted) console.log(`${'busy (all but idle)'.padEnd(42)} ${((busy / totalUs) * 100).toFixed(1).padStart(5)}% ${(busy / accepted).toFixed(1).padStart(8)}`);
    if (top > 0) {
      console.log(`top ${top} functions by self time:`);
      for (const [name, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
        console.log(`  ${((us / totalUs) * 100).toFixed(1).padStart(5)}%  ${name}`);
      }
    }
  }
}

if (process.argv[1] && /profile-summary\.[jt]s$/.test(process.argv[1])) main();
