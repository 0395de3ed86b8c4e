import type { ServerResponse } from 'node:http';
import type { Problem } from './problem.js';

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

export function jsonAnswer(status: number, output: unknown, headers: Record<string, string>): Answer {
  const body = JSON.stringify(output);
  return {
    status,
    headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(Buffer.byteLength(body)) },
    body,
  };
}

export function sendAnswer(res: ServerResponse, answer: Answer, head = false): void {
  res.writeHead(answer.status, answer.headers);
  res.end(head ? undefined : answer.body);
}
