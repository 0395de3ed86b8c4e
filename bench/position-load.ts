/**
 * The position benchmark's load generator, run as its own process so that it never shares an
 * event loop with the server it measures. Reads its plan from the JSON file named on the
 * command line and prints one JSON result line.
 *
 * Every request is a new reading: the trucks take turns (round-robin), each reading moves its
 * truck a little, carries a RecordedAt of the moment it is sent (strictly after the truck's
 * previous one, so none is stale) and an odometer that grows. Each truck is posted with a
 * token of its own tenant.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export interface LoadPlan {
  url: string;
  /** `${prefix}${truckId}${suffix}` is the request path. */
  prefix: string;
  suffix: string;
  seconds: number;
  /** When set, exactly this many requests instead of `seconds` (the result's seconds are measured). */
  amount?: number;
  connections: number;
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

function run(plan: LoadPlan): Promise<LoadResult> {
  const slots = plan.slots.map((slot) => ({ ...slot, lastMs: 0, odometer: 10_000 }));
  let next = 0;
  const setupRequest = (request: any) => {
    const slot = slots[next]!;
    next = (next + 1) % slots.length;
    const ms = Math.max(Date.now(), slot.lastMs + 1);
    slot.lastMs = ms;
    slot.latitude += 0.0007;
    slot.longitude += 0.0011;
    slot.odometer += 0.4;
    request.path = plan.prefix + slot.truckId + plan.suffix;
    request.headers = {
      ...request.headers,
      authorization: `Bearer ${slot.token}`,
      'content-type': 'application/json',
    };
    request.body = JSON.stringify({
      Coordinates: { Latitude: slot.latitude.toFixed(5), Longitude: slot.longitude.toFixed(5) },
      RecordedAt: new Date(ms).toISOString(),
      Odometer: Math.round(slot.odometer * 10) / 10,
    });
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
