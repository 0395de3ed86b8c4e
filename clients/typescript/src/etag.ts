/**
 * Optimistic concurrency (spec: ETag and If-Match). A GET of a record answers `ETag`; updates
 * and deletes of most records require it back as `If-Match` (428 without it, 412 when another
 * write came first: read again and retry).
 */

/** The ETag a response carries, or undefined. */
export function etagOf(response: Response): string | undefined {
  return response.headers.get('etag') ?? undefined;
}

/**
 * The `If-Match` header of a write: pass the ETag, or the response of the read it came from.
 * Use it as `params: { header: ifMatch(read.response), path: { id } }`.
 */
export function ifMatch(etagOrResponse: string | Response): { 'If-Match': string } {
  const etag = typeof etagOrResponse === 'string' ? etagOrResponse : etagOf(etagOrResponse);
  if (!etag) throw new TypeError('ifMatch: the response carries no ETag');
  return { 'If-Match': etag };
}
