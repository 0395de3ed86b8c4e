import type { ServerResponse } from 'node:http';
import { sendAnswer, type Answer } from '../answer.js';
import type { ApiOutcome, ApiRequest, Outcome } from '../api-request.js';
import { sendStream } from '../stream.js';

/**
 * A refusal before the body (404, 405, 400 version, 401, 429, 403, a refused key): X-Request-Id
 * is set on `res` first, where the host may already have set it with CORS headers.
 */
export function refuse(request: ApiRequest, res: ServerResponse, refusal: Answer): ApiOutcome {
  res.setHeader('X-Request-Id', request.requestId);
  sendAnswer(res, refusal);
  return request.outcome();
}

/**
 * Writes the outcome of the body and the procedure. An answer is kept for the Idempotency-Key
 * (or the key released, per `isStoredOutcome`) before it is sent, unless it is a replay; it
 * carries X-Request-Id in its one header list (adapters/rest/answer.ts). Without a key nothing
 * is awaited. A stream is never kept: its key is released and its body written as it is produced.
 */
export function answer(request: ApiRequest, res: ServerResponse, outcome: Outcome): ApiOutcome | Promise<ApiOutcome> {
  if (outcome.kind === 'stream') return answerStream(request, res, outcome);
  const { key } = request;
  if (key && !outcome.replayed) return key.finish(outcome.answer).then(() => send(request, res, outcome.answer));
  return send(request, res, outcome.answer);
}

function send(request: ApiRequest, res: ServerResponse, answer: Answer): ApiOutcome {
  sendAnswer(res, answer, request.method === 'HEAD', request.requestId);
  return request.outcome();
}

async function answerStream(request: ApiRequest, res: ServerResponse, outcome: Extract<Outcome, { kind: 'stream' }>): Promise<ApiOutcome> {
  await request.key?.release();
  res.setHeader('X-Request-Id', request.requestId);
  // A failure after the status line can only cut the connection: it is logged.
  request.error = await sendStream(res, outcome.status, outcome.headers, outcome.stream, request.method === 'HEAD');
  return request.outcome();
}
