import type { ServerResponse } from 'node:http';
import type { StreamedBody } from '../../core/answer-headers.js';

/**
 * Writes a streamed body (exports) as it is produced, waiting for the socket to drain so
 * memory stays flat however long it is. The first chunk is produced before the status line,
 * so a failure there still becomes an ordinary problem answer (the error is rethrown); a
 * failure later can only cut the connection, and is returned for the log.
 */
export async function sendStream(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: StreamedBody,
  headOnly: boolean,
): Promise<unknown> {
  const iterator = body.chunks[Symbol.asyncIterator]();
  const first = headOnly ? undefined : await iterator.next();
  headers['Content-Type'] = body.contentType;
  if (body.fileName) headers['Content-Disposition'] = `attachment; filename="${body.fileName.replace(/[^A-Za-z0-9._-]/g, '_')}"`;
  res.writeHead(status, headers);
  if (!first) {
    res.end();
    return undefined;
  }
  try {
    for (let step = first; !step.done; step = await iterator.next()) {
      if (res.destroyed) break;
      if (!res.write(step.value)) await drained(res);
    }
    if (res.destroyed) await iterator.return?.();
    else res.end();
    return undefined;
  } catch (error) {
    res.destroy();
    return error;
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
