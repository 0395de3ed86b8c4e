import { sql, type Kysely } from 'kysely';

/**
 * When the server recorded a stop's arrival and departure (`arrival_received_at`,
 * `departure_received_at`): the inbound history of a load shows them as the ReceivedAt of its
 * Arrival and Departure rows, as it shows a position's. A stop created already arrived
 * (seeded, or built from a tender) was received when it was created; an arrival recorded later
 * through the API when that write ran.
 *
 * Existing rows never stored it. A stop whose time is not after its creation was created with
 * it, so its `created_at` is exact; for one recorded later, `updated_at` is the last write to the
 * stop, the closest time known not to be before the recording. Stored date-times are ISO 8601
 * text in one form, so they compare as text on both dialects.
 */

const EVENTS = [
  { column: 'arrived_at', received: 'arrival_received_at' },
  { column: 'departed_at', received: 'departure_received_at' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const { column, received } of EVENTS) {
    await db.schema.alterTable('stops').addColumn(received, 'text').execute();
    await sql`update stops set ${sql.ref(received)} = case when ${sql.ref(column)} <= created_at then created_at else updated_at end
      where ${sql.ref(column)} is not null`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const { received } of EVENTS) await db.schema.alterTable('stops').dropColumn(received).execute();
}
