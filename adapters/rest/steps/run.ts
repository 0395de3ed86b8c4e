import { mapError } from '../../http/errors.js';
import { jsonAnswer, problemAnswer } from '../answer.js';
import type { ApiRequest, Outcome } from '../api-request.js';
import { versionHeaders } from '../versions.js';

/**
 * The rest of the procedure's plan (input parser, resolver, output parser) with the context
 * `authorize` returned, and its answer: the success status, the headers it returned with its
 * result (ETag, Location, Idempotent-Replayed), a JSON body, none (204) or a stream. A thrown
 * error becomes its problem.
 */
export async function run(request: ApiRequest, input: Record<string, unknown>): Promise<Outcome> {
  const { route } = request;
  try {
    const result = await route.plan.run(request.ctx, input);
    const status = route.meta.successStatus ?? 200;
    const headers = successHeaders(request.limitHeaders);
    const returned = result.headers;
    if (returned) {
      if (returned.etag) headers.ETag = returned.etag;
      if (returned.location) headers.Location = returned.location;
      if (returned.replayed) headers['Idempotent-Replayed'] = 'true';
    }
    if (result.stream) return { kind: 'stream', status, headers, stream: result.stream };
    if (status === 204 || result.output === undefined) {
      return { kind: 'answer', answer: { status: status === 200 && result.output === undefined ? 204 : status, headers } };
    }
    return { kind: 'answer', answer: jsonAnswer(status, result.output, headers) };
  } catch (error) {
    const mapped = mapError(error, request.deps.baseUrl, request.url.pathname);
    if (mapped.unexpected) request.error = error;
    return { kind: 'answer', answer: problemAnswer(mapped.problem, { ...request.edgeHeaders(), ...mapped.headers }) };
  }
}

/**
 * The headers of a procedure's answer before its own (ETag, Location, body): one fresh object
 * per answer, in the order the edge has always sent them, built without intermediate copies.
 */
function successHeaders(limitHeaders: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = {
    'Cache-Control': 'no-store',
    'api-version': versionHeaders['api-version'],
    'api-supported-versions': versionHeaders['api-supported-versions'],
  };
  for (const name in limitHeaders) headers[name] = limitHeaders[name]!;
  return headers;
}
