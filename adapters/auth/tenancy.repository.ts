import type { Db } from '../../db/create-db.js';

export const PLANS = ['Standard', 'HosEta'] as const;
export type TPlan = (typeof PLANS)[number];

export interface TenantSummary {
  id: string;
  name: string;
  plan: string;
  createdAt: string;
}

export interface SubsidiarySummary {
  id: string;
  tenantId: string;
  name: string;
  createdAt: string;
}

export async function createTenant(db: Db, tenant: { id: string; name: string; plan: TPlan; now: Date }): Promise<void> {
  await db
    .insertInto('tenants')
    .values({ id: tenant.id, name: tenant.name, plan: tenant.plan, created_at: tenant.now.toISOString() })
    .execute();
}

export async function createSubsidiary(
  db: Db,
  subsidiary: { tenantId: string; id: string; name: string; now: Date },
): Promise<void> {
  await db
    .insertInto('subsidiaries')
    .values({
      id: subsidiary.id,
      tenant_id: subsidiary.tenantId,
      name: subsidiary.name,
      created_at: subsidiary.now.toISOString(),
    })
    .execute();
}

export async function findTenant(db: Db, id: string): Promise<TenantSummary | undefined> {
  const row = await db.selectFrom('tenants').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, name: row.name, plan: row.plan, createdAt: row.created_at };
}

/** Any tenant's subsidiary with this id; the caller compares `tenantId`. */
export async function findSubsidiary(db: Db, id: string): Promise<SubsidiarySummary | undefined> {
  const row = await db.selectFrom('subsidiaries').selectAll().where('id', '=', id).executeTakeFirst();
  return row && { id: row.id, tenantId: row.tenant_id, name: row.name, createdAt: row.created_at };
}

export async function listTenants(db: Db): Promise<TenantSummary[]> {
  const rows = await db.selectFrom('tenants').selectAll().orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, name: row.name, plan: row.plan, createdAt: row.created_at }));
}

/** Unscoped by design: for the operator CLI, which acts on any tenant and has no principal. */
export async function listSubsidiaries(db: Db, tenantId: string): Promise<SubsidiarySummary[]> {
  const rows = await db.selectFrom('subsidiaries').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute();
  return rows.map((row) => ({ id: row.id, tenantId: row.tenant_id, name: row.name, createdAt: row.created_at }));
}
