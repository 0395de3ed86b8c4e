import type { Kysely } from 'kysely';

/**
 * Money records beyond what the fixture holds: where a deduction or credit sits (its driver
 * statement, the maintenance record that generated it, its deletion), idempotency keys,
 * accessorials with customer and carrier credits, and maintenance records. Types as in
 * 0002: text ids and date-times, integer 0/1 flags, bigint minor units.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // One row per idempotency key: the unique key, not a read-then-write check, is what makes
  // concurrent identical creates produce one record.
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('record_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['tenant_id', 'family', 'key'])
    .execute();

  await db.schema
    .createTable('accessorials')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('party', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('driver_id', 'text', (c) => c.references('drivers.id'))
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('carrier_id', 'text', (c) => c.references('carriers.id'))
    .addColumn('trip_id', 'text', (c) => c.references('trips.id'))
    .addColumn('accessorial_type_id', 'text', (c) => c.notNull().references('accessorial_types.id'))
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('quantity_hundredths', 'bigint', (c) => c.notNull())
    .addColumn('rate', 'bigint', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('external_id', 'text')
    .addColumn('driver_statement_number', 'bigint', (c) => c.references('driver_settlement_statements.number'))
    .addColumn('carrier_statement_number', 'bigint', (c) => c.references('carrier_settlement_statements.number'))
    .addColumn('created_by', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accessorials_tenant_id_subsidiary_id_idx').on('accessorials').columns(['tenant_id', 'subsidiary_id']).execute();
  await db.schema.createIndex('accessorials_trip_id_idx').on('accessorials').column('trip_id').execute();

  await db.schema
    .createTable('maintenance_records')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'))
    .addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'))
    .addColumn('truck_id', 'text', (c) => c.references('trucks.id'))
    .addColumn('trailer_id', 'text', (c) => c.references('trailers.id'))
    .addColumn('service_date', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('vendor', 'text')
    .addColumn('odometer', 'bigint')
    .addColumn('cost', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('chargeback_amount', 'bigint')
    .addColumn('chargeback_driver_id', 'text', (c) => c.references('drivers.id'))
    .addColumn('chargeback_category', 'text')
    .addColumn('external_id', 'text')
    .addColumn('created_by', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('maintenance_records_tenant_id_subsidiary_id_idx')
    .on('maintenance_records')
    .columns(['tenant_id', 'subsidiary_id', 'service_date'])
    .execute();

  // SQLite adds one column per ALTER TABLE.
  await db.schema
    .alterTable('deductions')
    .addColumn('driver_statement_number', 'bigint', (c) => c.references('driver_settlement_statements.number'))
    .execute();
  await db.schema.alterTable('deductions').addColumn('maintenance_id', 'text', (c) => c.references('maintenance_records.id')).execute();
  await db.schema.alterTable('deductions').addColumn('deleted_at', 'text').execute();
  await db.schema.createIndex('deductions_driver_statement_number_idx').on('deductions').column('driver_statement_number').execute();
  await db.schema.createIndex('deductions_maintenance_id_idx').on('deductions').column('maintenance_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('deductions_maintenance_id_idx').execute();
  await db.schema.dropIndex('deductions_driver_statement_number_idx').execute();
  await db.schema.alterTable('deductions').dropColumn('deleted_at').execute();
  await db.schema.alterTable('deductions').dropColumn('maintenance_id').execute();
  await db.schema.alterTable('deductions').dropColumn('driver_statement_number').execute();
  await db.schema.dropTable('maintenance_records').execute();
  await db.schema.dropTable('accessorials').execute();
  await db.schema.dropTable('idempotency_keys').execute();
}
