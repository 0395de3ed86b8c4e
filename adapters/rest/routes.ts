import type { AnyTRPCProcedure, AnyTRPCRouter } from '@trpc/server';
import { forEachOpenApiProcedure, getInputOutputParsers, getPathParameters, getPathRegExp, type OpenApiMethod } from 'trpc-to-openapi';
import type { z } from 'zod';
import { directResolver, type DirectResolver, type Meta } from '../../core/trpc.js';

export interface Route {
  method: OpenApiMethod;
  /** The spec path template, e.g. `/api/p/v{version}/subsidiaries/{id}`. */
  template: string;
  /** Dotted tRPC path of the procedure, e.g. `subsidiaries.getSubsidiary`. */
  procedurePath: string;
  meta: Meta;
  /** The procedure itself, resolved once so a request does not look it up by path. */
  procedure: AnyTRPCProcedure;
  /** Set for procedures defined with defineQuery/defineMutation: the REST fast path. */
  direct: { resolver: DirectResolver; input: z.ZodType; output: z.ZodType | undefined } | undefined;
  pathParams: string[];
  regexp: RegExp;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' };

/**
 * Routes come from the procedures' `openapi` meta (trpc-to-openapi reads it and compiles the
 * templates); the table keeps registration order, and the first route that matches wins, as
 * in the library's own handler. Matching is case-insensitive.
 */
export function buildRoutes(router: AnyTRPCRouter): Route[] {
  const routes: Route[] = [];
  forEachOpenApiProcedure<Meta>(router._def.procedures, ({ path, meta, procedure }) => {
    const template = meta.openapi.path;
    const resolver = (procedure as { [directResolver]?: DirectResolver })[directResolver];
    const parsers = getInputOutputParsers(procedure);
    routes.push({
      method: meta.openapi.method,
      template,
      procedurePath: path,
      meta,
      procedure: procedure as unknown as AnyTRPCProcedure,
      direct: resolver
        ? { resolver, input: parsers.inputParser as z.ZodType, output: parsers.outputParser as z.ZodType | undefined }
        : undefined,
      pathParams: getPathParameters(template),
      regexp: getPathRegExp(template),
    });
  });
  return routes;
}

export function matchRoute(routes: Route[], method: string, pathname: string): RouteMatch {
  const wanted = method === 'HEAD' ? 'GET' : method;
  const allow = new Set<string>();
  for (const route of routes) {
    const match = route.regexp.exec(pathname);
    if (!match) continue;
    if (route.method === wanted) {
      return { kind: 'found', route, params: { ...(match.groups ?? {}) } };
    }
    allow.add(route.method);
  }
  if (allow.size === 0) return { kind: 'not-found' };
  if (allow.has('GET')) allow.add('HEAD');
  return { kind: 'method-not-allowed', allow: [...allow].sort() };
}
