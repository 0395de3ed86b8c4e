/** X12 dates and times are written in UTC: the envelope carries no zone (docs/edi.md#envelope-checks). */

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** CCYYMMDD, UTC. */
export function formatX12Date(at: Date): string {
  return `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1, 2)}${pad(at.getUTCDate(), 2)}`;
}

/** HHMM, UTC. */
export function formatX12Time(at: Date): string {
  return `${pad(at.getUTCHours(), 2)}${pad(at.getUTCMinutes(), 2)}`;
}
