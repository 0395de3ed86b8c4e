/**
 * Text the databases cannot hold or should not hold (issue 12). Postgres refuses NUL in
 * `text` (a 500 if it reaches a query) while SQLite stores it; an unpaired UTF-16 surrogate
 * has no UTF-8 form, so SQLite stores invalid bytes and Postgres silently replaces it. The
 * other C0 controls are never part of an id, a name or a note. Tab, line feed and carriage
 * return stay allowed: free text has lines.
 *
 * The edges (REST, tRPC) refuse such text before anything else reads it, and the fixture
 * loader refuses it in a file, so no stored record can contain it.
 */
const UNSAFE_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSAFE_TEXT_MESSAGE =
  'The text contains a character that is not allowed: a control character other than tab, line feed and carriage ' +
  'return, or an unpaired UTF-16 surrogate.';

export function isSafeText(text: string): boolean {
  return !UNSAFE_TEXT.test(text);
}

/** A path into a JSON value: property names and array indexes. */
export type JsonPath = ReadonlyArray<string | number>;

/**
 * The paths of every string (and every property name) in a parsed JSON value that is not
 * safe text, in document order, at most `limit` of them. Iterative, so a deeply nested body
 * cannot overflow the stack.
 */
export function findUnsafeText(value: unknown, limit = 20): JsonPath[] {
  const found: JsonPath[] = [];
  const stack: Array<{ value: unknown; path: JsonPath }> = [{ value, path: [] }];
  while (stack.length > 0 && found.length < limit) {
    const { value: current, path } = stack.pop()!;
    if (typeof current === 'string') {
      if (!isSafeText(current)) found.push(path);
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: [...path, i] });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i]!;
        if (!isSafeText(key)) found.push([...path, key]);
        stack.push({ value: child, path: [...path, key] });
      }
    }
  }
  return found.slice(0, limit);
}

/**
 * The value a path id with unsafe text is looked up as: a control character, which no stored
 * id can contain (every write refuses it) and both databases can compare. So such an id
 * answers the operation's own 404 for an unknown record, identical to any missing id's.
 */
export const UNMATCHABLE_ID = '\u0001';
