import { PostgresAdapter, sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Customer invoices and their payments (docs/api-rules.md#invoices). Types as in 0002: text ids
 * and date-times, bigint minor units for money with the invoice's ISO 4217 currency beside the
 * total, integer counters.
 *
 * Money. `total` and `amount_paid` are minor units; RemainingBalance is computed as their
 * difference on read, so it is exact on both databases and can never drift from them. A
 * payment changes `amount_paid` with one conditional UPDATE (`amount_paid + :amount <= total`
 * and a payable status) that both databases evaluate against the row as it is when the write
 * runs (Postgres waits for a concurrent writer and re-checks the condition on its result;
 * SQLite has one writer), so concurrent payments never overpay. `payment_count` numbers the
 * payments of an invoice in the order they were recorded.
 *
 * LoadNumbers live in `invoice_loads`, one row per load of an invoice, so the LoadNumber filter
 * reads an index (tenant_id, load_number) instead of walking the tenant's invoices.
 *
 * A payment keeps `invoice_snapshot`, the invoice as the request that recorded it answered it,
 * so an idempotent replay answers exactly the first body (docs/api-rules.md#idempotency); payments loaded from a fixture have none.
 *
 * Lists (newest UpdatedAt first, the id breaking ties) follow 0070: one index for tenant-wide
 * callers and one for subsidiary-bound callers, each holding the scope filter and the order, so
 * the pager's key scan, its skipped rows and the count read only the index. Status has its own
 * pair; CustomerId, an often selective filter, one index ending in the subsidiary so it serves
 * both kinds of caller. Number is unique per tenant.
 *
 * Totals. Like trips and loads (0071), the list's Total when only the scope and Status filter it
 * is a sum over `list_counts` rows instead of a count of every index entry of the tenant: the
 * same triggers keep one counter per (tenant, subsidiary, status) of invoices. Postgres reuses
 * 0071's statement-level function `list_counts_bump()`; SQLite gets the row triggers 0071 gives
 * trips and loads (their text is repeated here: migrations never change once run, and import
 * nothing). A payment that moves an invoice between statuses holds the two counter rows it
 * bumps until it commits, so such payments in one tenant and subsidiary wait for one another's
 * commit; each bumps them in one statement in key order, so they never deadlock.
 */

const isPostgres = (db: Kysely<any>) => db.getExecutor().adapter instanceof PostgresAdapter;

const sqliteBump = (ref: 'new' | 'old', delta: 1 | -1) => `
    insert into list_counts (list, tenant_id, subsidiary_id, status, n)
    values ('invoices', ${ref}.tenant_id, coalesce(${ref}.subsidiary_id, ''), ${ref}.status, ${delta})
    on conflict (list, tenant_id, subsidiary_id, status) do update set n = n + (${delta});`;

const COUNT_TRIGGERS = {
  sqlite: [
    `create trigger invoices_count_insert after insert on invoices begin ${sqliteBump('new', 1)} end`,
    `create trigger invoices_count_delete after delete on invoices begin ${sqliteBump('old', -1)} end`,
    `create trigger invoices_count_update after update of tenant_id, subsidiary_id, status on invoices ` +
      `when old.tenant_id is not new.tenant_id or old.subsidiary_id is not new.subsidiary_id or old.status is not new.status ` +
      `begin ${sqliteBump('old', -1)} ${sqliteBump('new', 1)} end`,
  ],
  postgres: [
    'create trigger invoices_count_insert after insert on invoices referencing new table as new_rows for each statement execute function list_counts_bump()',
    'create trigger invoices_count_delete after delete on invoices referencing old table as old_rows for each statement execute function list_counts_bump()',
    'create trigger invoices_count_update after update on invoices referencing old table as old_rows new table as new_rows for each statement execute function list_counts_bump()',
  ],
};

const INDEXES: Array<{ name: string; table: string; columns: string[]; unique?: boolean; where?: ReturnType<typeof sql<SqlBool>> }> = [
  { name: 'invoices_number_key', table: 'invoices', columns: ['tenant_id', 'number'], unique: true },
  { name: 'invoices_list_idx', table: 'invoices', columns: ['tenant_id', 'updated_at desc', 'id'] },
  { name: 'invoices_subsidiary_list_idx', table: 'invoices', columns: ['tenant_id', 'subsidiary_id', 'updated_at desc', 'id'] },
  { name: 'invoices_status_list_idx', table: 'invoices', columns: ['tenant_id', 'status', 'updated_at desc', 'id'] },
  { name: 'invoices_subsidiary_status_list_idx', table: 'invoices', columns: ['tenant_id', 'subsidiary_id', 'status', 'updated_at desc', 'id'] },
  { name: 'invoices_customer_list_idx', table: 'invoices', columns: ['tenant_id', 'customer_id', 'updated_at desc', 'id', 'subsidiary_id'] },
  { name: 'invoice_loads_load_idx', table: 'invoice_loads', columns: ['tenant_id', 'load_number', 'invoice_id'] },
  { name: 'invoice_loads_invoice_idx', table: 'invoice_loads', columns: ['invoice_id', 'sequence'], unique: true },
  { name: 'invoice_line_items_invoice_idx', table: 'invoice_line_items', columns: ['invoice_id', 'sequence'], unique: true },
  { name: 'invoice_payments_invoice_idx', table: 'invoice_payments', columns: ['invoice_id', 'sequence'], unique: true },
  {
    name: 'invoice_payments_external_id_key',
    table: 'invoice_payments',
    columns: ['tenant_id', 'external_id'],
    unique: true,
    where: sql<SqlBool>`external_id is not null`,
  },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invoices')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('number', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.notNull().references('customers.id'))
    .addColumn('invoiced_date', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addColumn('paid_date', 'text')
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('total', 'bigint', (c) => c.notNull())
    .addColumn('amount_paid', 'bigint', (c) => c.notNull())
    .addColumn('payment_count', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invoice_loads')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('load_number', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invoice_line_items')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('quantity_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .addColumn('rate_currency', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('amount_currency', 'integer', (c) => c.notNull())
    .addColumn('load_number', 'text')
    .execute();

  await db.schema
    .createTable('invoice_payments')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('invoice_id', 'text', (c) => c.notNull().references('invoices.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('payment_date', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('reference_number', 'text')
    .addColumn('check_number', 'text')
    .addColumn('external_id', 'text')
    .addColumn('invoice_snapshot', 'text')
    .addColumn('invoice_version', 'integer')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  for (const index of INDEXES) {
    let builder = db.schema.createIndex(index.name).on(index.table).columns(index.columns);
    if (index.unique) builder = builder.unique();
    if (index.where) builder = builder.where(index.where);
    await builder.execute();
  }
  for (const trigger of COUNT_TRIGGERS[isPostgres(db) ? 'postgres' : 'sqlite']) await sql.raw(trigger).execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const trigger of ['insert', 'delete', 'update']) {
    await sql.raw(`drop trigger invoices_count_${trigger}${isPostgres(db) ? ' on invoices' : ''}`).execute(db);
  }
  await db.deleteFrom('list_counts').where('list', '=', 'invoices').execute();
  for (const index of [...INDEXES].reverse()) await db.schema.dropIndex(index.name).execute();
  for (const table of ['invoice_payments', 'invoice_line_items', 'invoice_loads', 'invoices']) await db.schema.dropTable(table).execute();
}
