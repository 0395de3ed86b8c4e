import type { IncomingMessage } from 'node:http';
import { decodeUtf8, readBody } from '../http/read-body.js';
import type { BodyFailure } from './json-body.js';

/** `value` is the procedure's input (`Interchange`: the text), `raw` the bytes as received (the Idempotency-Key fingerprint). */
export type RawTextResult = { ok: true; value: { Interchange: string }; raw: Buffer } | { ok: false; failure: BodyFailure };

/**
 * A raw text body (core `meta.rawText`): one of the route's media types, whatever its charset
 * parameter says (the text is always read as UTF-8, and bytes that are not UTF-8 are a 400
 * rather than replaced), at most `limit` bytes. An empty body (whatever its media type) is
 * empty text, which the procedure's input refuses with a 400 naming `Interchange`.
 */
export async function readRawText(req: IncomingMessage, rule: { contentTypes: readonly string[]; limit: number }): Promise<RawTextResult> {
  const raw = await readBody(req, rule.limit);
  if (raw === 'too-large') return { ok: false, failure: { kind: 'too-large' } };
  const contentType = req.headers['content-type'];
  const mediaType = contentType?.split(';')[0]!.trim().toLowerCase() ?? '';
  if (raw.length > 0 && !rule.contentTypes.includes(mediaType)) {
    return { ok: false, failure: { kind: 'unsupported-media-type', mediaType: contentType ?? '(none)' } };
  }
  const text = decodeUtf8(raw);
  if (text === null) return { ok: false, failure: { kind: 'invalid', message: 'The request body is not valid UTF-8.' } };
  return { ok: true, value: { Interchange: text }, raw };
}
