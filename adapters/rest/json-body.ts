import type { IncomingMessage } from 'node:http';
import { decodeUtf8, readBody } from '../http/read-body.js';

export { DEFAULT_BODY_LIMIT } from '../http/read-body.js';

export type BodyFailure =
  | { kind: 'too-large' }
  | { kind: 'unsupported-media-type'; mediaType: string }
  | { kind: 'invalid'; message: string };

/** `raw` is the body's bytes as received (the Idempotency-Key fingerprint). */
export type BodyResult = { ok: true; value: Record<string, unknown> | undefined; raw: Buffer } | { ok: false; failure: BodyFailure };

/**
 * docs/api-rules.md#requests-and-responses: request bodies are JSON in `application/json`, `text/json`,
 * `application/*+json` or `application/json-patch+json` (still a plain object, not RFC 6902).
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType === 'text/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(mediaType);
}

/** An empty body is "no body"; anything else must be a JSON object in one of the four media types. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const raw = await readBody(req, limit);
  if (raw === 'too-large') return { ok: false, failure: { kind: 'too-large' } };
  if (raw.length === 0) return { ok: true, value: undefined, raw };
  const contentType = req.headers['content-type'];
  if (!isJsonMediaType(contentType)) {
    return { ok: false, failure: { kind: 'unsupported-media-type', mediaType: contentType ?? '(none)' } };
  }
  const text = decodeUtf8(raw);
  if (text === null) return { ok: false, failure: { kind: 'invalid', message: 'The request body is not valid UTF-8.' } };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, failure: { kind: 'invalid', message: 'The request body is not valid JSON.' } };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, failure: { kind: 'invalid', message: 'The request body must be a JSON object.' } };
  }
  return { ok: true, value: parsed as Record<string, unknown>, raw };
}
