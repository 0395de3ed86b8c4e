import tzLookup from '@photostructure/tz-lookup';
import { spellTimeZone } from '../shared/time-zone.js';

/**
 * A location's IANA zone (docs/api-rules.md#locations): as given, in its canonical spelling, else
 * from its coordinates with the offline lookup stops use, else null.
 */
export function locationTimeZone(
  timeZone: string | null | undefined,
  coordinates: { Latitude: string; Longitude: string } | null | undefined,
): string | null {
  if (timeZone) return spellTimeZone(timeZone);
  if (coordinates) return tzLookup(Number(coordinates.Latitude), Number(coordinates.Longitude));
  return null;
}
