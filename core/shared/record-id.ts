import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): the millisecond first, then 74 random bits. Rows keyed by one are
 * written at the end of their indexes instead of on a random page: on Postgres a random page is
 * a read when it is not cached and, the first time it changes after each checkpoint, a full copy
 * of it in the WAL (8 KB for an 80-byte entry), which every commit flushing after it waits for.
 * A load with its trips and stops wrote about 155 KB of WAL just after a checkpoint with random
 * ids, 73 KB with these (README, Writes at scale). Random enough to be unguessable; isolation
 * never rests on that anyway. History ids are these too: millions of rows a day.
 */
export function timeOrderedUuid(now = Date.now()): string {
  // A v4 UUID from Node's pooled generator supplies the random bits and the variant; the first
  // 48 bits become the timestamp and the version nibble 7.
  const random = randomUUID();
  const time = now.toString(16).padStart(12, '0');
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15, 18)}-${random.slice(19)}`;
}

/** A new record's id: its kind's prefix and a time-ordered UUID (`lod_…`, `stp_…`). */
export function newRecordId(prefix: string): string {
  return `${prefix}_${timeOrderedUuid()}`;
}
