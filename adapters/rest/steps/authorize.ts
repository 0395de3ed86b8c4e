import { mapError } from '../../http/errors.js';
import type { Principal } from '../../../core/trpc.js';
import { problemAnswer, type Answer } from '../answer.js';
import type { ApiRequest } from '../api-request.js';

/**
 * The procedure's guards (scopes: 403), run from its plan before the body is read, as the
 * order of checks asks; the `run` step goes on with the context they return.
 */
export function authorize(request: ApiRequest): Answer | undefined {
  try {
    request.ctx = request.route.plan.authorize(request.deps.contextFor(request.principal as Principal, request.req));
    return undefined;
  } catch (error) {
    const mapped = mapError(error, request.deps.baseUrl, request.url.pathname);
    if (mapped.unexpected) request.error = error;
    return problemAnswer(mapped.problem, { ...request.edgeHeaders(), ...mapped.headers });
  }
}
