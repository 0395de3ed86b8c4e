import { UNMATCHABLE_ID, isSafeText } from '../../../core/shared/safe-text.js';
import { edgeKinds, problemKinds } from '../../http/problem.js';
import { problemAnswer, type Answer } from '../answer.js';
import type { ApiRequest } from '../api-request.js';
import { matchRoute } from '../routes.js';

/** 404 for a path no operation has, 405 (with Allow) for a method the path does not take. */
export function match(request: ApiRequest): Answer | undefined {
  const found = matchRoute(request.deps.routes, request.method, request.url.pathname);
  if (found.kind === 'not-found') return problemAnswer(request.problem(problemKinds.NOT_FOUND, 'No operation exists at this path.'));
  if (found.kind === 'method-not-allowed') {
    const allow = found.allow.join(', ');
    return problemAnswer(request.problem(edgeKinds.METHOD_NOT_ALLOWED, `Use one of: ${allow}.`), { Allow: allow });
  }
  request.route = found.route;
  const params: Record<string, string> = {};
  for (const name of Object.keys(found.params)) params[name] = pathParameter(found.params[name]!);
  request.params = params;
  return undefined;
}

/**
 * A path parameter as the procedure sees it. One that is not valid percent-encoded UTF-8, or
 * that holds text no record can hold, names no record: it is looked up as an id that matches
 * nothing, so the answer is the operation's own 404, identical to any unknown id's.
 */
function pathParameter(raw: string): string {
  try {
    // Without a '%' there is nothing to decode (and nothing decodeURIComponent could refuse).
    const decoded = raw.includes('%') ? decodeURIComponent(raw) : raw;
    return isSafeText(decoded) ? decoded : UNMATCHABLE_ID;
  } catch {
    return UNMATCHABLE_ID;
  }
}
