import { mapError } from '../../http/errors.js';
import { problemAnswer, type Answer } from '../answer.js';
import type { ApiRequest } from '../api-request.js';
import { versionHeaders } from '../versions.js';

/** 401 (with a Bearer challenge) unless the bearer token verifies; the principal otherwise. */
export async function authenticate(request: ApiRequest): Promise<Answer | undefined> {
  const authorization = request.req.headers.authorization;
  try {
    request.principal = await request.deps.verifyBearer(authorization);
    return undefined;
  } catch (error) {
    const mapped = mapError(error, request.deps.baseUrl, request.url.pathname);
    if (mapped.unexpected) request.error = error;
    const challenge = authorization ? 'Bearer error="invalid_token"' : 'Bearer';
    return problemAnswer(mapped.problem, { ...versionHeaders, ...mapped.headers, 'WWW-Authenticate': challenge });
  }
}
