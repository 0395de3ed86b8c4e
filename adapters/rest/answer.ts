import type { ServerResponse } from 'node:http';
import type { Problem } from '../http/problem.js';

/**
 * A whole answer of the REST edge, built before it is written: so that the Idempotency-Key
 * store can keep it for replays (adapters/rest/idempotency-key.ts) without touching `res`.
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  /** The body as sent; undefined for none (204). */
  body?: string;
}

export function problemAnswer(problem: Problem, headers: Record<string, string> = {}): Answer {
  const body = JSON.stringify(problem);
  return {
    status: problem.Status,
    headers: {
      ...headers,
      'Content-Type': 'application/problem+json',
      'Content-Length': String(Buffer.byteLength(body)),
      'Cache-Control': 'no-store',
    },
    body,
  };
}

/** `headers` is handed over: the body's Content-Type and Content-Length are added to it, not to a copy. */
export function jsonAnswer(status: number, output: unknown, headers: Record<string, string>): Answer {
  const body = JSON.stringify(output);
  headers['Content-Type'] = 'application/json; charset=utf-8';
  headers['Content-Length'] = String(Buffer.byteLength(body));
  return { status, headers, body };
}

/**
 * Writes the answer. `requestId` (the X-Request-Id of this request, never part of a stored
 * answer) goes first, in the same one list as the answer's headers: when nothing was set on
 * `res` before, Node writes that list as it is instead of copying each header through
 * setHeader into its own table first.
 */
export function sendAnswer(res: ServerResponse, answer: Answer, head = false, requestId?: string): void {
  if (requestId === undefined) res.writeHead(answer.status, answer.headers);
  else {
    const list = ['X-Request-Id', requestId];
    for (const name in answer.headers) list.push(name, answer.headers[name]!);
    res.writeHead(answer.status, list);
  }
  res.end(head ? undefined : answer.body);
}
