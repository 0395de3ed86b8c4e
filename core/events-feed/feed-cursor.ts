import { validationError } from '../errors.js';

/**
 * A feed cursor (docs/api-rules.md#events-feed): `c` and a feed position in base 36. It holds a
 * position, nothing of any event, so a cursor read in another tenant's feed tells nothing.
 */
export const CURSOR_PATTERN = '^c(?:0|[1-9a-z][0-9a-z]{0,10})$';
const CURSOR = new RegExp(CURSOR_PATTERN);

export function encodeCursor(position: number): string {
  return `c${position.toString(36)}`;
}

/** The position of a cursor; a 400 naming `After` for text that is none. */
export function decodeCursor(cursor: string): number {
  const position = CURSOR.test(cursor) ? parseInt(cursor.slice(1), 36) : NaN;
  if (!Number.isSafeInteger(position)) throw validationError('After', 'is not a cursor of the events feed; use a NextCursor as it was answered');
  return position;
}
