import { AppError } from '../errors.js';

/** A strong ETag from a record id and its version counter. */
export function etagOf(id: string, version: number): string {
  return `"${id}.${version}"`;
}

/**
 * docs/api-rules.md#etag-and-if-match: If-Match is required (428 when missing); `*` matches any version;
 * the tag may come quoted or bare; a weak tag never matches (412), nor does a stale one.
 * A list of tags matches when any strong one does.
 */
export function checkIfMatch(header: string | undefined, currentEtag: string): void {
  if (header === undefined || header.trim() === '') {
    throw new AppError('PRECONDITION_REQUIRED', 'Send If-Match with the current ETag.');
  }
  const current = currentEtag.replace(/^"|"$/g, '');
  const matches = header.split(',').some((raw) => {
    const tag = raw.trim();
    if (tag === '*') return true;
    if (tag.startsWith('W/')) return false;
    return tag.replace(/^"|"$/g, '') === current;
  });
  if (!matches) throw new AppError('PRECONDITION_FAILED', 'If-Match does not match the current version; read the record again.');
}
