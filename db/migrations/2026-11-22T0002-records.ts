import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * The operational records of a tenant: parties, assets, catalogs, loads/trips/stops,
 * references, documents, settlements, deductions and webhooks. Column types are the ones both
 * dialects return alike (text ids and date-times, integer booleans, bigint minor units).
 * Primary keys are declared NOT NULL explicitly because SQLite otherwise lets a non-integer
 * primary key hold NULL.
 */

type Table = CreateTableBuilder<string, string>;

/** The one dialect branch: raw bytes are `bytea` on Postgres and `blob` on SQLite (both read back as Buffer). */
function binaryType(db: Kysely<any>): 'bytea' | 'blob' {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
}

const textId = (t: Table) => t.addColumn('id', 'text', (c) => c.primaryKey().notNull());
const tenantId = (t: Table) => t.addColumn('tenant_id', 'text', (c) => c.notNull().references('tenants.id'));
const optionalSubsidiary = (t: Table) => t.addColumn('subsidiary_id', 'text', (c) => c.references('subsidiaries.id'));
const requiredSubsidiary = (t: Table) =>
  t.addColumn('subsidiary_id', 'text', (c) => c.notNull().references('subsidiaries.id'));
const createdAt = (t: Table) => t.addColumn('created_at', 'text', (c) => c.notNull());
const timestamps = (t: Table) => createdAt(t).addColumn('updated_at', 'text', (c) => c.notNull());

async function index(db: Kysely<any>, table: string, columns: string[], options: { unique?: boolean } = {}) {
  const name = `${table}_${columns.join('_')}_${options.unique ? 'key' : 'idx'}`;
  let builder = db.schema.createIndex(name).on(table).columns(columns);
  if (options.unique) builder = builder.unique();
  await builder.execute();
}

export async function up(db: Kysely<any>): Promise<void> {
  // Parties.
  await db.schema
    .createTable('customers')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('visibility_url', 'text')
    .addColumn('visibility_secret_encrypted', 'text')
    .$call(timestamps)
    .execute();
  await index(db, 'customers', ['tenant_id', 'subsidiary_id']);

  await db.schema
    .createTable('carriers')
    .$call(textId)
    .$call(tenantId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mc_number', 'text')
    .addColumn('dot_number', 'text')
    .$call(timestamps)
    .execute();
  await index(db, 'carriers', ['tenant_id']);

  await db.schema
    .createTable('owner_operators')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('name', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await index(db, 'owner_operators', ['tenant_id', 'subsidiary_id']);

  await db.schema
    .createTable('factoring_companies')
    .$call(textId)
    .$call(tenantId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('mc_number', 'text')
    .addColumn('dot_number', 'text')
    .$call(timestamps)
    .execute();
  await index(db, 'factoring_companies', ['tenant_id']);

  // Assets.
  await db.schema
    .createTable('drivers')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('first_name', 'text', (c) => c.notNull())
    .addColumn('last_name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('owner_operator_id', 'text', (c) => c.references('owner_operators.id'))
    .$call(timestamps)
    .execute();
  await index(db, 'drivers', ['tenant_id', 'subsidiary_id']);

  await db.schema
    .createTable('trucks')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('truck_number', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await index(db, 'trucks', ['tenant_id', 'subsidiary_id']);

  await db.schema
    .createTable('trailers')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('trailer_number', 'text', (c) => c.notNull())
    .addColumn('company_owned_asset', 'integer')
    .$call(timestamps)
    .execute();
  await index(db, 'trailers', ['tenant_id', 'subsidiary_id']);

  // Tenant-wide catalogs.
  await db.schema
    .createTable('reference_definitions')
    .$call(textId)
    .$call(tenantId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('entities', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await index(db, 'reference_definitions', ['tenant_id']);

  await db.schema
    .createTable('accessorial_types')
    .$call(textId)
    .$call(tenantId)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('applies_to', 'text', (c) => c.notNull())
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await index(db, 'accessorial_types', ['tenant_id']);

  // Loads, trips, stops.
  await db.schema
    .createTable('loads')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('load_number', 'text', (c) => c.notNull())
    .addColumn('customer_id', 'text', (c) => c.references('customers.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await index(db, 'loads', ['tenant_id', 'load_number'], { unique: true });
  await index(db, 'loads', ['tenant_id', 'subsidiary_id']);
  await index(db, 'loads', ['customer_id']);

  await db.schema
    .createTable('trips')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('load_id', 'text', (c) => c.notNull().references('loads.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('trip_number', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('driver_id', 'text', (c) => c.references('drivers.id'))
    .addColumn('truck_id', 'text', (c) => c.references('trucks.id'))
    .addColumn('trailer_id', 'text', (c) => c.references('trailers.id'))
    .addColumn('carrier_id', 'text', (c) => c.references('carriers.id'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timestamps)
    .execute();
  await index(db, 'trips', ['load_id', 'sequence'], { unique: true });
  await index(db, 'trips', ['tenant_id', 'subsidiary_id']);
  // An asset's active trip is looked up on every position.
  await index(db, 'trips', ['driver_id', 'status']);
  await index(db, 'trips', ['truck_id', 'status']);
  await index(db, 'trips', ['trailer_id', 'status']);
  await index(db, 'trips', ['carrier_id']);

  await db.schema
    .createTable('stops')
    .$call(textId)
    .$call(tenantId)
    .addColumn('trip_id', 'text', (c) => c.notNull().references('trips.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('stop_kind', 'text', (c) => c.notNull())
    .addColumn('stop_type', 'text', (c) => c.notNull())
    .addColumn('schedule_type', 'text', (c) => c.notNull())
    .addColumn('appointment_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('appointment_confirmed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('appointment_date', 'text')
    .addColumn('window_begin', 'text')
    .addColumn('window_end', 'text')
    .addColumn('loading_type', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('address_street', 'text')
    .addColumn('address_city', 'text')
    .addColumn('address_state', 'text')
    .addColumn('address_zip_code', 'text')
    .addColumn('address_country', 'text')
    .addColumn('latitude', 'text')
    .addColumn('longitude', 'text')
    .addColumn('company_id', 'text')
    .addColumn('company_number', 'text')
    .addColumn('company_name', 'text')
    .addColumn('arrived_at', 'text')
    .addColumn('departed_at', 'text')
    .addColumn('eta_planned', 'text')
    .addColumn('eta_live', 'text')
    .addColumn('eta_manual', 'text')
    .$call(timestamps)
    .execute();
  await index(db, 'stops', ['trip_id', 'sequence'], { unique: true });

  await db.schema
    .createTable('trip_references')
    .$call(textId)
    .$call(tenantId)
    .addColumn('trip_id', 'text', (c) => c.notNull().references('trips.id'))
    .addColumn('stop_id', 'text', (c) => c.references('stops.id'))
    .addColumn('reference_definition_id', 'text', (c) => c.references('reference_definitions.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('origin', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  await index(db, 'trip_references', ['trip_id', 'stop_id']);
  await index(db, 'trip_references', ['stop_id']);
  // A trip holds one value per catalog definition (docs/api-rules.md#trip-references); stop references are not counted.
  await db.schema
    .createIndex('trip_references_one_per_definition_key')
    .unique()
    .on('trip_references')
    .columns(['trip_id', 'reference_definition_id'])
    .where(sql.ref('stop_id'), 'is', null)
    .execute();

  await db.schema
    .createTable('trip_line_items')
    .$call(textId)
    .$call(tenantId)
    .addColumn('trip_id', 'text', (c) => c.notNull().references('trips.id'))
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('hourly_pay_rate', 'bigint')
    .addColumn('hourly_rest_breaks_rate', 'bigint')
    .$call(createdAt)
    .execute();
  await index(db, 'trip_line_items', ['trip_id', 'sequence'], { unique: true });

  await db.schema
    .createTable('documents')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('parent_type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('load_id', 'text', (c) => c.references('loads.id'))
    .addColumn('trip_id', 'text', (c) => c.references('trips.id'))
    .addColumn('carrier_id', 'text', (c) => c.references('carriers.id'))
    .addColumn('attachment_type', 'text', (c) => c.notNull())
    .addColumn('attachment_path', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('content', binaryType(db))
    .addColumn('attachment_size', 'bigint')
    .addColumn('uploaded_at', 'text')
    .addColumn('uploaded_by', 'text')
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await index(db, 'documents', ['tenant_id', 'parent_type', 'parent_id']);
  await index(db, 'documents', ['load_id']);
  await index(db, 'documents', ['trip_id']);
  await index(db, 'documents', ['carrier_id']);

  // Settlements and deductions.
  await db.schema
    .createTable('carrier_settlement_statements')
    .addColumn('number', 'bigint', (c) => c.primaryKey().notNull())
    .$call(tenantId)
    .$call(requiredSubsidiary)
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('statement_date', 'text', (c) => c.notNull())
    .addColumn('remittance_date', 'text')
    .addColumn('payee_type', 'text', (c) => c.notNull())
    .addColumn('payee_id', 'text', (c) => c.notNull())
    .addColumn('payee_name', 'text', (c) => c.notNull())
    .addColumn('payee_mc_number', 'text')
    .addColumn('payee_dot_number', 'text')
    .addColumn('remit_to', 'text')
    .addColumn('payment_provider', 'text', (c) => c.notNull())
    .addColumn('net_amount', 'bigint', (c) => c.notNull())
    .addColumn('net_currency', 'integer', (c) => c.notNull())
    .addColumn('paid_amount', 'bigint', (c) => c.notNull())
    .addColumn('paid_currency', 'integer', (c) => c.notNull())
    .addColumn('remaining_amount', 'bigint', (c) => c.notNull())
    .addColumn('remaining_currency', 'integer', (c) => c.notNull())
    .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await index(db, 'carrier_settlement_statements', ['tenant_id', 'subsidiary_id']);
  await index(db, 'carrier_settlement_statements', ['payee_type', 'payee_id']);

  await db.schema
    .createTable('carrier_statement_trips')
    .$call(textId)
    .$call(tenantId)
    .addColumn('statement_number', 'bigint', (c) =>
      c.notNull().references('carrier_settlement_statements.number').onDelete('cascade'),
    )
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('trip_id', 'text', (c) => c.notNull().references('trips.id'))
    .addColumn('trip_number', 'text', (c) => c.notNull())
    .addColumn('load_number', 'text', (c) => c.notNull())
    .addColumn('origin', 'text')
    .addColumn('destination', 'text')
    .addColumn('picked_up_at', 'text')
    .addColumn('delivered_at', 'text')
    .addColumn('invoice_number', 'text')
    .addColumn('invoice_due_date', 'text')
    .addColumn('net_amount', 'bigint')
    .addColumn('net_currency', 'integer')
    .addColumn('line_haul_amount', 'bigint')
    .addColumn('line_haul_currency', 'integer')
    .addColumn('accessorials_amount', 'bigint')
    .addColumn('accessorials_currency', 'integer')
    .execute();
  await index(db, 'carrier_statement_trips', ['statement_number', 'sequence'], { unique: true });
  await index(db, 'carrier_statement_trips', ['statement_number', 'trip_id'], { unique: true });
  await index(db, 'carrier_statement_trips', ['trip_id']);

  await db.schema
    .createTable('carrier_statement_trip_items')
    .$call(textId)
    .$call(tenantId)
    .addColumn('statement_number', 'bigint', (c) =>
      c.notNull().references('carrier_settlement_statements.number').onDelete('cascade'),
    )
    .addColumn('statement_trip_id', 'text', (c) =>
      c.notNull().references('carrier_statement_trips.id').onDelete('cascade'),
    )
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('accounting_tag', 'text')
    .execute();
  await index(db, 'carrier_statement_trip_items', ['statement_trip_id', 'sequence'], { unique: true });
  await index(db, 'carrier_statement_trip_items', ['statement_number']);

  await db.schema
    .createTable('carrier_statement_payments')
    .$call(textId)
    .$call(tenantId)
    .addColumn('statement_number', 'bigint', (c) =>
      c.notNull().references('carrier_settlement_statements.number').onDelete('cascade'),
    )
    .addColumn('sequence', 'integer', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('payment_date', 'text', (c) => c.notNull())
    .addColumn('payment_method', 'text')
    .addColumn('reference_number', 'text')
    .addColumn('check_number', 'text')
    .execute();
  await index(db, 'carrier_statement_payments', ['statement_number', 'sequence'], { unique: true });

  await db.schema
    .createTable('driver_settlement_statements')
    .addColumn('number', 'bigint', (c) => c.primaryKey().notNull())
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('driver_id', 'text', (c) => c.notNull().references('drivers.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('statement_date', 'text', (c) => c.notNull())
    .$call(timestamps)
    .execute();
  // A driver credit posts to the driver's earliest statement not yet processed.
  await index(db, 'driver_settlement_statements', ['driver_id', 'statement_date']);
  await index(db, 'driver_settlement_statements', ['tenant_id', 'subsidiary_id']);

  await db.schema
    .createTable('deductions')
    .$call(textId)
    .$call(tenantId)
    .$call(optionalSubsidiary)
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'integer', (c) => c.notNull())
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('is_paid', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('driver_id', 'text', (c) => c.references('drivers.id'))
    .addColumn('truck_id', 'text', (c) => c.references('trucks.id'))
    .addColumn('owner_operator_id', 'text', (c) => c.references('owner_operators.id'))
    .addColumn('created_by', 'text')
    .addColumn('external_id', 'text')
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .$call(timestamps)
    .execute();
  await index(db, 'deductions', ['driver_id']);
  await index(db, 'deductions', ['truck_id']);
  await index(db, 'deductions', ['tenant_id', 'subsidiary_id']);
  // Driver-credit idempotency keys are looked up per tenant.
  await index(db, 'deductions', ['tenant_id', 'external_id']);

  await db.schema
    .createTable('webhooks')
    .$call(textId)
    .$call(tenantId)
    .$call(requiredSubsidiary)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('event_types', 'text', (c) => c.notNull())
    .addColumn('secret_encrypted', 'text', (c) => c.notNull())
    .addColumn('previous_secret_encrypted', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('Pending'))
    .addColumn('consecutive_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .$call(timestamps)
    .execute();
  await index(db, 'webhooks', ['tenant_id', 'subsidiary_id']);
}

export async function down(db: Kysely<any>): Promise<void> {
  const tables = [
    'webhooks',
    'deductions',
    'driver_settlement_statements',
    'carrier_statement_payments',
    'carrier_statement_trip_items',
    'carrier_statement_trips',
    'carrier_settlement_statements',
    'documents',
    'trip_line_items',
    'trip_references',
    'stops',
    'trips',
    'loads',
    'accessorial_types',
    'reference_definitions',
    'trailers',
    'trucks',
    'drivers',
    'factoring_companies',
    'owner_operators',
    'carriers',
    'customers',
  ];
  for (const table of tables) await db.schema.dropTable(table).execute();
}
