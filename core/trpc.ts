import './shared/validation-messages.js';
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import type { Db } from '../db/create-db.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Disconnection } from './events/feed-signal.js';
import { AppError } from './errors.js';

/** Who is calling: the verified claims of a bearer token. */
export interface Principal {
  TenantId: string;
  /** Set for subsidiary-bound clients: they see only that subsidiary's records. */
  SubsidiaryId: string | null;
  ClientId: string;
  Scopes: string[];
}

export interface Context {
  db: Db;
  clock: Clock;
  config: Config;
  principal: Principal | null;
  /** Request preconditions the caller sent (the REST adapter fills it from headers). */
  request?: RequestHints;
}

export interface RequestHints {
  /** The raw If-Match value, when sent. */
  ifMatch?: string;
  /** The raw Accept value, when sent (format negotiation of exports). */
  accept?: string;
  /** The client's connection: a long poll (GET /events with Wait) ends when it closes. */
  connection?: Disconnection;
}

export interface ProcedureMeta {
  /** Every scope listed is required (checked before the input is validated). */
  scopes?: string[];
  /** Status of a successful REST answer; 200 when absent. */
  successStatus?: 200 | 201 | 202 | 204;
  /** Largest accepted REST body in bytes; 1 MiB when absent. */
  bodyLimit?: number;
  /** Media type → JSON Schema of a success body the procedure answers with `streamed(...)` (OpenAPI). */
  streamedResponse?: Record<string, object>;
  /**
   * A document upload: the REST body is `multipart/form-data` with a `File` part (staged by
   * the edge, given to the input as an UploadedFile) and a `DocumentType` part, one of these.
   */
  upload?: { documentTypes: readonly string[] };
  /**
   * A raw text body (an X12 interchange): the REST edge reads the body in one of these media
   * types (any charset parameter; others 415), at most `limit` bytes (413), decodes it as
   * UTF-8 (400 otherwise) and hands it to the input as `{ Interchange: text }`.
   */
  rawText?: RawTextBody;
}

/** A raw text body's rules: the edge enforces the media types and the limit, the procedure the rest; all are in the document. */
export interface RawTextBody {
  contentTypes: readonly string[];
  limit: number;
  description: string;
  /** What the text must be at least, and start with, when the procedure refuses anything else. */
  minLength?: number;
  pattern?: string;
}

export type Meta = OpenApiMeta<ProcedureMeta>;

const t = initTRPC.context<Context>().meta<Meta>().create({
  // Internal apps over tRPC HTTP get tRPC's envelope; no stack traces leave the server.
  isDev: false,
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure;

/** The scopes of `required` the principal lacks. */
function missingScopes(principal: Principal, required: readonly string[] | undefined): string[] {
  return (required ?? []).filter((scope) => !principal.Scopes.includes(scope));
}

/**
 * A middleware that only looks at the context and the procedure's meta, and returns the
 * context for the next step (or throws an AppError). Procedures use guards, never plain
 * tRPC middleware: tRPC's chain runs a guard as a middleware, and the REST edge runs the
 * same function from the procedure's own middleware list (`core/procedure-plan.ts`), which
 * refuses to start on a middleware that is not a guard. So a rule added here holds for
 * REST, tRPC HTTP and `createCaller` alike.
 */
export type Guard<Out extends Context = Context> = (opts: { ctx: Context; meta: Meta | undefined }) => Out;

const guardsByMiddleware = new WeakMap<object, Guard>();

/** The guard behind one of a procedure's middlewares; undefined for anything else. */
export function guardOf(middleware: object): Guard | undefined {
  return guardsByMiddleware.get(middleware);
}

export function guardMiddleware<Out extends Context>(guard: Guard<Out>) {
  const builder = t.middleware(({ ctx, meta, next }) => next({ ctx: guard({ ctx, meta }) }));
  for (const middleware of builder._middlewares) guardsByMiddleware.set(middleware, guard as Guard);
  return builder;
}

/**
 * Requires a principal and every scope in the procedure's `meta.scopes`. It runs before the
 * input parser, so the order is authentication, then scope, then validation.
 */
export const requireAuthorization: Guard<Context & { principal: Principal }> = ({ ctx, meta }) => {
  const principal = ctx.principal;
  if (!principal) throw new AppError('UNAUTHORIZED', 'A valid bearer token is required.');
  const missing = missingScopes(principal, meta?.scopes);
  if (missing.length > 0) {
    throw new AppError('FORBIDDEN', `The token lacks the scope ${missing.join(' ')}.`);
  }
  return ctx as Context & { principal: Principal };
};

/** Every API procedure starts here: authenticated, with the scopes its meta lists. */
export const authedProcedure = t.procedure.use(guardMiddleware(requireAuthorization));
