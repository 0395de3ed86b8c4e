import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { SubsidiariesTable } from '../../db/tables/tenancy.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TSubsidiary } from './subsidiary.schemas.js';

// For subsidiaries the "subsidiary column" is the row's own id.
const scoped = (scope: Scope) => inScope('subsidiaries', scope, { subsidiaryColumn: 'id' });

export function toSubsidiary(row: Pick<Selectable<SubsidiariesTable>, 'id' | 'name'>): TSubsidiary {
  return { Id: row.id, Name: row.name };
}

export async function getSubsidiary(db: Db, scope: Scope, id: string): Promise<TSubsidiary | undefined> {
  const row = await db
    .selectFrom('subsidiaries')
    .select(['id', 'name'])
    .where(scoped(scope))
    .where('id', '=', id)
    .executeTakeFirst();
  return row && toSubsidiary(row);
}

/** Whether the subsidiary with this id is in the scope (a subsidiary-bound caller sees only its own). */
export async function isSubsidiaryVisible(db: Db, scope: Scope, id: string): Promise<boolean> {
  const found = await db
    .selectFrom('subsidiaries')
    .select('id')
    .where(inScope('subsidiaries', scope, { subsidiaryColumn: 'id' }))
    .where('id', '=', id)
    .executeTakeFirst();
  return found !== undefined;
}

export async function findSubsidiaries(db: Db, scope: Scope, request: TPageRequest): Promise<PageOf<TSubsidiary>> {
  const query = db.selectFrom('subsidiaries').where(scoped(scope));
  const page = await selectPage(db, query, { table: 'subsidiaries', order: thenById('subsidiaries'), page: request });
  return { ...page, items: page.items.map(toSubsidiary) };
}

/** A subsidiary as the operator CLI sees it: any tenant's, with its tenant. */
export interface SubsidiarySummary {
  id: string;
  tenantId: string;
  name: string;
  createdAt: string;
}

function toSummary(row: Selectable<SubsidiariesTable>): SubsidiarySummary {
  return { id: row.id, tenantId: row.tenant_id, name: row.name, createdAt: row.created_at };
}

export async function insertSubsidiary(
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

/** Unscoped by design: any tenant's subsidiary with this id, for the operator CLI; the caller compares `tenantId`. */
export async function findAnySubsidiary(db: Db, id: string): Promise<SubsidiarySummary | undefined> {
  const row = await db.selectFrom('subsidiaries').selectAll().where('id', '=', id).executeTakeFirst();
  return row && toSummary(row);
}

/** Unscoped by design: for the operator CLI, which acts on any tenant and has no principal. */
export async function listTenantSubsidiaries(db: Db, tenantId: string): Promise<SubsidiarySummary[]> {
  const rows = await db.selectFrom('subsidiaries').selectAll().where('tenant_id', '=', tenantId).orderBy('id').execute();
  return rows.map(toSummary);
}
