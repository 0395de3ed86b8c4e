import tzLookup from '@photostructure/tz-lookup';

/**
 * A location's IANA zone (docs/api-rules.md#locations): as given, in its canonical spelling, else
 * from its coordinates with the offline lookup stops use, else null.
 */
export function locationTimeZone(
  timeZone: string | null | undefined,
  coordinates: { Latitude: string; Longitude: string } | null | undefined,
): string | null {
  if (timeZone) return new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  if (coordinates) return tzLookup(Number(coordinates.Latitude), Number(coordinates.Longitude));
  return null;
}
