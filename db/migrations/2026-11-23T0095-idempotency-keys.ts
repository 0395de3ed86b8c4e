import type { Kysely } from 'kysely';

/**
 * Idempotency-Key requests (docs/api-rules.md#idempotency), apart from the
 * ExternalId keys of `idempotency_keys` (0040), which keep their own rules. The primary key
 * `(tenant_id, client_id, idempotency_key)` is the claim: one atomic insert decides which of
 * concurrent requests runs, across API processes on Postgres as on SQLite. The expiry pass
 * deletes rows past `expires_at` through `request_idempotency_keys_expiry_idx`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('request_idempotency_keys')
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('idempotency_key', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('claim_token', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text')
    .addColumn('response_status', 'integer')
    .addColumn('response_headers', 'text')
    .addColumn('response_body', 'text')
    .addPrimaryKeyConstraint('request_idempotency_keys_pkey', ['tenant_id', 'client_id', 'idempotency_key'])
    .execute();
  await db.schema.createIndex('request_idempotency_keys_expiry_idx').on('request_idempotency_keys').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('request_idempotency_keys').execute();
}
