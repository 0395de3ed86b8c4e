import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { ReferenceDefinitionsTable } from '../../db/tables/references.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { TReferenceDefinition } from './reference-definition.schemas.js';

export type ReferenceDefinitionRow = Selectable<ReferenceDefinitionsTable>;

export function toReferenceDefinition(row: ReferenceDefinitionRow): TReferenceDefinition {
  return { Id: row.id, Name: row.name, Type: row.type, Entities: JSON.parse(row.entities) as string[] };
}

/** Definitions belong to the tenant: every client of it sees all of them, bound to a subsidiary or not. */
const scoped = (scope: Scope) => inScope('reference_definitions', scope, { subsidiaryColumn: null });

/** One definition of the tenant by id (the ReferenceId of a catalog-backed reference). */
export async function getReferenceDefinition(db: Db, scope: Scope, id: string): Promise<TReferenceDefinition | undefined> {
  const row = await db.selectFrom('reference_definitions').selectAll().where(scoped(scope)).where('id', '=', id).executeTakeFirst();
  return row && toReferenceDefinition(row);
}

/**
 * The tenant's definitions, by name, optionally only those applying to one of `entities`.
 * Entities are a JSON list in one column, so they are matched here rather than in SQL; a
 * tenant's catalog is a handful of rows.
 */
export async function findReferenceDefinitions(
  db: Db,
  scope: Scope,
  entities: readonly string[] | undefined,
  page: { Page: number; PageSize: number },
): Promise<{ items: TReferenceDefinition[]; total: number }> {
  const rows = await db.selectFrom('reference_definitions').selectAll().where(scoped(scope)).execute();
  // Sorted here, by code units, so SQLite and Postgres (whose collations differ) give one order.
  const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const matching = rows
    .map(toReferenceDefinition)
    .filter((definition) => !entities || definition.Entities.some((entity) => entities.includes(entity)))
    .sort((a, b) => byCodeUnits(a.Name, b.Name) || byCodeUnits(a.Id, b.Id));
  const start = page.Page * page.PageSize;
  return { items: matching.slice(start, start + page.PageSize), total: matching.length };
}

/** The Type of each of the tenant's definitions, by id: what a new load's references take theirs from. */
export async function listReferenceDefinitionTypes(db: Db, scope: Scope): Promise<Map<string, { Type: string }>> {
  const rows = await db.selectFrom('reference_definitions').select(['id', 'type']).where(scoped(scope)).execute();
  return new Map(rows.map((row) => [row.id, { Type: row.type }]));
}
