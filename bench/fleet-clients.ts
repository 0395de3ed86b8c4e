import { join } from 'node:path';
import { AUDIENCE } from '../test/harness.js';
import { CLIENTS_PER_TENANT, TENANTS, type Fleet } from './position-fleet.js';
import type { LoadPlan, LoadResult } from './position-load.js';
import { runLoadGenerator } from './server-process.js';

/** One token per client, from the server's own token host (a handful at a time: scrypt is slow on purpose). */
export async function fetchTokens(authUrl: string, clients: readonly { clientId: string; secret: string }[]): Promise<Map<string, string>> {
  const tokens = new Map<string, string>();
  const queue = [...clients];
  const worker = async () => {
    for (let client = queue.shift(); client; client = queue.shift()) {
      const response = await fetch(`${authUrl}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ client_id: client.clientId, client_secret: client.secret, audience: AUDIENCE, grant_type: 'client_credentials' }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`token for ${client.clientId}: ${response.status}`);
      tokens.set(client.clientId, body.access_token);
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return tokens;
}

/** Each truck posts with a token of its own tenant, the tenant's clients taking turns. */
export function slotsOf(fleet: Fleet, tokens: Map<string, string>): LoadPlan['slots'] {
  const clientsOf = new Map<number, string[]>();
  for (const client of fleet.clients) {
    const list = clientsOf.get(client.tenant) ?? [];
    list.push(tokens.get(client.clientId)!);
    clientsOf.set(client.tenant, list);
  }
  return fleet.trucks.map((truck, i) => ({
    truckId: truck.truckId,
    token: clientsOf.get(truck.tenant)![Math.floor(i / TENANTS) % CLIENTS_PER_TENANT]!,
    latitude: truck.latitude,
    longitude: truck.longitude,
  }));
}

/**
 * The fleet's readings posted for `seconds` (bench/position-load.ts), or exactly `{ amount }` of
 * them (one per truck: `slots.length`), the plan written in `work`.
 */
export function postPositions(work: string, url: string, slots: LoadPlan['slots'], length: number | { amount: number }, connections: number): Promise<LoadResult> {
  const timing = typeof length === 'number' ? { seconds: length } : { seconds: 0, amount: length.amount };
  const plan: LoadPlan = { url, prefix: '/api/p/v1.0/assets/', suffix: '/locations', ...timing, connections, slots };
  return runLoadGenerator('position-load.js', join(work, `plan-${Date.now()}.json`), plan);
}

/** Legs of one kind as one: their accepted readings over their seconds, the worse p99. */
export function combinedLegs(runs: readonly LoadResult[]): { rate: number; p99: number } {
  return {
    rate: runs.reduce((sum, run) => sum + run.accepted, 0) / runs.reduce((sum, run) => sum + run.seconds, 0),
    p99: Math.max(...runs.map((run) => run.p99)),
  };
}
