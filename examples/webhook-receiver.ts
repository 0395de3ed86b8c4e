/**
 * A webhook receiver as an integrator writes one, in any stack: verify every delivery with the
 * off-the-shelf `standardwebhooks` package and the subscription's secret, answer the verify
 * challenge, answer 2xx quickly, and deduplicate on `webhook-id` (delivery is at-least-once:
 * a retry or a redelivery after a crash carries the same id).
 *
 *   WEBHOOK_SECRET=whsec_… PORT=4000 npx tsx examples/webhook-receiver.ts
 *
 * then create a subscription with Url http://127.0.0.1:4000/hooks, take the Secret from the
 * answer (or POST /webhooks/{id}/reveal-secret) and POST /webhooks/{id}/verify.
 */
import { createServer } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

const secret = process.env.WEBHOOK_SECRET;
if (!secret) throw new Error('set WEBHOOK_SECRET to the subscription secret (whsec_…)');
const webhook = new Webhook(secret);
const seen = new Set<string>();

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    let payload: { challenge?: string; type?: string; timestamp?: string; data?: unknown };
    try {
      // Checks the signature over "{webhook-id}.{webhook-timestamp}.{body}" and that the timestamp is recent.
      payload = webhook.verify(body, req.headers as Record<string, string>) as typeof payload;
    } catch (error) {
      res.writeHead(error instanceof WebhookVerificationError ? 401 : 400).end();
      return;
    }
    if (payload.challenge !== undefined) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ challenge: payload.challenge }));
      return;
    }
    const id = String(req.headers['webhook-id']);
    if (!seen.has(id)) {
      seen.add(id);
      console.log(`${payload.timestamp} ${payload.type} ${JSON.stringify(payload.data)}`);
    }
    res.writeHead(204).end();
  });
}).listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${process.env.PORT ?? 4000}/hooks`));
