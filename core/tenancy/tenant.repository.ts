import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { TenantsTable } from '../../db/tables/tenancy.js';

export const PLANS = ['Standard', 'HosEta'] as const;
export type TPlan = (typeof PLANS)[number];

export interface TenantSummary {
  id: string;
  name: string;
  plan: string;
  createdAt: string;
}

function toTenant(row: Selectable<TenantsTable>): TenantSummary {
  return { id: row.id, name: row.name, plan: row.plan, createdAt: row.created_at };
}

export async function insertTenant(db: Db, tenant: { id: string; name: string; plan: TPlan; now: Date }): Promise<void> {
  await db
    .insertInto('tenants')
    .values({ id: tenant.id, name: tenant.name, plan: tenant.plan, created_at: tenant.now.toISOString() })
    .execute();
}

export async function findTenant(db: Db, id: string): Promise<TenantSummary | undefined> {
  const row = await db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toTenant(row);
}

/** The plan of a tenant that exists (a caller's own). */
export async function findTenantPlan(db: Db, id: string): Promise<string> {
  const tenant = await db.selectFrom('tenants').select('plan').where('id', '=', id).executeTakeFirstOrThrow();
  return tenant.plan;
}

export async function listTenants(db: Db): Promise<TenantSummary[]> {
  const rows = await db.selectFrom('tenants').selectAll().orderBy('id').execute();
  return rows.map(toTenant);
}
