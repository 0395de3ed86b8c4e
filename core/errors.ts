import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';

/**
 * The one error type of the core. `code` says what went wrong in the API's own words;
 * the REST adapter owns the single table that turns it into an HTTP status and a problem
 * `Type`, and tRPC callers see the matching tRPC code. It extends TRPCError so that tRPC
 * passes it through unchanged to `createCaller` users and to the tRPC HTTP adapter.
 */
export type AppErrorCode =
  | 'VALIDATION'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PRECONDITION_FAILED'
  | 'PRECONDITION_REQUIRED'
  | 'UNPROCESSABLE'
  | 'RATE_LIMITED'
  | 'GONE'
  | 'WRITE_NOT_CONFIRMED';

const trpcCodeOf: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  VALIDATION: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
  PRECONDITION_REQUIRED: 'PRECONDITION_REQUIRED',
  UNPROCESSABLE: 'UNPROCESSABLE_CONTENT',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  GONE: 'NOT_FOUND',
  WRITE_NOT_CONFIRMED: 'SERVICE_UNAVAILABLE',
};

export interface AppErrorOptions {
  /** Problem `Type` suffix after the category, e.g. `StaleLocation` for `Conflict/StaleLocation`. */
  subtype?: string;
  /** Field path (PascalCase, dotted) to messages, for validation errors. */
  fieldErrors?: Record<string, string[]>;
  /** Extra PascalCase members of the problem body, e.g. `{ CurrentRecordedAt }`. */
  extensions?: Record<string, unknown>;
  cause?: unknown;
}

export class AppError extends TRPCError {
  readonly appCode: AppErrorCode;
  readonly subtype: string | undefined;
  readonly fieldErrors: Record<string, string[]> | undefined;
  readonly extensions: Record<string, unknown> | undefined;

  constructor(appCode: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super({ code: trpcCodeOf[appCode], message, cause: options.cause });
    this.name = 'AppError';
    this.appCode = appCode;
    this.subtype = options.subtype;
    this.fieldErrors = options.fieldErrors;
    this.extensions = options.extensions;
  }
}

/** A record that does not exist and one the caller may not see must be indistinguishable. */
export function notFound(what: string): AppError {
  return new AppError('NOT_FOUND', `${what} was not found.`);
}

export function validationError(field: string, message: string): AppError {
  return new AppError('VALIDATION', 'One or more fields are invalid.', {
    fieldErrors: { [field]: [message] },
  });
}
