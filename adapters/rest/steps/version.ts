import { edgeKinds } from '../../http/problem.js';
import { problemAnswer, type Answer } from '../answer.js';
import type { ApiRequest } from '../api-request.js';
import { SUPPORTED_VERSIONS, resolveVersion, versionHeaders } from '../versions.js';

/** 400 UnsupportedApiVersion unless the path's version (or the `api-version` header) is served. */
export function version(request: ApiRequest): Answer | undefined {
  const header = request.req.headers['api-version'];
  const resolved = resolveVersion(request.params.version ?? '', typeof header === 'string' ? header : undefined);
  if (resolved) {
    request.version = resolved;
    return undefined;
  }
  const problem = request.problem(edgeKinds.UNSUPPORTED_API_VERSION, `Supported versions: ${SUPPORTED_VERSIONS.join(', ')}.`, {
    extensions: { SupportedVersions: [...SUPPORTED_VERSIONS] },
  });
  return problemAnswer(problem, versionHeaders);
}
