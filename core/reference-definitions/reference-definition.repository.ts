import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { ReferenceDefinitionsTable } from '../../db/tables/references.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, type ListOrder } from '../shared/select-page.js';
import type { TReferenceDefinition } from './reference-definition.schemas.js';

export type ReferenceDefinitionRow = Selectable<ReferenceDefinitionsTable>;

export function toReferenceDefinition(row: ReferenceDefinitionRow): TReferenceDefinition {
  return { Id: row.id, Name: row.name, Type: row.type, Entities: JSON.parse(row.entities) as string[] };
}

/** Definitions belong to the tenant: every client of it sees all of them, bound to a subsidiary or not. */
const scoped = (scope: Scope) => inScope('reference_definitions', scope, { subsidiaryColumn: null });

/** One definition of the tenant by id (the ReferenceId of a catalog-backed reference). */
/** Which of these reference definitions the tenant has (definitions belong to the tenant). */
export async function findVisibleDefinitionIds(db: Db, scope: Scope, ids: readonly string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('reference_definitions')
    .select('id')
    .where(inScope('reference_definitions', scope, { subsidiaryColumn: null }))
    .where('id', 'in', [...ids])
    .execute();
  return rows.map((row) => row.id);
}

export async function getReferenceDefinition(db: Db, scope: Scope, id: string): Promise<TReferenceDefinition | undefined> {
  const row = await db.selectFrom('reference_definitions').selectAll().where(scoped(scope)).where('id', '=', id).executeTakeFirst();
  return row && toReferenceDefinition(row);
}

/** By name, then id, both by code points, so SQLite and Postgres (whose collations differ) give one order. */
const REFERENCE_DEFINITION_ORDER: ListOrder = {
  list: 'reference-definitions',
  keys: [
    { column: 'name', type: 'text', binary: true },
    { column: 'id', type: 'text', binary: true },
  ],
};

/** The tenant's definitions, by name, optionally only those applying to one of `entities`. */
export async function findReferenceDefinitions(
  db: Db,
  scope: Scope,
  filter: TPageRequest & { entities?: readonly string[] | undefined },
): Promise<PageOf<TReferenceDefinition>> {
  const { entities } = filter;
  let query = db.selectFrom('reference_definitions').where(scoped(scope));
  // Entities are a JSON list of canonical names (`["Trip","Load"]`): each wanted one appears quoted.
  if (entities) query = query.where((eb) => eb.or(entities.map((entity) => eb('entities', 'like', `%${JSON.stringify(entity)}%`))));
  const page = await selectPage(db, query, { table: 'reference_definitions', order: REFERENCE_DEFINITION_ORDER, page: filter });
  return { ...page, items: page.items.map(toReferenceDefinition) };
}

/** The Type of each of the tenant's definitions, by id: what a new load's references take theirs from. */
export async function listReferenceDefinitionTypes(db: Db, scope: Scope): Promise<Map<string, { Type: string }>> {
  const rows = await db.selectFrom('reference_definitions').select(['id', 'type']).where(scoped(scope)).execute();
  return new Map(rows.map((row) => [row.id, { Type: row.type }]));
}

/**
 * `listReferenceDefinitionTypes` narrowed to the definitions `ids` name, all a write's new
 * references need: nothing is read when they name none.
 */
export async function referenceDefinitionTypes(db: Db, scope: Scope, ids: readonly string[]): Promise<Map<string, { Type: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('reference_definitions').select(['id', 'type']).where(scoped(scope)).where('id', 'in', [...ids]).execute();
  return new Map(rows.map((row) => [row.id, { Type: row.type }]));
}

/** The columns a reference checks against its definition; undefined when not the tenant's (definitions are tenant-wide). */
export async function findDefinitionForReference(
  db: Db,
  scope: Scope,
  id: string,
): Promise<Pick<ReferenceDefinitionRow, 'id' | 'name' | 'type' | 'entities'> | undefined> {
  return db
    .selectFrom('reference_definitions')
    .select(['id', 'name', 'type', 'entities'])
    .where(inScope('reference_definitions', scope, { subsidiaryColumn: null }))
    .where('id', '=', id)
    .executeTakeFirst();
}
