/**
 * A broker's loads kept in sync on the carrier's server, as a broker's (or a shipper's TMS)
 * integration runs it on a schedule, keyed by its own record ids, and its webhook receiver.
 *
 * - Each load carries the broker's id in `ExternalIds` (`{ "<source>": "<broker id>" }`); a
 *   (source, id) pair is unique per tenant, so `GET /loads?ExternalId=<source>:<id>` finds the
 *   load of a record, and no two loads can hold the same record.
 * - A record without a load is created with `POST /loads` and an `Idempotency-Key`: a post
 *   whose answer was lost is retried as the identical request and answered with the first
 *   load (`Idempotent-Replayed: true`). A 409 Conflict/Duplicate means another run created it
 *   meanwhile: the record is found again and updated instead.
 * - A changed record is a merge `PATCH /loads/{loadNumber}` of the fields that differ, with
 *   `If-Match` the load's ETag. A 412 means the load changed since it was read (a dispatcher,
 *   another run): read it again, compare again, retry.
 * - A record the broker cancelled cancels its load (`POST /loads/{loadNumber}/cancel`).
 * - A refusal of one record (400, 404, 409 such as Conflict/InvalidState for a load already
 *   moving, or a 412 that outlasts the retries) is an answer for a person, not a failure: it is
 *   reported and the sync goes on with the other records.
 * - Stops are sent once, with the new load; later stop changes are the trip's stop routes.
 * - A second run with the same records changes nothing (no write is sent).
 *
 * The receiver (examples/webhook-receiver.ts: Standard Webhooks signature, verify challenge,
 * deduplication on webhook-id) logs `load.created`, `load.changed`, `load.status.changed` and
 * `trip.changed` of the loads that carry one of the broker's ids.
 *
 * Run against `npm start` (demo data), with a client holding load:create and load:update:
 *   CLIENT_ID=… CLIENT_SECRET=… npx tsx examples/broker-load-sync.ts [records.json]
 * and, to log the events, a subscription to `load.*` and `trip.*` whose Url is this receiver
 * (see examples/webhook-receiver.ts for the subscription steps):
 *   WEBHOOK_SECRET=whsec_… PORT=4000 npx tsx examples/broker-load-sync.ts [records.json]
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiProblem, callWithRetries, demoApi, FreightApi, type RetryOptions } from './integration-client.js';
import { startWebhookReceiver, type ReceivedEvent, type WebhookReceiver } from './webhook-receiver.js';

/** A load as the broker's own system keeps it. */
export interface BrokerLoad {
  /** The broker's id of the load: its `ExternalIds[source]` on the carrier's server. */
  Id: string;
  CustomerId: string;
  OrderNumber: string | null;
  Equipment: string | null;
  /** The pickup appointment and the delivery window, at locations of the carrier. */
  Pickup: { LocationId: string; Appointment: string };
  Delivery: { LocationId: string; WindowBegin: string; WindowEnd: string };
  Cancelled?: boolean;
}

export interface Load {
  LoadNumber: string;
  Status: string;
  CustomerId: string;
  OrderNumber: string | null;
  Equipment: string | null;
  ExternalIds: Record<string, string>;
  [field: string]: unknown;
}

/** What one run did, record by record (broker ids). */
export interface SyncResult {
  created: string[];
  updated: string[];
  cancelled: string[];
  unchanged: string[];
  /** Records the server refused (RECORD_PROBLEMS): the broker id and the problem's Detail, for a person. */
  refused: { id: string; detail: string }[];
  /** Broker id → LoadNumber of every load the run found or created. */
  loadNumbers: Map<string, string>;
}

export interface SyncOptions extends RetryOptions {
  /** The ExternalIds source naming the broker's system (1 to 50 of [A-Za-z0-9._-]). */
  source: string;
  /** How often a PATCH is retried after a 412 before the run gives up on the record. */
  staleRetries?: number;
}

/** The fields a PATCH keeps in step with the broker's record. */
const SYNCED = ['CustomerId', 'OrderNumber', 'Equipment'] as const;
const CANCELLED_BY_BROKER = 'Cancelled by the broker';

/**
 * Answers about one record, for a person: 400 (the record does not make a valid load), 404 (its
 * customer or a location is not the carrier's), 409 (InvalidState: too late for the change;
 * Duplicate: another record holds the id), 412 (the load kept changing under the retries).
 */
const RECORD_PROBLEMS = new Set([400, 404, 409, 412]);

const isProblem = (error: unknown, status: number): error is ApiProblem => error instanceof ApiProblem && error.status === status;

/** The new load of a broker record: one trip from the pickup to the delivery, addresses from the locations. */
export function newLoadOf(record: BrokerLoad, source: string): Record<string, unknown> {
  return {
    CustomerId: record.CustomerId,
    // A create leaves out what the load does not have; only a PATCH clears a field with null.
    ...(record.OrderNumber ? { OrderNumber: record.OrderNumber } : {}),
    ...(record.Equipment ? { Equipment: record.Equipment } : {}),
    ExternalIds: { [source]: record.Id },
    Trips: [
      {
        Stops: [
          { $type: 'appointment', StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: record.Pickup.Appointment, LocationId: record.Pickup.LocationId },
          {
            $type: 'delivery_window',
            StopType: 'Delivery',
            ScheduleType: 'FCFS',
            StopWindow: { Begin: record.Delivery.WindowBegin, End: record.Delivery.WindowEnd },
            LocationId: record.Delivery.LocationId,
          },
        ],
      },
    ],
  };
}

/** The merge patch that brings `load` to `record` (empty when they agree). */
export function patchOf(record: BrokerLoad, load: Load): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const field of SYNCED) if ((record[field] ?? null) !== (load[field] ?? null)) patch[field] = record[field] ?? null;
  return patch;
}

/** The load holding the broker's id, with its ETag, or null. */
async function findLoad(api: FreightApi, source: string, id: string, retry: RetryOptions): Promise<{ load: Load; etag: string } | null> {
  const query = new URLSearchParams({ ExternalId: `${source}:${id}` });
  const page = await callWithRetries<{ Items: Array<{ LoadNumber: string }> }>(api, 'GET', `/loads?${query}`, retry);
  const found = page.body.Items[0];
  return found ? readLoad(api, found.LoadNumber, retry) : null;
}

/** A list item carries no ETag: the load's own read does. */
async function readLoad(api: FreightApi, loadNumber: string, retry: RetryOptions): Promise<{ load: Load; etag: string }> {
  const answer = await callWithRetries<Load>(api, 'GET', `/loads/${encodeURIComponent(loadNumber)}`, retry);
  return { load: answer.body, etag: answer.etag ?? '' };
}

/** Creates the record's load; one Idempotency-Key for every attempt, so a retry never makes a second load. */
async function createLoad(api: FreightApi, record: BrokerLoad, options: SyncOptions): Promise<Load | null> {
  try {
    const answer = await callWithRetries<Load>(api, 'POST', '/loads', { ...options, body: newLoadOf(record, options.source), idempotencyKey: randomUUID() });
    return answer.body;
  } catch (error) {
    // Another run created it since this one looked: the caller updates it instead.
    if (isProblem(error, 409) && error.problem.Type?.endsWith('/Duplicate')) return null;
    throw error;
  }
}

/** PATCHes the differing fields; a 412 (changed meanwhile) re-reads and compares again. Answers whether it wrote. */
async function updateLoad(api: FreightApi, record: BrokerLoad, found: { load: Load; etag: string }, options: SyncOptions): Promise<boolean> {
  let current = found;
  for (let stale = 0; ; stale++) {
    const patch = patchOf(record, current.load);
    // Nothing differs (any more: a re-read may find the change already made by someone else).
    if (Object.keys(patch).length === 0) return false;
    try {
      await callWithRetries(api, 'PATCH', `/loads/${encodeURIComponent(current.load.LoadNumber)}`, { ...options, body: patch, ifMatch: current.etag });
      return true;
    } catch (error) {
      if (!isProblem(error, 412) || stale >= (options.staleRetries ?? 3)) throw error;
      current = await readLoad(api, current.load.LoadNumber, options);
    }
  }
}

/** One run over the broker's records. */
export async function syncBrokerLoads(api: FreightApi, records: readonly BrokerLoad[], options: SyncOptions): Promise<SyncResult> {
  const result: SyncResult = { created: [], updated: [], cancelled: [], unchanged: [], refused: [], loadNumbers: new Map() };
  for (const record of records) {
    try {
      let found = await findLoad(api, options.source, record.Id, options);
      if (!found && record.Cancelled) {
        // Cancelled before it ever reached the carrier: nothing to do.
        result.unchanged.push(record.Id);
        continue;
      }
      if (!found) {
        const created = await createLoad(api, record, options);
        if (created) {
          result.loadNumbers.set(record.Id, created.LoadNumber);
          result.created.push(record.Id);
          continue;
        }
        found = await findLoad(api, options.source, record.Id, options);
        if (!found) throw new Error(`load of ${options.source}:${record.Id} reported a duplicate but cannot be found`);
      }
      result.loadNumbers.set(record.Id, found.load.LoadNumber);
      if (record.Cancelled) {
        if (found.load.Status === 'Cancelled') result.unchanged.push(record.Id);
        else {
          await callWithRetries(api, 'POST', `/loads/${encodeURIComponent(found.load.LoadNumber)}/cancel`, {
            ...options,
            body: { Reason: CANCELLED_BY_BROKER },
            idempotencyKey: randomUUID(),
          });
          result.cancelled.push(record.Id);
        }
        continue;
      }
      (await updateLoad(api, record, found, options) ? result.updated : result.unchanged).push(record.Id);
    } catch (error) {
      // The record's own problem: the others still sync. Anything else (401, 403, 5xx after the retries) stops the run.
      if (!(error instanceof ApiProblem && RECORD_PROBLEMS.has(error.status))) throw error;
      result.refused.push({ id: record.Id, detail: error.problem.Detail ?? error.message });
    }
  }
  return result;
}

/** The events the receiver reports for the broker's loads. */
export const WATCHED_EVENTS = ['load.created', 'load.changed', 'load.status.changed', 'trip.changed'] as const;

export interface BrokerEvent {
  type: (typeof WATCHED_EVENTS)[number];
  loadNumber: string;
  /** The broker's id of the load. */
  brokerId: string;
  webhookId: string;
}

/**
 * A verified, deduplicating webhook receiver that reports the watched events of loads carrying
 * one of the broker's ids: load events carry the load with its ExternalIds, trip events the
 * trip with its LoadNumber, matched against the loads the sync and the load events made known
 * (deliveries arrive side by side, so a trip event may come before its load's: the sync's
 * `loadNumbers` go into `knownLoads`).
 */
export async function startBrokerReceiver(options: {
  source: string;
  secret: string | (() => string);
  stateFile: string;
  port?: number;
  onEvent: (event: BrokerEvent) => void;
}): Promise<WebhookReceiver & { knownLoads: Map<string, string> }> {
  const knownLoads = new Map<string, string>();
  const watched = new Set<string>(WATCHED_EVENTS);
  const receiver = await startWebhookReceiver({
    secret: options.secret,
    stateFile: options.stateFile,
    port: options.port,
    onEvent: (event: ReceivedEvent) => {
      if (!watched.has(event.type)) return;
      const data = (event.data ?? {}) as { LoadNumber?: string; ExternalIds?: Record<string, string> };
      if (!data.LoadNumber) return;
      const brokerId = data.ExternalIds?.[options.source] ?? knownLoads.get(data.LoadNumber);
      // Not one of the broker's loads (or a trip event of one neither the sync nor a load event made known yet).
      if (brokerId === undefined) return;
      knownLoads.set(data.LoadNumber, brokerId);
      options.onEvent({ type: event.type as BrokerEvent['type'], loadNumber: data.LoadNumber, brokerId, webhookId: event.webhookId });
    },
  });
  return Object.assign(receiver, { knownLoads });
}

/** A few records of the demo data's tenant, for `npm start`. */
const DEMO_RECORDS: BrokerLoad[] = [
  {
    Id: 'BRK-5001',
    CustomerId: 'cus_heartland',
    OrderNumber: 'PO-77120',
    Equipment: 'Reefer',
    Pickup: { LocationId: 'loc_kc_terminal', Appointment: '2026-12-01T14:00:00Z' },
    Delivery: { LocationId: 'loc_austin_dc', WindowBegin: '2026-12-02T14:00:00Z', WindowEnd: '2026-12-02T22:00:00Z' },
  },
  {
    Id: 'BRK-5002',
    CustomerId: 'cus_heartland',
    OrderNumber: 'PO-77121',
    Equipment: 'DryVan',
    Pickup: { LocationId: 'loc_kc_terminal', Appointment: '2026-12-03T14:00:00Z' },
    Delivery: { LocationId: 'loc_austin_dc', WindowBegin: '2026-12-04T14:00:00Z', WindowEnd: '2026-12-04T22:00:00Z' },
  },
];

async function main(): Promise<void> {
  const source = process.env.BROKER_SOURCE ?? 'acme-brokerage';
  const records: BrokerLoad[] = process.argv[2] ? JSON.parse(await readFile(process.argv[2], 'utf8')) : DEMO_RECORDS;
  const secret = process.env.WEBHOOK_SECRET;
  const receiver = secret
    ? await startBrokerReceiver({
        source,
        secret,
        stateFile: process.env.STATE_FILE ?? join(tmpdir(), 'broker-receiver-state.json'),
        port: Number(process.env.PORT ?? 4000),
        onEvent: (event) => console.log(`${event.type} ${event.loadNumber} (${source}:${event.brokerId})`),
      })
    : null;
  // The demo's integration client unless another is named: the sync needs load:create and load:update.
  const api = process.env.CLIENT_ID
    ? new FreightApi({
        apiUrl: process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3000',
        authUrl: process.env.PUBLIC_AUTH_URL ?? 'http://127.0.0.1:3001',
        clientId: process.env.CLIENT_ID,
        clientSecret: process.env.CLIENT_SECRET ?? '',
        audience: process.env.API_AUDIENCE ?? 'https://api.freight.local',
      })
    : demoApi();
  const result = await syncBrokerLoads(api, records, { source });
  for (const [id, loadNumber] of result.loadNumbers) receiver?.knownLoads.set(loadNumber, id);
  console.log(
    `created ${result.created.length}, updated ${result.updated.length}, cancelled ${result.cancelled.length}, ` +
      `unchanged ${result.unchanged.length}, refused ${result.refused.length}`,
  );
  for (const refusal of result.refused) console.log(`  ${source}:${refusal.id}: ${refusal.detail}`);
  if (receiver) console.log(`receiving events on ${receiver.url} (Ctrl-C to stop)`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
