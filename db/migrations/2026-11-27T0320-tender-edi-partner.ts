import type { Kysely } from 'kysely';

/**
 * A tender received as an EDI 204 (docs/edi.md#204-to-tender) records the trading partner it
 * came from: its answers (990), its loads' status messages (214) and invoices (210) go back to
 * that partner. Null for tenders from POST /tenders and fixtures. A tender's stops gain
 * CompanyName and References inside `stops_json`, which needs no column.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('tenders')
    .addColumn('edi_partner_id', 'text', (c) => c.references('edi_partners.id'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tenders').dropColumn('edi_partner_id').execute();
}
