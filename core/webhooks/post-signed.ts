import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
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
  /** application/json (events) unless told: EDI documents go as application/edi-x12. */
  contentType?: string;
  timeoutMs: number;
  /** In production the target is checked again at send time (its DNS may have changed). */
  production: boolean;
}

// Keep-alive pools shared by every attempt: a busy receiver is reached over a few reused
// connections instead of a handshake per event. node:http rather than fetch: it never
// follows redirects, and on this workload it sends several times as many requests per second.
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256 });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256 });

/**
 * One signed POST (docs/api-rules.md#webhooks): only a 2xx is success, redirects are not followed,
 * the whole attempt (connect, answer, reading the capped body) is bounded by the timeout.
 */
export async function postSigned(options: PostOptions): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (options.production) {
    const problem = await targetProblem(options.url, true);
    if (problem) return { status: 'failure', httpStatus: null, durationMs: elapsed(), reason: `The URL ${problem}.`, responseBody: null };
  }
  const url = new URL(options.url);
  const secure = url.protocol === 'https:';
  const body = Buffer.from(options.body, 'utf8');
  return new Promise<PostResult>((resolve) => {
    let settled = false;
    let answer: { status: number; location: string | undefined; chunks: Buffer[]; size: number } | undefined;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const answered = () => {
      if (!answer) return;
      const { status, location } = answer;
      const responseBody = answer.size === 0 ? null : Buffer.concat(answer.chunks).subarray(0, RESPONSE_BODY_CAP).toString('utf8');
      if (status >= 200 && status < 300) finish({ status: 'success', httpStatus: status, reason: null, responseBody });
      else {
        const reason =
          status >= 300 && status < 400
            ? `Redirect to ${location ?? '(no Location)'} not followed; answer with a 2xx.`
            : `The receiver answered HTTP ${status}.`;
        finish({ status: 'failure', httpStatus: status, reason, responseBody });
      }
    };
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        agent: secure ? httpsAgent : httpAgent,
        headers: {
          'content-type': options.contentType ?? 'application/json',
          'content-length': String(body.length),
          'user-agent': 'Waybill-Webhooks/1.0',
          ...options.headers,
        },
      },
      (response: IncomingMessage) => {
        answer = { status: response.statusCode ?? 0, location: response.headers.location, chunks: [], size: 0 };
        const current = answer;
        response.on('data', (chunk: Buffer) => {
          if (current.size < RESPONSE_BODY_CAP) current.chunks.push(chunk);
          current.size += chunk.length;
          // Enough read: the rest is not wanted, and the connection is not reused for it.
          if (current.size >= RESPONSE_BODY_CAP) {
            answered();
            response.destroy();
          }
        });
        response.on('end', answered);
        // A reset after the status line still counts as that answer.
        response.on('error', answered);
        response.on('close', answered);
      },
    );
    const timer = setTimeout(() => {
      if (answer) answered();
      else finish({ status: 'timeout', httpStatus: null, reason: `No answer within ${options.timeoutMs} ms.`, responseBody: null });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (answer) answered();
      else finish({ status: 'failure', httpStatus: null, reason: `Connection failed (${error.code ?? error.message}).`, responseBody: null });
    });
    request.end(body);
  });
}
