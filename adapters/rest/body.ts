import type { IncomingMessage } from 'node:http';

/** Default body limit (DECISIONS: 1 MiB); routes may set a smaller one (8 KiB on positions). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export type BodyFailure =
  | { kind: 'too-large' }
  | { kind: 'unsupported-media-type'; mediaType: string }
  | { kind: 'invalid'; message: string };

export type BodyResult = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; failure: BodyFailure };

/**
 * Spec section 4: request bodies are JSON in `application/json`, `text/json`,
 * `application/*+json` or `application/json-patch+json` (still a plain object, not RFC 6902).
 */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType === 'text/json' || /^application\/[a-z0-9.!#$&^_-]+\+json$/.test(mediaType);
}

/**
 * Reads the body up to `limit` bytes. The declared Content-Length is checked first so an
 * oversized upload is refused without reading it; a body that lies about its length is cut
 * off when the limit is passed.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve('too-large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.resume();
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!done) resolve(Buffer.concat(chunks));
    });
    req.on('error', (error) => {
      if (!done) reject(error);
    });
  });
}

/** An empty body is "no body"; anything else must be a JSON object in one of the four media types. */
export async function readJsonObject(req: IncomingMessage, limit: number): Promise<BodyResult> {
  const raw = await readBody(req, limit);
  if (raw === 'too-large') return { ok: false, failure: { kind: 'too-large' } };
  if (raw.length === 0) return { ok: true, value: undefined };
  const contentType = req.headers['content-type'];
  if (!isJsonMediaType(contentType)) {
    return { ok: false, failure: { kind: 'unsupported-media-type', mediaType: contentType ?? '(none)' } };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    return { ok: false, failure: { kind: 'invalid', message: 'The request body is not valid JSON.' } };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, failure: { kind: 'invalid', message: 'The request body must be a JSON object.' } };
  }
  return { ok: true, value: parsed as Record<string, unknown> };
}
