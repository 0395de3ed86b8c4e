import { performance } from 'node:perf_hooks';
import type { SignedHeaders } from './signing.js';
import { targetProblem } from './target-url.js';

/** How much of a receiver's answer is read and kept: enough to debug, never a large download. */
export const RESPONSE_BODY_CAP = 2048;

export type AttemptStatus = 'success' | 'failure' | 'timeout';

export interface PostResult {
  status: AttemptStatus;
  httpStatus: number | null;
  durationMs: number;
  reason: string | null;
  /** The start of the answer, at most RESPONSE_BODY_CAP bytes, as text. */
  responseBody: string | null;
}

export interface PostOptions {
  url: string;
  body: string;
  headers: SignedHeaders;
  timeoutMs: number;
  /** In production the target is checked again at send time (its DNS may have changed). */
  production: boolean;
}

/**
 * One signed POST (DECISIONS "Webhooks"): only a 2xx is success, redirects are not followed,
 * the whole attempt (connect, answer, reading the capped body) is bounded by the timeout.
 */
export async function postSigned(options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (options.production) {
    const problem = await targetProblem(options.url, true);
    if (problem) return { status: 'failure', httpStatus: null, durationMs: elapsed(), reason: `The URL ${problem}.`, responseBody: null };
  }
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs);
  try {
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Waybill-Webhooks/1.0', ...options.headers },
        body: options.body,
        redirect: 'manual',
        signal: controller.signal,
      });
    } catch (error) {
      if (timedOut) return { status: 'timeout', httpStatus: null, durationMs: elapsed(), reason: `No answer within ${options.timeoutMs} ms.`, responseBody: null };
      return { status: 'failure', httpStatus: null, durationMs: elapsed(), reason: networkReason(error), responseBody: null };
    }
    const responseBody = await readCapped(response);
    const httpStatus = response.status;
    if (httpStatus >= 200 && httpStatus < 300) return { status: 'success', httpStatus, durationMs: elapsed(), reason: null, responseBody };
    const reason =
      httpStatus >= 300 && httpStatus < 400
        ? `Redirect to ${response.headers.get('location') ?? '(no Location)'} not followed; answer with a 2xx.`
        : `The receiver answered HTTP ${httpStatus}.`;
    return { status: 'failure', httpStatus, durationMs: elapsed(), reason, responseBody };
  } finally {
    clearTimeout(timer);
  }
}

/** Reads at most RESPONSE_BODY_CAP bytes and drops the rest; a body cut off by the timeout keeps what arrived. */
async function readCapped(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < RESPONSE_BODY_CAP) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // Aborted by the timeout or reset by the peer after answering: the status still counts.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  if (size === 0) return null;
  return Buffer.concat(chunks).subarray(0, RESPONSE_BODY_CAP).toString('utf8');
}

function networkReason(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if (cause?.code) return `Connection failed (${cause.code}).`;
  return `Connection failed (${cause?.message ?? (error instanceof Error ? error.message : String(error))}).`;
}
