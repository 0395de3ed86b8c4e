import type { IncomingMessage } from 'node:http';

/** Default body limit (docs/api-rules.md#requests-and-responses: 1 MiB); routes may set a smaller one (8 KiB on positions). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

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

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The body as text, or null when it is not valid UTF-8: decoding leniently would turn the bad
 * bytes into U+FFFD and store text the client never sent.
 */
export function decodeUtf8(raw: Buffer): string | null {
  try {
    return strictUtf8.decode(raw);
  } catch {
    return null;
  }
}
