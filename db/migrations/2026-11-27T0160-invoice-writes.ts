import type { Kysely, SqlBool } from 'kysely';
import { sql } from 'kysely';

/**
 * Invoices become writable (docs/api-rules.md#invoices): POST /invoices and the void action.
 *
 * One live invoice per load. `invoice_loads.holds_load` is 1 while an invoice created through
 * the API bills the load and is not Void; a partial unique index over (tenant_id, load_number)
 * where it is 1 lets only one such row exist per load, so of two concurrent creates for one load
 * exactly one commits (Postgres makes the second insert wait for the first and then fail; SQLite
 * has one writer). Voiding sets it back to 0, so the load can be invoiced again. Invoices loaded
 * from fixtures (and those already stored) keep 0: a fixture may bill one load on several
 * invoices (a Supplemental beside its Standard one); the create's own check reads them.
 *
 * Assigned numbers, as customers' CompanyNumbers (0081): `number_value` is the value of a
 * Number written `INV-<decimal>` (no leading zero, at most 15 digits), null otherwise, so the
 * highest is one index read; `invoice_numbers` keeps the last number assigned per tenant, and its
 * row is the lock that serialises the creates of one tenant that set a Number.
 *
 * `created_by` is the client that created the invoice, `void_reason` the Reason a void gave
 * (both null for fixture invoices).
 */

const NUMBER = /^INV-([1-9][0-9]{0,14})$/;
const HOLDING = sql<SqlBool>`holds_load = 1`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('invoice_loads').addColumn('holds_load', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('invoices').addColumn('number_value', 'bigint').execute();
  await db.schema.alterTable('invoices').addColumn('created_by', 'text').execute();
  await db.schema.alterTable('invoices').addColumn('void_reason', 'text').execute();

  const numbered = (await db.selectFrom('invoices').select(['id', 'number']).where('number', 'like', 'INV-%').execute()) as Array<{ id: string; number: string }>;
  for (const row of numbered) {
    const match = NUMBER.exec(row.number);
    if (match) await db.updateTable('invoices').set({ number_value: Number(match[1]) }).where('id', '=', row.id).execute();
  }

  await db.schema
    .createTable('invoice_numbers')
    .addColumn('tenant_id', 'text', (c) => c.primaryKey().notNull().references('tenants.id'))
    .addColumn('last_number', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.createIndex('invoice_loads_held_key').on('invoice_loads').columns(['tenant_id', 'load_number']).unique().where(HOLDING).execute();
  await db.schema.createIndex('invoices_number_value_idx').on('invoices').columns(['tenant_id', 'number_value']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('invoices_number_value_idx').execute();
  await db.schema.dropIndex('invoice_loads_held_key').execute();
  await db.schema.dropTable('invoice_numbers').execute();
  for (const column of ['void_reason', 'created_by', 'number_value']) await db.schema.alterTable('invoices').dropColumn(column).execute();
  await db.schema.alterTable('invoice_loads').dropColumn('holds_load').execute();
}
