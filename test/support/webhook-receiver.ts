import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { vi } from 'vitest';
import type { Clock } from '../../core/clock.js';

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Responder = (request: ReceivedRequest, res: ServerResponse) => void;

/** Answers 200 `ok`. */
export const acceptAll: Responder = (_request, res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('ok');
};

/** A real HTTP receiver on a free port that records every request, as an integrator's endpoint would see it. */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  /** How the next requests are answered (200 by default). */
  respond: Responder;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = {
    url: '',
    requests: [],
    respond: acceptAll,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.requests.push(request);
      receiver.respond(request, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

/**
 * Verifies a received request with the `standardwebhooks` package, as an integrator would.
 * The package checks `webhook-timestamp` against the wall clock (5 minutes' tolerance), so
 * the check runs with the system time set to the server's (manual) clock.
 */
export function verifyDelivery(secret: string, request: ReceivedRequest, clock: Clock): unknown {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(clock.now());
    return new Webhook(secret).verify(request.body, headers);
  } finally {
    vi.useRealTimers();
  }
}
