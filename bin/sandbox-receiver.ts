import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * The sandbox's own webhook receiver (bin/sandbox-activity.ts points the demo subscription
 * `wh_kc_sandbox` at it), so a newcomer sees real deliveries in
 * `GET /webhooks/wh_kc_sandbox/delivery-logs` without running a receiver first. It checks
 * every signature with the `standardwebhooks` package (401 when forged) and echoes the verify
 * challenge. To show what retries look like, it answers 503 to the first attempt of every third
 * event, which the dispatcher then delivers again after its first retry delay (5 s).
 *
 * It lives as long as the sandbox process and does not keep it alive (unref).
 */
export async function startSandboxReceiver(options: { secret: () => string }): Promise<{ url: string; close(): Promise<void> }> {
  const seen = new Set<string>();
  let events = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let payload: { challenge?: unknown } & Record<string, unknown>;
    try {
      payload = new Webhook(options.secret()).verify(body, req.headers as Record<string, string>) as typeof payload;
    } catch {
      res.writeHead(401).end();
      return;
    }
    if (typeof payload.challenge === 'string') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ challenge: payload.challenge }));
      return;
    }
    const id = String(req.headers['webhook-id']);
    if (!seen.has(id)) {
      seen.add(id);
      if (++events % 3 === 0) {
        res.writeHead(503, { 'Content-Type': 'text/plain' }).end('sandbox receiver: a deliberate first refusal, to show a retry');
        return;
      }
    }
    res.writeHead(204).end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sandbox-receiver`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
