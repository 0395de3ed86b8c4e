import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestTarget } from '../http/request-context.js';
import type { Answer } from './answer.js';
import { ApiRequest, type ApiOutcome, type ApiRouteDeps, type Outcome } from './api-request.js';
import { answer, refuse } from './steps/answer.js';
import { authenticate } from './steps/authenticate.js';
import { authorize } from './steps/authorize.js';
import { body } from './steps/body.js';
import { idempotency } from './steps/idempotency.js';
import { limit } from './steps/limit.js';
import { match } from './steps/match.js';
import { run } from './steps/run.js';
import { version } from './steps/version.js';

type Check = (request: ApiRequest) => Answer | undefined | Promise<Answer | undefined>;

/**
 * The checks before the body, in the order of docs/api-rules.md: route 404/405 → version 400 →
 * authentication 401 → rate limit 429 → scope 403 → Idempotency-Key on POST (400 malformed,
 * 409 RequestInProgress). Each fills in the request or answers a refusal; one that is
 * synchronous returns no promise and is not awaited.
 */
const checks: readonly Check[] = [match, version, authenticate, limit, authorize, idempotency];

/**
 * One request under /api/p/: the checks, then the body (413/415/400; with a key, the replay
 * or 409 IdempotencyKeyReuse) and the procedure, which validates its input and applies the
 * business rules, then the answer.
 */
export async function handleApiRequest(
  deps: ApiRouteDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: RequestTarget,
  requestId: string,
): Promise<ApiOutcome> {
  const request = new ApiRequest(deps, req, url, requestId);
  for (const check of checks) {
    const checked = check(request);
    const refusal = checked instanceof Promise ? await checked : checked;
    if (refusal) return refuse(request, res, refusal);
  }
  let outcome: Outcome;
  try {
    outcome = await body(request, run);
  } catch (error) {
    // No answer to keep: the key is given up, and the host answers the 500.
    await request.key?.release();
    throw error;
  }
  const answered = answer(request, res, outcome);
  return answered instanceof Promise ? await answered : answered;
}
