/**
 * Verifying webhook deliveries (Standard Webhooks, as the server signs them in
 * core/webhooks/signing.ts): `webhook-signature` holds space-separated `v1,<base64 HMAC-SHA256
 * of "{webhook-id}.{webhook-timestamp}.{raw body}">` entries, keyed by the base64 part of the
 * `whsec_` secret; two entries during a secret rotation's 24 h overlap. Web Crypto only, so it
 * runs in Node 20+, browsers and edge runtimes.
 */

/** The body of every delivery (docs/api-rules.md#webhooks). */
export interface WebhookEvent<Data = unknown> {
  type: string;
  timestamp: string;
  data: Data;
}

export type WebhookHeaders = Headers | Record<string, string | readonly string[] | undefined>;

export interface VerifyWebhookOptions {
  /** The subscription's `whsec_…` secret; several while moving from one to the next. */
  secret: string | readonly string[];
  /** The request's headers (a fetch `Headers`, or Node's `req.headers`). */
  headers: WebhookHeaders;
  /** The raw body, exactly as received (not re-serialised JSON). */
  body: string | Uint8Array;
  /** How far `webhook-timestamp` may be from now, either way (default 300 s): older deliveries are replays. */
  toleranceSeconds?: number;
  /** Milliseconds since the epoch. */
  now?: number;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

/** The delivery's event when its signature and timestamp are good; a WebhookVerificationError otherwise. */
export async function verifyWebhook<Data = unknown>(options: VerifyWebhookOptions): Promise<WebhookEvent<Data>> {
  const id = headerOf(options.headers, 'webhook-id');
  const timestamp = headerOf(options.headers, 'webhook-timestamp');
  const signature = headerOf(options.headers, 'webhook-signature');
  if (!id || !timestamp || !signature) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a number of seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) throw new WebhookVerificationError('webhook-timestamp is outside the tolerance');

  const encoder = new TextEncoder();
  const body = typeof options.body === 'string' ? encoder.encode(options.body) : options.body;
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(prefix.length + body.length);
  signed.set(prefix);
  signed.set(body, prefix.length);

  const candidates = signature
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => decodeBase64(entry.slice(3)))
    .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes !== undefined);
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret;
  for (const secret of secrets) {
    const keyBytes = decodeBase64(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret);
    if (!keyBytes) throw new WebhookVerificationError('the secret is not whsec_<base64>');
    const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    for (const candidate of candidates) {
      // subtle.verify compares in constant time, so the comparison leaks nothing about the expected MAC.
      if (await crypto.subtle.verify('HMAC', key, candidate, signed)) {
        return JSON.parse(new TextDecoder().decode(body)) as WebhookEvent<Data>;
      }
    }
  }
  throw new WebhookVerificationError('no signature matches');
}

function headerOf(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | readonly string[] | undefined>;
  const value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1];
  return typeof value === 'string' ? value : value?.[0];
}

function decodeBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return undefined;
  }
}
