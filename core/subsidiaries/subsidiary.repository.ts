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

export async function findSubsidiaries(db: Db, scope: Scope, request: TPageRequest): Promise<PageOf<TSubsidiary>> {
  const query = db.selectFrom('subsidiaries').where(scoped(scope));
  const page = await selectPage(db, query, { table: 'subsidiaries', order: thenById('subsidiaries'), page: request });
  return { ...page, items: page.items.map(toSubsidiary) };
}
