/**
 * `npm run bench -- uploads`: document uploads (issue 16) against the real server, started as
 * `npm start` starts it (migrations, SEED fixture, both hosts, dispatcher, request logs), with a
 * real token (`load:update`) from its token host and real multipart bodies over HTTP to
 * `POST /loads/{loadNumber}/documents`. RATE_LIMITS=off: this measures capacity, and one token
 * would otherwise meet the API's 10 requests per second.
 *
 *   1. throughput — BENCH_UPLOADS_CONNECTIONS (8) clients each upload a 1 MiB PDF, the next as
 *      soon as the last is answered, for BENCH_UPLOADS_SECONDS (15) after a 2 s warm-up:
 *      uploads/s, MiB/s, p50/p99 latency.
 *   2. memory — on a freshly started server (so the first phase's heap growth does not hide
 *      this one's), BENCH_UPLOADS_PARALLEL (20) uploads of 10 MiB sent at once. The server's
 *      VmRSS is read from /proc every 20 ms; the growth is the peak over its idle RSS (median of
 *      a second of samples before the burst). VmHWM cannot be reset, but when it rose during the
 *      burst its new value is the exact peak, so the larger of the two is reported. Target:
 *      growth under 64 MiB. Then the 20 documents are counted and their sizes summed in the
 *      database, and one is downloaded and compared byte for byte.
 *
 * The PDFs are a real PDF header and trailer around random bytes, so file-type sniffs
 * application/pdf and nothing compresses. The machine may be shared: the load average is
 * printed with the figures, and one throughput run is one sample.
 *
 * Knobs: BENCH_UPLOADS_SECONDS, BENCH_UPLOADS_CONNECTIONS, BENCH_UPLOADS_PARALLEL,
 * BENCH_UPLOADS_DB=sqlite|postgres (one database); a quick run: BENCH_UPLOADS_SECONDS=3.
 * SQLite runs on a file; Postgres when BENCH_DATABASE_URL or TEST_DATABASE_URL names a server
 * (the bench creates its own database there and drops it at the end).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createDb } from '../db/create-db.js';
import { AUDIENCE } from '../test/harness.js';
import { recordResults } from './results.js';
import { createBenchDatabase, startServer, stop, type Started } from './server-process.js';

const SECONDS = Number(process.env.BENCH_UPLOADS_SECONDS ?? 15);
const WARMUP_SECONDS = 2;
const CONNECTIONS = Number(process.env.BENCH_UPLOADS_CONNECTIONS ?? 8);
const PARALLEL = Number(process.env.BENCH_UPLOADS_PARALLEL ?? 20);
const MIB = 1024 * 1024;
const SMALL_BYTES = 1 * MIB;
const LARGE_BYTES = 10 * MIB;
const TARGET_GROWTH_MIB = 64;
const SAMPLE_MS = 20;
const LOAD_NUMBER = 'UPL-1';
const CLIENT = { id: 'uploads-bench', secret: 'uploads-bench-secret-0123456789abcdef' };
const work = mkdtempSync(join(tmpdir(), 'waybill-uploads-bench-'));

const fixture = {
  Tenants: [
    {
      Id: 'tn_upl',
      Name: 'Uploads bench',
      Plan: 'Standard',
      Subsidiaries: [{ Id: 'sub_upl', Name: 'Main' }],
      Clients: [{ ClientId: CLIENT.id, ClientSecret: CLIENT.secret, Scopes: ['load:read', 'load:update'], SubsidiaryId: null }],
      Customers: [],
      Carriers: [],
      Drivers: [],
      Trucks: [],
      Trailers: [],
      ReferenceDefinitions: [],
      Loads: [{ Id: 'load_upl_1', LoadNumber: LOAD_NUMBER, SubsidiaryId: 'sub_upl', Trips: [] }],
      CarrierSettlementStatements: [],
      Deductions: [],
    },
  ],
};

/** A PDF file-type recognises (header, random body, trailer) of exactly `size` bytes. */
function pdfOf(size: number): Buffer {
  const head = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
  const tail = Buffer.from('\n%%EOF\n');
  return Buffer.concat([head, randomBytes(size - head.length - tail.length), tail]);
}

interface Upload {
  body: Buffer;
  boundary: string;
  file: Buffer;
}

/** The multipart body an integration's client sends: DocumentType, then the File part. */
function multipart(file: Buffer, fileName: string): Upload {
  const boundary = `----waybill-bench-${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="DocumentType"\r\n\r\nBill of Lading\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="File"; filename="${fileName}"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  return { body: Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]), boundary, file };
}

interface Answer {
  status: number;
  text: string;
  ms: number;
}

function post(url: URL, token: string, upload: Upload, agent: Agent): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${upload.boundary}`,
          'content-length': String(upload.body.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(upload.body);
  });
}

async function tokenOf(authUrl: string): Promise<string> {
  const response = await fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: CLIENT.id, client_secret: CLIENT.secret, audience: AUDIENCE, grant_type: 'client_credentials' }),
  });
  const body = (await response.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`token: ${response.status}`);
  return body.access_token;
}

const percentile = (sorted: number[], p: number) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!);

interface Throughput {
  seconds: number;
  accepted: number;
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
}

/** `CONNECTIONS` clients, each uploading its own 1 MiB PDF again as soon as it is answered. */
async function throughput(started: Started, token: string, seconds: number): Promise<Throughput> {
  const url = new URL(`/api/p/v1/loads/${LOAD_NUMBER}/documents`, started.apiUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const until = performance.now() + seconds * 1000;
  const client = async (index: number) => {
    const upload = multipart(pdfOf(SMALL_BYTES), `bol-${index}.pdf`);
    while (performance.now() < until) {
      const answer = await post(url, token, upload, agent);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.status === 201) latencies.push(answer.ms);
    }
  };
  const begin = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, (_, index) => client(index)));
  const elapsed = (performance.now() - begin) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { seconds: elapsed, accepted: latencies.length, statuses, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? NaN };
}

/** VmRSS and VmHWM of a process, in bytes. */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
}

interface Burst {
  idleRss: number;
  peakRss: number;
  growth: number;
  created: number;
  statuses: Record<string, number>;
  seconds: number;
  downloadUrl: string | null;
  file: Buffer;
}

/** `PARALLEL` uploads of 10 MiB at once while the server's RSS is sampled. */
async function burst(started: Started, token: string): Promise<Burst> {
  const pid = started.child.pid!;
  const url = new URL(`/api/p/v1/loads/${LOAD_NUMBER}/documents`, started.apiUrl);
  const file = pdfOf(LARGE_BYTES);
  const uploads = Array.from({ length: PARALLEL }, (_, index) => multipart(file, `parallel-${index}.pdf`));
  const agent = new Agent({ keepAlive: false, maxSockets: PARALLEL });

  const idle: number[] = [];
  for (let i = 0; i < 50; i++) {
    idle.push(memoryOf(pid).rss);
    await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  }
  idle.sort((a, b) => a - b);
  const idleRss = percentile(idle, 50);
  const hwmBefore = memoryOf(pid).hwm;

  let sampled = 0;
  const sampler = setInterval(() => (sampled = Math.max(sampled, memoryOf(pid).rss)), SAMPLE_MS);
  const begin = performance.now();
  const answers = await Promise.all(uploads.map((upload) => post(url, token, upload, agent)));
  const seconds = (performance.now() - begin) / 1000;
  // A last second of samples: memory freed late (a commit finishing after its answer) still counts.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  clearInterval(sampler);
  const hwmAfter = memoryOf(pid).hwm;
  const peakRss = Math.max(sampled, hwmAfter > hwmBefore ? hwmAfter : 0);
  agent.destroy();

  const statuses: Record<string, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  const created = answers.find((answer) => answer.status === 201);
  const downloadUrl = created ? ((JSON.parse(created.text) as { DownloadUrl: string | null }).DownloadUrl ?? null) : null;
  return { idleRss, peakRss, growth: peakRss - idleRss, created: statuses[201] ?? 0, statuses, seconds, downloadUrl, file };
}

/** The burst's documents as the database holds them. */
async function storedBurst(databaseUrl: string): Promise<{ rows: number; bytes: number }> {
  const db = createDb(databaseUrl);
  try {
    const row = await db
      .selectFrom('documents')
      .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.fn.sum<number>('attachment_size').as('bytes')])
      .where('file_name', 'like', 'parallel-%')
      .executeTakeFirstOrThrow();
    return { rows: Number(row.rows), bytes: Number(row.bytes ?? 0) };
  } finally {
    await db.destroy();
  }
}

const others = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .filter(([code]) => code !== '201')
    .map(([code, count]) => `${code}×${count}`)
    .join(' ') || 'none';
const mib = (bytes: number) => (bytes / MIB).toFixed(1);
const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');

async function benchDatabase(label: string, databaseUrl: string, fixturePath: string): Promise<boolean> {
  console.log(`\n[${label}] load average ${load()} (the machine may be shared: one run is one sample)`);
  let server = await startServer(databaseUrl, fixturePath, false);
  let token = await tokenOf(server.authUrl!);
  await throughput(server, token, WARMUP_SECONDS);
  const run = await throughput(server, token, SECONDS);
  await stop(server);
  const perSecond = run.accepted / run.seconds;
  console.log(
    `[${label}] 1 MiB PDFs, ${CONNECTIONS} clients, ${SECONDS} s   ${perSecond.toFixed(1).padStart(6)} uploads/s  ${(perSecond * (SMALL_BYTES / MIB)).toFixed(1).padStart(6)} MiB/s  ` +
      `p50 ${run.p50.toFixed(0).padStart(5)} ms  p99 ${run.p99.toFixed(0).padStart(5)} ms  max ${run.max.toFixed(0).padStart(5)} ms  other: ${others(run.statuses)}`,
  );

  server = await startServer(databaseUrl, fixturePath, false);
  token = await tokenOf(server.authUrl!);
  // One small upload first, so the burst measures uploads and not the first request's lazy set-up.
  const first = await post(new URL(`/api/p/v1/loads/${LOAD_NUMBER}/documents`, server.apiUrl), token, multipart(pdfOf(SMALL_BYTES), 'first.pdf'), new Agent());
  if (first.status !== 201) throw new Error(`first upload: ${first.status} ${first.text}`);
  const result = await burst(server, token);
  let downloadMatches = false;
  if (result.downloadUrl) {
    // PUBLIC_BASE_URL names port 0 (the server was asked for any port): keep the link's path only.
    const download = await fetch(new URL(new URL(result.downloadUrl).pathname, server.apiUrl));
    downloadMatches = download.status === 200 && Buffer.from(await download.arrayBuffer()).equals(result.file);
  }
  await stop(server);
  const stored = await storedBurst(databaseUrl);
  const met = result.growth < TARGET_GROWTH_MIB * MIB;
  const intact = result.created === PARALLEL && stored.rows === PARALLEL && stored.bytes === PARALLEL * LARGE_BYTES;
  console.log(
    `[${label}] ${PARALLEL} parallel 10 MiB PDFs in ${result.seconds.toFixed(1)} s: idle RSS ${mib(result.idleRss)} MiB, peak ${mib(result.peakRss)} MiB, ` +
      `growth ${mib(result.growth)} MiB (target < ${TARGET_GROWTH_MIB} MiB: ${met ? 'met' : 'MISSED'})`,
  );
  console.log(
    `[${label}] 201s ${result.created}/${PARALLEL} (other: ${others(result.statuses)}), rows ${stored.rows}, bytes ${stored.bytes}: ` +
      `${intact ? 'all stored' : 'MISMATCH'}; one downloaded back ${downloadMatches ? 'identical' : 'DIFFERENT'}`,
  );
  console.log(`[${label}] load average ${load()}`);
  recordResults(`uploads/${label}`, {
    connections: CONNECTIONS,
    seconds: SECONDS,
    uploads_per_s: perSecond,
    mib_per_s: perSecond * (SMALL_BYTES / MIB),
    p50_ms: run.p50,
    p99_ms: run.p99,
    parallel: PARALLEL,
    idle_rss_mib: result.idleRss / MIB,
    peak_rss_mib: result.peakRss / MIB,
    rss_growth_mib: result.growth / MIB,
    rss_growth_target_met: met,
    all_stored: intact,
    download_identical: downloadMatches,
  });
  return met && intact && downloadMatches;
}

async function dropDatabase(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  } finally {
    await admin.end();
  }
}

async function main(): Promise<void> {
  const fixturePath = join(work, 'uploads.json');
  writeFileSync(fixturePath, JSON.stringify(fixture));
  const only = process.env.BENCH_UPLOADS_DB;
  let ok = true;
  try {
    if (only !== 'postgres') ok = (await benchDatabase('sqlite', `sqlite:${join(work, 'uploads.db')}`, fixturePath)) && ok;
    const postgresUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
    if (only !== 'sqlite') {
      if (postgresUrl) {
        // Every run stores gigabytes; the database goes when the run ends.
        try {
          ok = (await benchDatabase('postgres', await createBenchDatabase(postgresUrl, 'waybill_uploads_bench'), fixturePath)) && ok;
        } finally {
          await dropDatabase(postgresUrl, 'waybill_uploads_bench');
        }
      } else console.log('\n[postgres] skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a Postgres server');
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  // A missed target is a finding, not a failure of the run: `npm run bench` goes on to the next.
  if (!ok) console.log('\nuploads: a target or check was missed (see above)');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
