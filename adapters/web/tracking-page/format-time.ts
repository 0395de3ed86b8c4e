/**
 * Times as a person reads them: in the stop's own zone with the zone's abbreviation
 * ("Tue Nov 24, 14:30 CST"), and durations in round words ("about 2 h", "12 min ago").
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'short',
    });
    formats.set(timeZone, format);
  }
  return format;
}

export function localTime(iso: string, timeZone: string): string {
  const parts = Object.fromEntries(formatIn(timeZone).formatToParts(new Date(iso)).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${parts.month} ${parts.day}, ${parts.hour}:${parts.minute} ${parts.timeZoneName}`;
}

/** "14:00–22:00 CST" on the same day, otherwise both ends in full. */
export function localWindow(begin: string, end: string, timeZone: string): string {
  const from = localTime(begin, timeZone);
  const to = localTime(end, timeZone);
  const [fromDay, fromTime] = [from.slice(0, from.indexOf(',')), from.slice(from.indexOf(',') + 2)];
  const [toDay, toTime] = [to.slice(0, to.indexOf(',')), to.slice(to.indexOf(',') + 2)];
  if (fromDay === toDay) return `${fromDay}, ${fromTime.split(' ')[0]}–${toTime}`;
  return `${from} – ${to}`;
}

/** A duration in minutes, rounded the way people say it. */
export function roughDuration(minutes: number): string {
  const m = Math.abs(Math.round(minutes));
  if (m < 60) return `${m} min`;
  if (m < 48 * 60) {
    const hours = Math.round(m / 30) / 2;
    return `${hours} h`;
  }
  return `${Math.round(m / (24 * 60))} days`;
}

export function timeAgo(iso: string, now: Date): string {
  const minutes = (now.getTime() - Date.parse(iso)) / 60_000;
  if (minutes < 1) return 'just now';
  return `${roughDuration(minutes)} ago`;
}
