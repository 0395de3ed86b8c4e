/**
 * A webhook receiver as an integrator writes one, in any stack: verify every delivery with the
 * off-the-shelf `standardwebhooks` package and the subscription's secret, answer the verify
 * challenge, answer 2xx quickly, and deduplicate on `webhook-id` (delivery is at-least-once:
 * a retry, a redelivery after a crash, a replay or a resend carries the same id). The id is the
 * event's: every subscription receives the event under it, and `GET /events` shows it as the
 * item's `id`, so a receiver that also reads the feed dedupes feed items and deliveries together.
 *
 * It also catches up after its own downtime: it keeps the time of the last event it processed
 * (and the ids it processed lately) in a small state file, and on start-up asks the API to
 * replay what it missed: `POST /webhooks/{id}/replay` with `Since` that time. Deliveries that
 * failed while it was down come again with their first webhook-id, so the ones it did process
 * are recognised and skipped.
 *
 *   WEBHOOK_SECRET=whsec_… WEBHOOK_ID=wh_… STATE_FILE=./receiver-state.json PORT=4000 \
 *     npx tsx examples/webhook-receiver.ts
 *
 * then create a subscription with Url http://127.0.0.1:4000/hooks, take the Secret from the
 * answer (or POST /webhooks/{id}/reveal-secret) and POST /webhooks/{id}/verify. Without
 * WEBHOOK_ID it only receives.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { demoApi, type FreightApi } from './integration-client.js';

/** The API replays at most 14 days; older events are out of reach. */
const REPLAY_WINDOW_MS = 14 * 24 * 60 * 60 * 1000;
/** Ids kept for deduplication across restarts: more than a replay of a busy window could resend twice. */
const RECENT_IDS = 10_000;

export interface ReceivedEvent {
  webhookId: string;
  type: string;
  timestamp: string;
  data: unknown;
}

interface State {
  LastEventAt: string | null;
  RecentIds: string[];
}

export interface WebhookReceiverOptions {
  /** The subscription's secret; a function when it is known only after the receiver's URL is. */
  secret: string | (() => string);
  /** Where the last event's time and the recent ids survive a restart. */
  stateFile: string;
  /** With both, start-up replays what was missed since the last processed event. */
  api?: FreightApi;
  webhookId?: string;
  port?: number;
  /** The work to do for each new event (after deduplication). */
  onEvent?: (event: ReceivedEvent) => void;
  /** For tests: the clock that bounds the replay window. */
  now?: () => number;
}

export interface WebhookReceiver {
  /** The URL to subscribe (…/hooks). */
  url: string;
  /** What the start-up replay queued (null: no replay was asked for). */
  replayed: number | null;
  close(): Promise<void>;
}

async function readState(file: string): Promise<State> {
  try {
    const state = JSON.parse(await readFile(file, 'utf8')) as Partial<State>;
    return { LastEventAt: state.LastEventAt ?? null, RecentIds: state.RecentIds ?? [] };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { LastEventAt: null, RecentIds: [] };
    throw error;
  }
}

/** Written aside and renamed, so a crash mid-write leaves the previous state, never half of one. */
async function writeState(file: string, state: State): Promise<void> {
  await writeFile(`${file}.tmp`, JSON.stringify(state));
  await rename(`${file}.tmp`, file);
}

export async function startWebhookReceiver(options: WebhookReceiverOptions): Promise<WebhookReceiver> {
  const secretOf = typeof options.secret === 'string' ? () => options.secret as string : options.secret;
  const state = await readState(options.stateFile);
  const seen = new Set(state.RecentIds);
  // One state write at a time, in arrival order.
  let saving = Promise.resolve();

  const handle = (event: ReceivedEvent): Promise<void> | undefined => {
    if (seen.has(event.webhookId)) return;
    seen.add(event.webhookId);
    options.onEvent?.(event);
    if (!state.LastEventAt || event.timestamp > state.LastEventAt) state.LastEventAt = event.timestamp;
    state.RecentIds.push(event.webhookId);
    if (state.RecentIds.length > RECENT_IDS) seen.delete(state.RecentIds.shift()!);
    const snapshot = { LastEventAt: state.LastEventAt, RecentIds: [...state.RecentIds] };
    saving = saving.then(() => writeState(options.stateFile, snapshot));
    return saving;
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let payload: { challenge?: string; type?: string; timestamp?: string; data?: unknown };
      try {
        // Checks the signature over "{webhook-id}.{webhook-timestamp}.{body}" and that the timestamp is recent.
        payload = new Webhook(secretOf()).verify(body, req.headers as Record<string, string>) as typeof payload;
      } catch (error) {
        res.writeHead(error instanceof WebhookVerificationError ? 401 : 400).end();
        return;
      }
      if (payload.challenge !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ challenge: payload.challenge }));
        return;
      }
      const event = { webhookId: String(req.headers['webhook-id']), type: String(payload.type), timestamp: String(payload.timestamp), data: payload.data };
      // 2xx only once the event is on disk: a failed write is answered 500 and the delivery retried.
      Promise.resolve(handle(event)).then(
        () => res.writeHead(204).end(),
        () => res.writeHead(500).end(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  let replayed: number | null = null;
  if (options.api && options.webhookId && state.LastEventAt) {
    // From the last processed event (inclusive: its id is remembered), but never beyond what the API replays.
    const earliest = new Date((options.now ?? Date.now)() - REPLAY_WINDOW_MS + 60_000).toISOString();
    const since = state.LastEventAt > earliest ? state.LastEventAt : earliest;
    const answer = await options.api.call<{ Queued: number }>('POST', `/webhooks/${encodeURIComponent(options.webhookId)}/replay`, {
      body: { Since: since },
    });
    replayed = answer.body.Queued;
  }

  return {
    url: `http://127.0.0.1:${port}/hooks`,
    replayed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function main(): Promise<void> {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) throw new Error('set WEBHOOK_SECRET to the subscription secret (whsec_…)');
  const webhookId = process.env.WEBHOOK_ID;
  const receiver = await startWebhookReceiver({
    secret,
    stateFile: process.env.STATE_FILE ?? './receiver-state.json',
    port: Number(process.env.PORT ?? 4000),
    ...(webhookId ? { api: demoApi(), webhookId } : {}),
    onEvent: (event) => console.log(`${event.timestamp} ${event.type} ${JSON.stringify(event.data)}`),
  });
  console.log(`listening on ${receiver.url}${receiver.replayed === null ? '' : `; ${receiver.replayed} missed deliveries queued again`}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
