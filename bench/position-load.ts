/**
 * The position benchmark's load generator, run as its own process so that it never shares an
 * event loop with the server it measures. Reads its plan from the JSON file named on the
 * command line and prints one JSON result line.
 *
 * Every request is a new reading: the trucks take turns (round-robin), each reading moves its
 * truck a little, carries a RecordedAt of the moment it is sent (strictly after the truck's
 * previous one, so none is stale) and an odometer that grows. Each truck is posted with a
 * token of its own tenant.
 *
 * Two ways to send them. By default (autocannon) `connections` connections each post the next
 * reading as soon as the last is answered: a closed loop that runs the server at its limit, so
 * its latency is that limit (by Little's law the mean is `connections` ÷ the rate reached). With
 * `rate`, readings are due at that steady rate whatever the answers do (an open loop, as a
 * fleet's devices send them), each on a free keep-alive connection, and a reading's latency is
 * counted from the moment it was due, not the moment it went out: a server that falls behind
 * shows it in every reading that waited (no coordinated omission). autocannon's own
 * `overallRate` sends each second's quota back to back at the start of the second, a burst
 * every second rather than a steady feed.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import autocannon from 'autocannon';
import { percentile } from './percentile.js';

export interface LoadPlan {
  url: string;
  /** `${prefix}${truckId}${suffix}` is the request path. */
  prefix: string;
  suffix: string;
  seconds: number;
  /** When set, exactly this many requests instead of `seconds` (the result's seconds are measured). */
  amount?: number;
  connections: number;
  /** Readings a second, due at a steady pace (an open loop); `connections` is then ignored. */
  rate?: number;
  slots: { truckId: string; token: string; latitude: number; longitude: number }[];
}

export interface LoadResult {
  seconds: number;
  sent: number;
  accepted: number;
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

/** The trucks' next readings, round-robin: each call answers the path, token and body of one. */
function readings(plan: LoadPlan): () => { path: string; token: string; body: string } {
  const slots = plan.slots.map((slot) => ({ ...slot, lastMs: 0, odometer: 10_000 }));
  let next = 0;
  return () => {
    const slot = slots[next]!;
    next = (next + 1) % slots.length;
    const ms = Math.max(Date.now(), slot.lastMs + 1);
    slot.lastMs = ms;
    slot.latitude += 0.0007;
    slot.longitude += 0.0011;
    slot.odometer += 0.4;
    const body = JSON.stringify({
      Coordinates: { Latitude: slot.latitude.toFixed(5), Longitude: slot.longitude.toFixed(5) },
      RecordedAt: new Date(ms).toISOString(),
      Odometer: Math.round(slot.odometer * 10) / 10,
    });
    return { path: plan.prefix + slot.truckId + plan.suffix, token: slot.token, body };
  };
}

/**
 * A keep-alive HTTP/1.1 connection that carries one request at a time, written and read by
 * hand: node:http's client cost a fifth of a core at 333 requests a second, taken from the
 * server it measures on a small machine. The server answers with a Content-Length or chunked.
 */
class Connection {
  private readonly socket: Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private done: ((status: number) => void) | null = null;
  private failed: ((error: Error) => void) | null = null;
  /** Set once the socket has closed (the server may close an idle keep-alive connection). */
  closed = false;

  constructor(host: string, port: number) {
    this.socket = connect({ host, port, noDelay: true });
    this.socket.on('data', (chunk: Buffer) => this.read(chunk));
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => {
      this.closed = true;
      this.fail(new Error('connection closed'));
    });
  }

  send(head: string, body: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.done = resolve;
      this.failed = reject;
      this.socket.write(head + body);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private fail(error: Error): void {
    const failed = this.failed;
    this.done = this.failed = null;
    failed?.(error);
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const headEnd = this.buffer.indexOf('\r\n\r\n');
    if (headEnd < 0) return;
    const head = this.buffer.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    let end: number;
    if (length) {
      end = headEnd + 4 + Number(length[1]);
      if (this.buffer.length < end) return;
    } else {
      const last = this.buffer.indexOf('\r\n0\r\n\r\n', headEnd);
      if (last < 0) return;
      end = last + 7;
    }
    this.buffer = this.buffer.subarray(end);
    const done = this.done;
    this.done = this.failed = null;
    done?.(Number(head.slice(9, 12)));
  }
}

/** The open loop: a reading due every 1000/rate ms for `seconds`, latency from when it was due. */
async function runAtRate(plan: LoadPlan, rate: number): Promise<LoadResult> {
  const next = readings(plan);
  const url = new URL(plan.url);
  const free: Connection[] = [];
  const all: Connection[] = [];
  const statuses: Record<string, number> = {};
  const latencies: number[] = [];
  let errors = 0;
  const post = async (due: number) => {
    const reading = next();
    let connection = free.pop();
    while (connection?.closed) connection = free.pop();
    if (!connection) all.push((connection = new Connection(url.hostname, Number(url.port))));
    const head =
      `POST ${reading.path} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${reading.token}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(reading.body)}\r\n\r\n`;
    try {
      const status = await connection.send(head, reading.body);
      statuses[status] = (statuses[status] ?? 0) + 1;
      latencies.push(Math.round(performance.now() - due));
      free.push(connection);
    } catch {
      errors++;
      connection.close();
    }
  };
  const interval = 1000 / rate;
  const started = performance.now();
  const end = started + plan.seconds * 1000;
  const pending: Promise<void>[] = [];
  let due = started;
  while (due < end) {
    // Everything due by now goes out; a late wake-up sends the readings it owes at once.
    while (due <= performance.now() && due < end) {
      pending.push(post(due));
      due += interval;
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
  }
  await Promise.all(pending);
  for (const connection of all) connection.close();
  latencies.sort((a, b) => a - b);
  return {
    seconds: plan.seconds,
    sent: pending.length,
    accepted: Object.entries(statuses).reduce((sum, [code, count]) => (code.startsWith('2') ? sum + count : sum), 0),
    statuses,
    errors,
    timeouts: 0,
    p50: percentile(latencies, 50),
    p90: percentile(latencies, 90),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? NaN,
  };
}

function run(plan: LoadPlan): Promise<LoadResult> {
  if (plan.rate) return runAtRate(plan, plan.rate);
  const next = readings(plan);
  const setupRequest = (request: any) => {
    const reading = next();
    request.path = reading.path;
    request.headers = {
      ...request.headers,
      authorization: `Bearer ${reading.token}`,
      'content-type': 'application/json',
    };
    request.body = reading.body;
    return request;
  };
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: plan.url,
        connections: plan.connections,
        ...(plan.amount ? { amount: plan.amount } : { duration: plan.seconds }),
        requests: [{ method: 'POST', setupRequest }],
      },
      (error: Error | null, result: any) => {
        if (error) return reject(error);
        const statuses: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = Number((stat as { count: number }).count);
        resolve({
          seconds: plan.amount ? Number(result.duration) : plan.seconds,
          sent: result.requests.sent,
          accepted: result['2xx'],
          statuses,
          errors: result.errors,
          timeouts: result.timeouts,
          p50: result.latency.p50,
          p90: result.latency.p90,
          p99: result.latency.p99,
          max: result.latency.max,
        });
      },
    );
  });
}

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as LoadPlan;
run(plan).then(
  (result) => process.stdout.write(JSON.stringify(result) + '\n'),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
