/**
 * The fuel import benchmark's load generator, its own process like position-load.ts. Every
 * request is a new transaction (a TransactionId of its own), the provider clients taking turns
 * round-robin, each posting for a truck and driver of its own tenant. Prints one JSON line.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { LoadResult } from './position-load.js';

export interface FuelLoadPlan {
  url: string;
  seconds: number;
  connections: number;
  /** Distinguishes the runs' TransactionIds, so no run replays another's. */
  run: string;
  slots: { token: string; truckId: string; driverId: string }[];
}

function run(plan: FuelLoadPlan): Promise<LoadResult> {
  let next = 0;
  let sequence = 0;
  const setupRequest = (request: any) => {
    const slot = plan.slots[next]!;
    next = (next + 1) % plan.slots.length;
    sequence += 1;
    request.path = '/api/p/v1.0/fuel';
    request.headers = { ...request.headers, authorization: `Bearer ${slot.token}`, 'content-type': 'application/json' };
    request.body = JSON.stringify({
      TransactionId: `${plan.run}-${sequence}`,
      Source: 'BenchCard',
      TruckId: slot.truckId,
      DriverId: slot.driverId,
      FuelCardNumber: '************4417',
      Category: 'Diesel',
      Location: { Name: 'Bench Truck Stop', City: 'Salina', State: 'KS', Country: 'US' },
      Quantity: { Value: 101.5, UnitOfMeasure: 'Gallons' },
      PricePerUnit: { Amount: 3.8795, Currency: 840 },
      FuelTotal: { Amount: 393.77, Currency: 840 },
      Fees: { Amount: 1.5, Currency: 840 },
      Discounts: { Amount: 4, Currency: 840 },
      Total: { Amount: 391.27, Currency: 840 },
      TransactionDate: new Date().toISOString(),
    });
    return request;
  };
  return new Promise((resolve, reject) => {
    autocannon(
      { url: plan.url, connections: plan.connections, duration: plan.seconds, requests: [{ method: 'POST', setupRequest }] },
      (error: Error | null, result: any) => {
        if (error) return reject(error);
        const statuses: Record<string, number> = {};
        for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = Number((stat as { count: number }).count);
        resolve({
          seconds: plan.seconds,
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

const plan = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as FuelLoadPlan;
run(plan).then(
  (result) => process.stdout.write(JSON.stringify(result) + '\n'),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
