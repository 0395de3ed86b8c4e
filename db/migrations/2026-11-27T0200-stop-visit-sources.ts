import { sql, type Kysely } from 'kysely';

/**
 * Where a stop's arrival and departure came from (docs/api-rules.md#geofences), and the visit
 * a geofence is watching:
 *
 * - `arrival_source`, `departure_source`: `Manual` (the stop routes, fixtures) or `Geofence`
 *   (positions), null while the time is. Every time recorded before this migration was written
 *   by the stop routes or loaded from data entered by people, so it is `Manual`.
 * - `geofence_entered_at`: the RecordedAt of the first position inside the fence of an Open
 *   stop, while a visit is not yet 2 minutes long; null otherwise. Read with the stop's trip
 *   through the stops' trip index, so it needs no index of its own.
 */
const SOURCES = [
  { column: 'arrived_at', source: 'arrival_source' },
  { column: 'departed_at', source: 'departure_source' },
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  for (const { column, source } of SOURCES) {
    await db.schema.alterTable('stops').addColumn(source, 'text').execute();
    await sql`update stops set ${sql.ref(source)} = 'Manual' where ${sql.ref(column)} is not null`.execute(db);
  }
  await db.schema.alterTable('stops').addColumn('geofence_entered_at', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stops').dropColumn('geofence_entered_at').execute();
  for (const { source } of SOURCES) await db.schema.alterTable('stops').dropColumn(source).execute();
}
