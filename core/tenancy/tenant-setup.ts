import type { Db } from '../../db/create-db.js';
import { AppError } from '../errors.js';
import {
  findAnySubsidiary,
  insertSubsidiary,
  listTenantSubsidiaries,
  type SubsidiarySummary,
} from '../subsidiaries/subsidiary.repository.js';
import { findTenant, insertTenant, type TPlan } from './tenant.repository.js';

// The operator's work on tenants and their subsidiaries (bin/admin.ts). Unscoped by design: the
// operator acts on any tenant and has no principal. Refusals are AppErrors whose message is
// meant for the operator as it is.

export async function requireTenant(db: Db, tenantId: string): Promise<void> {
  if (!(await findTenant(db, tenantId))) throw new AppError('NOT_FOUND', `tenant ${tenantId} does not exist`);
}

export async function createTenant(db: Db, tenant: { id: string; name: string; plan: TPlan; now: Date }): Promise<void> {
  if (await findTenant(db, tenant.id)) throw new AppError('CONFLICT', `tenant ${tenant.id} already exists`);
  await insertTenant(db, tenant);
}

/** Subsidiary ids are unique across tenants (the table's primary key), so a taken id is refused whoever has it. */
export async function createSubsidiary(
  db: Db,
  subsidiary: { tenantId: string; id: string; name: string; now: Date },
): Promise<void> {
  await requireTenant(db, subsidiary.tenantId);
  if (await findAnySubsidiary(db, subsidiary.id)) throw new AppError('CONFLICT', `subsidiary ${subsidiary.id} already exists`);
  await insertSubsidiary(db, subsidiary);
}

export async function listSubsidiaries(db: Db, tenantId: string): Promise<SubsidiarySummary[]> {
  await requireTenant(db, tenantId);
  return listTenantSubsidiaries(db, tenantId);
}
