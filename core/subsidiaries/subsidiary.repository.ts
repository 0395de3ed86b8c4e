import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { SubsidiariesTable } from '../../db/tables/tenancy.js';
import { inScope, type Scope } from '../shared/scope.js';
import { selectPage } from '../shared/select-page.js';
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

export async function findSubsidiaries(
  db: Db,
  scope: Scope,
  page: { Page: number; PageSize: number },
): Promise<{ items: TSubsidiary[]; total: number }> {
  const query = db.selectFrom('subsidiaries').where(scoped(scope));
  const { rows, total } = await selectPage(query, page, (filtered) => filtered.select(['id', 'name']).orderBy('id'));
  return { items: rows.map(toSubsidiary), total };
}
