import type { AnyTRPCProcedure, AnyTRPCRouter } from '@trpc/server';
import { forEachOpenApiProcedure, getPathParameters, getPathRegExp, type OpenApiMethod } from 'trpc-to-openapi';
import { planProcedure, type ProcedurePlan } from '../../core/procedure-plan.js';
import type { Meta } from '../../core/trpc.js';

export interface Route {
  method: OpenApiMethod;
  /** The OpenAPI path template, e.g. `/api/p/v{version}/subsidiaries/{id}`. */
  template: string;
  /** Dotted tRPC path of the procedure, e.g. `subsidiaries.getSubsidiary`. */
  procedurePath: string;
  meta: Meta;
  /** The procedure's own middleware list (guards, parsers, resolver), read once at startup. */
  plan: ProcedurePlan;
  pathParams: string[];
  /**
   * Whether the edge refuses an empty body: a PUT or PATCH whose input has fields besides the
   * path's, or a POST with a required one. A POST whose body fields are all optional (a
   * tender's cancel with its optional Reason) takes an empty body as `{}`.
   */
  expectsBody: boolean;
  regexp: RegExp;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

export type RouteMatch =
  /** `params`: the template's parameters as sent (still percent-encoded), by name. */
  | { kind: 'found'; route: Route; params: Readonly<Record<string, string>> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

/**
 * Routes come from the procedures' `openapi` meta (trpc-to-openapi reads it and compiles the
 * templates). The first route that matches wins, and the table is ordered by specificity, not
 * by the routers' key order: `/loads/search` comes before `/loads/{loadNumber}` however the
 * procedures are declared. Matching is case-insensitive. Every procedure's middleware list
 * is planned here, so a middleware REST cannot run stops the server at startup.
 */
export function buildRoutes(router: AnyTRPCRouter): Route[] {
  const routes: Route[] = [];
  forEachOpenApiProcedure<Meta>(router._def.procedures, ({ path, meta, procedure }) => {
    const template = meta.openapi.path;
    const plan = planProcedure(path, procedure as unknown as AnyTRPCProcedure);
    const pathParams = getPathParameters(template);
    const isBodyField = (field: string) => field !== 'version' && !pathParams.includes(field);
    const bodyFields = (meta.openapi.method === 'POST' ? plan.requiredInputFields : plan.inputFields).filter(isBodyField);
    routes.push({
      method: meta.openapi.method,
      template,
      procedurePath: path,
      meta,
      plan,
      pathParams,
      expectsBody: BODY_METHODS.has(meta.openapi.method) && bodyFields.length > 0,
      regexp: getPathRegExp(template),
    });
  });
  // Array sort is stable: routes of equal specificity keep their declaration order.
  return routes.sort((a, b) => bySpecificity(a.template, b.template));
}

/**
 * Literal segments before `{param}` ones, compared from the left: of two templates that can
 * match the same path, the one with a literal where the other has a parameter comes first.
 * Literals compare by text and shorter templates first, so this is a total order.
 */
export function bySpecificity(a: string, b: string): number {
  const left = a.toLowerCase().split('/');
  const right = b.toLowerCase().split('/');
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const leftParam = left[i]!.includes('{');
    const rightParam = right[i]!.includes('{');
    if (leftParam !== rightParam) return leftParam ? 1 : -1;
    if (!leftParam && left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1;
  }
  return left.length - right.length;
}

/** Which path segment names the resource: `/api/p/v{version}/<resource>/…` is segment 4. */
const RESOURCE_SEGMENT = 4;

/**
 * The routes a path can match, by its resource segment, each list in table order. Matching is
 * per segment (a parameter never spans a `/`) and case-insensitive, so a route whose resource
 * segment is a literal can match only paths with that segment, lower-cased; routes whose
 * segment is a parameter (or that have none) are in every list. Trying only these keeps the
 * first match and the 405's Allow exactly as a scan of the whole table would, without running
 * a few hundred regular expressions per request.
 */
interface RouteIndex {
  byResource: Map<string, Route[]>;
  anyResource: Route[];
}

const indexes = new WeakMap<Route[], RouteIndex>();

/** The resource segment, found by scanning for slashes (no array of segments per request). */
function resourceOf(path: string): string | null {
  let start = 0;
  for (let segment = 0; segment < RESOURCE_SEGMENT; segment++) {
    const slash = path.indexOf('/', start);
    if (slash === -1) return null;
    start = slash + 1;
  }
  const end = path.indexOf('/', start);
  return (end === -1 ? path.slice(start) : path.slice(start, end)).toLowerCase();
}

function indexOf(routes: Route[]): RouteIndex {
  let index = indexes.get(routes);
  if (index) return index;
  const literal = (route: Route) => {
    const segment = resourceOf(route.template);
    return segment === null || segment.includes('{') ? null : segment;
  };
  const byResource = new Map<string, Route[]>();
  for (const route of routes) {
    const resource = literal(route);
    if (resource !== null && !byResource.has(resource)) {
      byResource.set(resource, routes.filter((candidate) => [resource, null].includes(literal(candidate))));
    }
  }
  index = { byResource, anyResource: routes.filter((route) => literal(route) === null) };
  indexes.set(routes, index);
  return index;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

export function matchRoute(routes: Route[], method: string, pathname: string): RouteMatch {
  const wanted = method === 'HEAD' ? 'GET' : method;
  // Made only for a 405: a found route (the hot path) allocates nothing but its match.
  let allow: Set<string> | undefined;
  const index = indexOf(routes);
  const resource = resourceOf(pathname);
  const candidates = (resource !== null && index.byResource.get(resource)) || index.anyResource;
  for (const route of candidates) {
    const match = route.regexp.exec(pathname);
    if (!match) continue;
    // The match's own groups object (fresh per exec), not a copy of it.
    if (route.method === wanted) return { kind: 'found', route, params: match.groups ?? NO_PARAMS };
    (allow ??= new Set()).add(route.method);
  }
  if (!allow) return { kind: 'not-found' };
  if (allow.has('GET')) allow.add('HEAD');
  return { kind: 'method-not-allowed', allow: [...allow].sort() };
}
