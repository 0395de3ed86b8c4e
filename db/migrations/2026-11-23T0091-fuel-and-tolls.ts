import type { Kysely } from 'kysely';

/**
 * Fuel and toll transactions (docs/api-rules.md#fuel-and-tolls), a truck's owner-operator (whose
 * tolls generate deductions) and the mark of a deduction a transaction generated.
 *
 * Types as in 0002 and 0040: text ids and date-times, bigint minor units with an integer ISO
 * 4217 currency. A fuel PricePerUnit has up to 4 decimals: bigint ten-thousandths; a quantity
 * bigint thousandths. Only a card's last 4 digits have a column; the number itself never
 * reaches the database.
 *
 * Indexes follow 0070. Both searches are newest TransactionDate first, the id breaking ties:
 * one index for tenant-wide callers (tenant_id, transaction_date desc, id) and one for
 * subsidiary-bound ones (tenant_id, subsidiary_id, transaction_date desc, id). The selective
 * filters (a card's last 4 digits, a truck, a driver, a transponder) have their own, already in
 * the list's order and ending with the subsidiary, so one index serves both kinds of caller
 * without reading rows. (tenant_id, source, transaction_id) is the import's idempotency key.
 */

interface Index {
  name: string;
  table: string;
  columns: string[];
  unique?: boolean;
}

const ORDER = ['transaction_date desc', 'id'];

const INDEXES: Index[] = [
  { name: 'fuel_transactions_key_idx', table: 'fuel_transactions', columns: ['tenant_id', 'source', 'transaction_id'], unique: true },
  { name: 'fuel_transactions_list_idx', table: 'fuel_transactions', columns: ['tenant_id', ...ORDER] },
  { name: 'fuel_transactions_subsidiary_list_idx', table: 'fuel_transactions', columns: ['tenant_id', 'subsidiary_id', ...ORDER] },
  { name: 'fuel_transactions_card_list_idx', table: 'fuel_transactions', columns: ['tenant_id', 'card_last4', ...ORDER, 'subsidiary_id'] },
  { name: 'fuel_transactions_truck_list_idx', table: 'fuel_transactions', columns: ['tenant_id', 'truck_id', ...ORDER, 'subsidiary_id'] },
  { name: 'fuel_transactions_driver_list_idx', table: 'fuel_transactions', columns: ['tenant_id', 'driver_id', ...ORDER, 'subsidiary_id'] },
  { name: 'toll_transactions_key_idx', table: 'toll_transactions', columns: ['tenant_id', 'source', 'transaction_id'], unique: true },
  { name: 'toll_transactions_list_idx', table: 'toll_transactions', columns: ['tenant_id', ...ORDER] },
  { name: 'toll_transactions_subsidiary_list_idx', table: 'toll_transactions', columns: ['tenant_id', 'subsidiary_id', ...ORDER] },
  { name: 'toll_transactions_transponder_list_idx', table: 'toll_transactions', columns: ['tenant_id', 'transponder_id', ...ORDER, 'subsidiary_id'] },
  { name: 'toll_transactions_truck_list_idx', table: 'toll_transactions', columns: ['tenant_id', 'truck_id', ...ORDER, 'subsidiary_id'] },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('trucks').addColumn('owner_operator_id', 'text', (c) => c.references('owner_operators.id')).execute();
  await db.schema.alterTable('deductions').addColumn('generated_from', 'text').execute();

  await db.schema
    .createTable('fuel_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('truck_id', 'text', (c) => c.references('trucks.id'))
    .addColumn('driver_id', 'text', (c) => c.references('drivers.id'))
    .addColumn('card_last4', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('location_name', 'text')
    .addColumn('location_city', 'text')
    .addColumn('location_state', 'text')
    .addColumn('location_country', 'text')
    .addColumn('quantity_thousandths', 'bigint', (c) => c.notNull())
    .addColumn('unit_of_measure', 'text', (c) => c.notNull())
    .addColumn('price_per_unit_ten_thousandths', 'bigint', (c) => c.notNull())
    .addColumn('fuel_total', 'bigint', (c) => c.notNull())
    .addColumn('fees', 'bigint', (c) => c.notNull())
    .addColumn('discounts', 'bigint', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('transaction_date', 'text', (c) => c.notNull())
    .addColumn('deduction_id', 'text', (c) => c.references('deductions.id'))
    .addColumn('created_by', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('toll_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('agency', 'text')
    .addColumn('transponder_id', 'text')
    .addColumn('truck_id', 'text', (c) => c.references('trucks.id'))
    .addColumn('unit_number', 'text')
    .addColumn('license_plate', 'text')
    .addColumn('license_state', 'text')
    .addColumn('entry_plaza', 'text')
    .addColumn('entry_at', 'text')
    .addColumn('exit_plaza', 'text')
    .addColumn('exit_at', 'text')
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('fee', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('posted_at', 'text')
    .addColumn('transaction_date', 'text', (c) => c.notNull())
    .addColumn('deduction_id', 'text', (c) => c.references('deductions.id'))
    .addColumn('created_by', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  for (const index of INDEXES) {
    let builder = db.schema.createIndex(index.name).on(index.table).columns(index.columns);
    if (index.unique) builder = builder.unique();
    await builder.execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
  await db.schema.dropTable('toll_transactions').execute();
  await db.schema.dropTable('fuel_transactions').execute();
  await db.schema.alterTable('deductions').dropColumn('generated_from').execute();
  await db.schema.alterTable('trucks').dropColumn('owner_operator_id').execute();
}
