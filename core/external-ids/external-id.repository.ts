import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import { AppError } from '../errors.js';
import { pairsOf, type ExternalIdPair, type TExternalIds } from './external-ids.schemas.js';

/**
 * The `external_ids` table: one row per `(source, id)` pair of a record's ExternalIds, unique
 * per tenant and kind by its primary key. Each kind's repository calls these inside the
 * transaction that writes the record, so the map on the row and the pairs here never differ.
 */

export type ExternalIdKind = 'loads' | 'drivers' | 'trucks' | 'trailers' | 'carriers';

export function duplicateExternalId(pair: ExternalIdPair): AppError {
  return new AppError('CONFLICT', `ExternalIds pair ${pair.source}:${pair.value} is already used by another record of this kind.`, {
    subtype: 'Duplicate',
    extensions: { Field: 'ExternalIds' },
  });
}

/**
 * Records `pairs` for the record, or 409 Conflict/Duplicate naming the first pair another
 * record holds. `on conflict do nothing` keeps a Postgres transaction usable after a clash, and
 * a concurrent claim of the same pair waits on the key until the first one commits.
 */
export async function claimExternalIds(
  trx: Db,
  tenantId: string,
  kind: ExternalIdKind,
  recordId: string,
  pairs: readonly ExternalIdPair[],
): Promise<void> {
  if (pairs.length === 0) return;
  const inserted = await trx
    .insertInto('external_ids')
    .values(pairs.map((pair) => ({ tenant_id: tenantId, kind, source: pair.source, value: pair.value, record_id: recordId })))
    .onConflict((conflict) => conflict.doNothing())
    .returning(['source', 'value'])
    .execute();
  if (inserted.length === pairs.length) return;
  const won = new Set(inserted.map((row) => `${row.source}\u0000${row.value}`));
  const lost = pairs.find((pair) => !won.has(`${pair.source}\u0000${pair.value}`))!;
  throw duplicateExternalId(lost);
}

/** Moves a record from `before` to `after`: pairs no longer held are released, new ones claimed. */
export async function replaceExternalIds(
  trx: Db,
  tenantId: string,
  kind: ExternalIdKind,
  recordId: string,
  before: TExternalIds,
  after: TExternalIds,
): Promise<void> {
  const gone = pairsOf(before).filter((pair) => after[pair.source] !== pair.value);
  const added = pairsOf(after).filter((pair) => before[pair.source] !== pair.value);
  for (const pair of gone) {
    await trx
      .deleteFrom('external_ids')
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', kind)
      .where('source', '=', pair.source)
      .where('value', '=', pair.value)
      .where('record_id', '=', recordId)
      .execute();
  }
  await claimExternalIds(trx, tenantId, kind, recordId, added);
}

/** The id of the record of `kind` holding `pair`, if any. */
export async function recordWithExternalId(db: Db, tenantId: string, kind: ExternalIdKind, pair: ExternalIdPair): Promise<string | undefined> {
  const row = await db
    .selectFrom('external_ids')
    .select('record_id')
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('source', '=', pair.source)
    .where('value', '=', pair.value)
    .executeTakeFirst();
  return row?.record_id;
}

/**
 * A condition for a list of `kind`: the row (its id in column `idColumn`) holds `pair`. One
 * probe of the primary key, so the filter costs the same at any size.
 */
export function holdsExternalId(tenantId: string, kind: ExternalIdKind, pair: ExternalIdPair, idColumn: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(idColumn)} = (select record_id from external_ids where tenant_id = ${tenantId} and kind = ${kind} and source = ${pair.source} and value = ${pair.value})`;
}
