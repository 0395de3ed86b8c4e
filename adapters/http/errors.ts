import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import type { z } from 'zod';
import { AppError, type AppErrorCode } from '../../core/errors.js';
import { buildProblem, edgeKinds, problemKinds, type Problem } from './problem.js';
import { errorsFromIssues } from './validation.js';

export interface MappedError {
  problem: Problem;
  headers: Record<string, string>;
  /** True for errors the server did not expect: logged with their stack, answered as a bare 500. */
  unexpected: boolean;
}

// Errors that tRPC raises itself (never from our code) and the app code they mean.
const fromTrpcCode: Partial<Record<TRPC_ERROR_CODE_KEY, AppErrorCode>> = {
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  PRECONDITION_FAILED: 'PRECONDITION_FAILED',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
};

function validationIssues(error: TRPCError): ReadonlyArray<z.core.$ZodIssue> | undefined {
  const cause = error.cause as { issues?: unknown } | undefined;
  return error.code === 'BAD_REQUEST' && Array.isArray(cause?.issues) ? (cause.issues as z.core.$ZodIssue[]) : undefined;
}

/** Any thrown value → a problem body. No stack, SQL or message of an unexpected error leaks. */
export function mapError(error: unknown, baseUrl: string, instance: string): MappedError {
  if (error instanceof AppError) {
    const problem = buildProblem(baseUrl, {
      kind: problemKinds[error.appCode],
      subtype: error.subtype,
      detail: error.message,
      instance,
      errors: error.fieldErrors,
      extensions: error.extensions,
    });
    return { problem, headers: error.appCode === 'UNAUTHORIZED' ? { 'WWW-Authenticate': 'Bearer' } : {}, unexpected: false };
  }
  if (error instanceof TRPCError) {
    const issues = validationIssues(error);
    if (issues) {
      const problem = buildProblem(baseUrl, {
        kind: problemKinds.VALIDATION,
        detail: 'See Errors for the fields to correct.',
        instance,
        errors: errorsFromIssues(issues),
      });
      return { problem, headers: {}, unexpected: false };
    }
    const appCode = fromTrpcCode[error.code];
    if (appCode) {
      return { problem: buildProblem(baseUrl, { kind: problemKinds[appCode], instance }), headers: {}, unexpected: false };
    }
  }
  return { problem: buildProblem(baseUrl, { kind: edgeKinds.INTERNAL, instance }), headers: {}, unexpected: true };
}
