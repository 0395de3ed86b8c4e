/**
 * The shipper's side of a tender (the REST form of an EDI 204), as a shipper's or broker's
 * system runs it: post the offer, wait for the carrier's answer on a webhook, and read the load
 * the acceptance created.
 *
 * - `(CustomerId, ExternalId)` is an idempotency key: when a post times out, post the same
 *   body again; the answer is the first tender (`Idempotent-Replayed: true`), never a second one.
 * - Webhook deliveries are at-least-once and signed (Standard Webhooks): the receiver verifies
 *   each with the subscription's secret, answers the verify challenge, and deduplicates on
 *   `webhook-id`. `tender.rejected`, `tender.cancelled` and `tender.expired` end the wait too.
 *
 * Run against `npm start` (demo data), with a subscription to `tender.*` whose Url is this
 * receiver (see examples/webhook-receiver.ts for the subscription steps):
 *   WEBHOOK_SECRET=whsec_… PORT=4000 npx tsx examples/shipper-tender.ts
 * then accept the tender as the carrier: POST /tenders/{id}/accept.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { demoApi, type FreightApi } from './integration-client.js';

export interface Tender {
  Id: string;
  ExternalId: string;
  Status: string;
  LoadNumber: string | null;
  RejectionReason: string | null;
  [field: string]: unknown;
}

export interface TenderAnswer {
  type: 'tender.accepted' | 'tender.rejected' | 'tender.cancelled' | 'tender.expired';
  tender: Tender;
}

const ANSWERS = new Set(['tender.accepted', 'tender.rejected', 'tender.cancelled', 'tender.expired']);

export interface TenderReceiver {
  /** The URL to subscribe (…/hooks). */
  url: string;
  /** Resolves with the first answer to the tender (including one that arrived before the call). */
  answerTo(tenderId: string, timeoutMs?: number): Promise<TenderAnswer>;
  close(): Promise<void>;
}

/**
 * A webhook endpoint that verifies deliveries and hands out the answers to tenders. The secret
 * may be given later (a function): the subscription that issues it needs the receiver's URL first.
 */
export async function startTenderReceiver(options: { secret: string | (() => string); port?: number }): Promise<TenderReceiver> {
  const secretOf = typeof options.secret === 'string' ? () => options.secret as string : options.secret;
  const seen = new Set<string>();
  const answers = new Map<string, TenderAnswer>();
  const waiting = new Map<string, (answer: TenderAnswer) => void>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let payload: { challenge?: string; type?: string; data?: Tender };
      try {
        payload = new Webhook(secretOf()).verify(Buffer.concat(chunks).toString('utf8'), req.headers as Record<string, string>) as typeof payload;
      } catch {
        res.writeHead(401).end();
        return;
      }
      if (payload.challenge !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ challenge: payload.challenge }));
        return;
      }
      const id = String(req.headers['webhook-id']);
      if (!seen.has(id) && payload.type && ANSWERS.has(payload.type) && payload.data) {
        seen.add(id);
        const answer = { type: payload.type as TenderAnswer['type'], tender: payload.data };
        if (!answers.has(answer.tender.Id)) answers.set(answer.tender.Id, answer);
        waiting.get(answer.tender.Id)?.(answer);
      }
      // Answer quickly; the work happens after.
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    answerTo(tenderId, timeoutMs = 120_000) {
      const known = answers.get(tenderId);
      if (known) return Promise.resolve(known);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to tender ${tenderId} within ${timeoutMs} ms`)), timeoutMs);
        waiting.set(tenderId, (answer) => {
          clearTimeout(timer);
          waiting.delete(tenderId);
          resolve(answer);
        });
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Posts a tender; a retry of the same body answers the first tender. */
export async function postTender(api: FreightApi, tender: Record<string, unknown>): Promise<Tender> {
  return (await api.call<Tender>('POST', '/tenders', { body: tender })).body;
}

export interface ShipperResult {
  tender: Tender;
  answer: TenderAnswer;
  /** The load the carrier created, when it accepted. */
  load: { LoadNumber: string; Status: string; Trips: Array<{ Stops: unknown[] }> } | null;
}

/** The whole exchange: post, wait for the answer, read the load of an accepted tender. */
export async function offerLoad(api: FreightApi, receiver: TenderReceiver, tender: Record<string, unknown>, timeoutMs?: number): Promise<ShipperResult> {
  const posted = await postTender(api, tender);
  const answer = await receiver.answerTo(posted.Id, timeoutMs);
  const loadNumber = answer.type === 'tender.accepted' ? answer.tender.LoadNumber : null;
  const load = loadNumber ? (await api.call<NonNullable<ShipperResult['load']>>('GET', `/loads/${encodeURIComponent(loadNumber)}`)).body : null;
  return { tender: posted, answer, load };
}

/** A two-stop offer from Salina to the demo's Austin distribution center. */
export function sampleTender(externalId: string): Record<string, unknown> {
  return {
    ExternalId: externalId,
    CustomerId: 'cus_heartland',
    Rate: { Amount: 1850, Currency: 840 },
    Equipment: 'Dry Van 53',
    References: [{ Name: 'PO', Value: externalId }],
    Stops: [
      {
        StopType: 'Pickup',
        ScheduleType: 'APPT',
        AppointmentDate: '2026-12-01T14:00:00Z',
        Address: { Street: '401 N Ohio St', City: 'Salina', State: 'KS', ZipCode: '67401' },
        Coordinates: { Latitude: '38.8403', Longitude: '-97.6114' },
      },
      {
        StopType: 'Delivery',
        ScheduleType: 'FCFS',
        StopWindow: { Begin: '2026-12-02T13:00:00Z', End: '2026-12-02T21:00:00Z' },
        Address: { Street: '2200 Commerce St', City: 'Austin', State: 'TX', ZipCode: '78701' },
        LocationId: 'loc_austin_dc',
      },
    ],
  };
}

async function main(): Promise<void> {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the secret of a tender.* subscription (whsec_…)');
  const receiver = await startTenderReceiver({ secret, port: Number(process.env.PORT ?? 4000) });
  console.log(`receiving webhooks at ${receiver.url}`);
  try {
    const result = await offerLoad(demoApi(), receiver, sampleTender(`PO-${Date.now()}`), 15 * 60_000);
    console.log(`tender ${result.tender.Id}: ${result.answer.type}`);
    if (result.load) console.log(`load ${result.load.LoadNumber} is ${result.load.Status} with ${result.load.Trips[0]?.Stops.length} stops`);
  } finally {
    await receiver.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
