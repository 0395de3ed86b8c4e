import { z } from 'zod';

/**
 * What a procedure tells the REST edge about its answer beyond the body: the record's ETag,
 * the new record's location, an idempotent replay. The adapter turns them into headers; the
 * core never sees HTTP.
 */
export interface AnswerHeaders {
  etag?: string;
  location?: string;
  replayed?: boolean;
}

/** A body the edge streams as it is produced instead of JSON (exports). */
export interface StreamedBody {
  contentType: string;
  /** Offered as the download's name (Content-Disposition: attachment). */
  fileName?: string;
  /** Produced while the answer is written, so a large body is never held whole in memory. */
  chunks: AsyncIterable<string>;
}

// Keyed by the body a resolver returns: the output parser makes a new object, so internal
// callers (createCaller, tRPC HTTP) get exactly the body, and nothing outlives the request.
const headersByBody = new WeakMap<object, AnswerHeaders>();

/** Returns `body` itself (never a promise of it: await it first), with headers the REST edge sends beside it. */
export function withHeaders<T extends object>(body: T extends PromiseLike<unknown> ? never : T, headers: AnswerHeaders): T {
  headersByBody.set(body, headers);
  return body;
}

/** The headers a resolver returned with its body; undefined for none. */
export function headersOf(result: unknown): AnswerHeaders | undefined {
  return typeof result === 'object' && result !== null ? headersByBody.get(result) : undefined;
}

class Streamed {
  constructor(readonly body: StreamedBody) {}
}

/** A resolver's streamed answer; its output schema is ZStreamed. */
export function streamed(body: StreamedBody): Streamed {
  return new Streamed(body);
}

/** The streamed body a resolver returned; undefined for any other result. */
export function streamOf(result: unknown): StreamedBody | undefined {
  return result instanceof Streamed ? result.body : undefined;
}

/**
 * The output of a procedure that answers with `streamed(...)`: the REST edge streams the
 * body, and internal callers get nothing (the body is described by `meta.streamedResponse`).
 */
export const ZStreamed = z.custom<Streamed>((value) => value instanceof Streamed).transform((): void => undefined)
  .meta({ description: 'Streamed: see the operation.' });
