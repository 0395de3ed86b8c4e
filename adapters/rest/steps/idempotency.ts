import type { Principal } from '../../../core/trpc.js';
import type { Answer } from '../answer.js';
import type { ApiRequest } from '../api-request.js';
import { startIdempotencyKey } from '../idempotency-key.js';

/**
 * The Idempotency-Key of a POST (400 malformed, 409 RequestInProgress), claimed after the
 * scope check and before the body: refusals of the credential (401, 403, 429) never touch a
 * key, and a busy key is refused at once. A held key fences the request's database, so the
 * procedure's write transaction marks the key committed; its fingerprint is checked once the
 * body is read (the `body` step).
 */
export function idempotency(request: ApiRequest): Answer | undefined | Promise<Answer | undefined> {
  return request.method === 'POST' ? holdKey(request) : undefined;
}

async function holdKey(request: ApiRequest): Promise<Answer | undefined> {
  const { ctx, req } = request;
  const held = await startIdempotencyKey({
    db: ctx.db,
    clock: ctx.clock,
    baseUrl: request.deps.baseUrl,
    principal: request.principal as Principal,
    header: req.headers['idempotency-key'],
    instance: request.url.pathname,
    secretKey: ctx.config.secretKey,
  });
  if (held.kind === 'refused') {
    req.resume();
    return { ...held.answer, headers: { ...request.edgeHeaders(), ...held.answer.headers } };
  }
  if (held.kind === 'held') {
    request.key = held.key;
    request.ctx = { ...ctx, db: held.key.fence(ctx.db) };
  }
  return undefined;
}
