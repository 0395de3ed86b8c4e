import type { Kysely } from 'kysely';

/**
 * `edi_load_status`: per load tendered by an EDI partner, what its 214s last said of the trip in
 * transit (docs/edi.md#outbound-214): when the last `X6` (en route) was sent, so it goes at most
 * once an hour, and the delivery ETA of the last `AG`, so a new one goes when the ETA moves as
 * far as a shared `tracking.eta` must. Read by the load's primary key with the trips of a
 * position batch; no list reads it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('edi_load_status')
    .addColumn('load_id', 'text', (c) => c.primaryKey().notNull().references('loads.id'))
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('en_route_sent_at', 'text')
    .addColumn('eta_sent', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('edi_load_status').execute();
}
