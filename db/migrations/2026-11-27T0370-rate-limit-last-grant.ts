import type { Kysely } from 'kysely';

/**
 * `rate_limits.last_grant`: the units the row's last lease granted. The leasing store leases in
 * one statement (an upsert computing the grant in SQL), and its RETURNING sees only the row as
 * it now is: the grant is read back from here, where it was written under the row's lock. A
 * release before this one never reads it; the default keeps its inserts valid while both run.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('rate_limits')
    .addColumn('last_grant', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('rate_limits').dropColumn('last_grant').execute();
}
