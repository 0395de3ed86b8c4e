import { isSafeText } from '../../core/shared/safe-text.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { FILES_PATH_PREFIX } from '../../core/documents/download-link.js';
import { readDownload } from '../../core/documents/read-download.js';
import type { StoredFile } from '../../core/documents/document.repository.js';
import type { Db } from '../../db/create-db.js';
import { mapError } from '../http/errors.js';
import { buildProblem, edgeKinds, sendProblem } from '../http/problem.js';

export { FILES_PATH_PREFIX };

export interface FileRouteDeps {
  db: Db;
  config: Config;
  clock: Clock;
}

/**
 * `GET /files/{token}` (docs/api-rules.md#documents): no bearer token, the signed link is the
 * credential. Raw bytes, so it is served here rather than through a procedure; the token
 * check and the lookup are the core's (core/documents/read-download.ts).
 */
export async function serveFile(deps: FileRouteDeps, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    req.resume();
    const problem = buildProblem(deps.config.publicBaseUrl, { kind: edgeKinds.METHOD_NOT_ALLOWED, instance: path });
    sendProblem(res, problem, { Allow: 'GET, HEAD' });
    return;
  }
  // A token that is not valid text is no token: the core answers it as any unknown link.
  let token: string;
  try {
    token = decodeURIComponent(path.slice(FILES_PATH_PREFIX.length));
  } catch {
    token = '';
  }
  if (!isSafeText(token)) token = '';
  let file: StoredFile;
  try {
    file = await readDownload(deps, token);
  } catch (error) {
    const mapped = mapError(error, deps.config.publicBaseUrl, path);
    if (mapped.unexpected) throw error;
    sendProblem(res, mapped.problem, mapped.headers);
    return;
  }
  res.writeHead(200, {
    'Content-Type': file.contentType,
    'Content-Length': String(file.size),
    'Content-Disposition': contentDisposition(file.fileName),
    'Cache-Control': 'private, no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  // Piece by piece, each read when the client has taken the last. A failure once the headers are
  // out cannot become a problem: the connection is cut (the host does that for an error thrown
  // after the headers), and Content-Length tells the client the file is short.
  try {
    await pipeline(Readable.from(file.content), res);
  } catch (error) {
    if (!isClientGone(error)) throw error;
  }
}

/** The client closed the connection before the file was sent: nothing to report. */
function isClientGone(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
}

/** `attachment; filename="…"`, plus RFC 6266's `filename*` when the name is not plain ASCII. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const header = `attachment; filename="${ascii}"`;
  return ascii === fileName ? header : `${header}; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
