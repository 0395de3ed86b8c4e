/**
 * IANA time zone names as the server knows them. Asking Intl builds a whole date formatter
 * (about 100–250 µs); a `POST /loads` with six stops asked twelve times (each stop's zone
 * checked, then spelled canonically). Known names are kept once asked: there are some six
 * hundred zones, and the map stops growing at a bound so that spellings differing only in
 * case cannot make it grow without end. Unknown names are never kept.
 */
const MAX_KEPT = 2_000;
const canonical = new Map<string, string>();

/** The canonical spelling of an IANA zone the server knows (`america/chicago` → `America/Chicago`), or null. */
export function canonicalTimeZone(name: string): string | null {
  const known = canonical.get(name);
  if (known !== undefined) return known;
  let spelled: string;
  try {
    spelled = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  if (canonical.size < MAX_KEPT) canonical.set(name, spelled);
  return spelled;
}

/** `canonicalTimeZone` of a name already validated; an unknown one throws, as Intl does. */
export function spellTimeZone(name: string): string {
  const spelled = canonicalTimeZone(name);
  if (spelled === null) throw new RangeError(`Invalid time zone specified: ${name}`);
  return spelled;
}
