import type { ServerResponse } from 'node:http';
import type { AppErrorCode } from '../../core/errors.js';

/** docs/api-rules.md#problems: `{Type, Title, Status, Detail, Instance}` plus `Errors` on validation problems. */
export interface Problem {
  Type: string;
  Title: string;
  Status: number;
  Detail: string | null;
  Instance: string | null;
  Errors?: Record<string, string[]>;
  [extension: string]: unknown;
}

export interface ProblemKind {
  status: number;
  category: string;
  title: string;
}

/** The one table from the core's error codes to HTTP (ARCHITECTURE: "the adapter owns it"). */
export const problemKinds: Record<AppErrorCode, ProblemKind> = {
  VALIDATION: { status: 400, category: 'Validation', title: 'One or more validation errors occurred.' },
  UNAUTHORIZED: { status: 401, category: 'Unauthorized', title: 'Authentication is required.' },
  FORBIDDEN: { status: 403, category: 'Forbidden', title: 'The token is not allowed to do this.' },
  NOT_FOUND: { status: 404, category: 'NotFound', title: 'The resource was not found.' },
  CONFLICT: { status: 409, category: 'Conflict', title: 'The request conflicts with the current state.' },
  PRECONDITION_FAILED: { status: 412, category: 'PreconditionFailed', title: 'The If-Match precondition failed.' },
  PRECONDITION_REQUIRED: { status: 428, category: 'PreconditionRequired', title: 'An If-Match header is required.' },
  UNPROCESSABLE: { status: 422, category: 'Unprocessable', title: 'The request was understood but refused.' },
  RATE_LIMITED: { status: 429, category: 'RateLimited', title: 'Too many requests.' },
  GONE: { status: 410, category: 'Gone', title: 'The resource is no longer available.' },
  WRITE_NOT_CONFIRMED: { status: 503, category: 'WriteNotConfirmed', title: 'The write could not be confirmed.' },
};

/** Problems that come from the edge itself rather than from a procedure. */
export const edgeKinds = {
  METHOD_NOT_ALLOWED: { status: 405, category: 'MethodNotAllowed', title: 'The method is not allowed on this resource.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, category: 'UnsupportedMediaType', title: 'The request body media type is not supported.' },
  PAYLOAD_TOO_LARGE: { status: 413, category: 'PayloadTooLarge', title: 'The request body is too large.' },
  UNSUPPORTED_API_VERSION: { status: 400, category: 'UnsupportedApiVersion', title: 'The API version is not supported.' },
  INTERNAL: { status: 500, category: 'Internal', title: 'An unexpected error occurred.' },
  UNAVAILABLE: { status: 503, category: 'Unavailable', title: 'The service is unavailable.' },
} satisfies Record<string, ProblemKind>;

export interface ProblemInput {
  kind: ProblemKind;
  subtype?: string | undefined;
  detail?: string | null;
  instance: string;
  errors?: Record<string, string[]> | undefined;
  extensions?: Record<string, unknown> | undefined;
}

export function buildProblem(baseUrl: string, input: ProblemInput): Problem {
  const type = `${baseUrl}/errors/${input.kind.category}${input.subtype ? `/${input.subtype}` : ''}`;
  return {
    Type: type,
    Title: input.kind.title,
    Status: input.kind.status,
    Detail: input.detail ?? null,
    Instance: input.instance,
    ...(input.errors ? { Errors: input.errors } : {}),
    ...(input.extensions ?? {}),
  };
}

export function sendProblem(res: ServerResponse, problem: Problem, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(problem);
  res.writeHead(problem.Status, {
    ...headers,
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
}
