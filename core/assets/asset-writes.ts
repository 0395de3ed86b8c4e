import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import type { Scope } from '../shared/scope.js';
import type { AssetKind } from './asset-kinds.js';
import { duplicateNumber, isNumberTaken, isOwnerOperatorVisible } from './asset.repository.js';

/**
 * What the create and the patch of every asset kind share (docs/api-rules.md#drivers-trucks-and-trailers):
 * the kind's fields as columns, the owner-operator check and the number's 409.
 */

/**
 * The columns of the kind's own fields in `input`. A create (`'all'`) writes every column, a
 * field left out as null; a patch only the fields it sends (null clears a nullable one).
 */
export function columnsOf(kind: Pick<AssetKind, 'columns'>, input: Record<string, unknown>, which: 'all' | 'sent'): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [field, { column, store }] of Object.entries(kind.columns)) {
    const value = input[field];
    if (value === undefined && which === 'sent') continue;
    const given = value ?? null;
    columns[column] = store ? store(given) : given;
  }
  return columns;
}

/** 404 naming OwnerOperator when the body names one the caller cannot see. */
export async function refuseUnknownOwnerOperator(db: Db, scope: Scope, kind: Pick<AssetKind, 'ownerOperator'>, requested: unknown): Promise<void> {
  if (!kind.ownerOperator || typeof requested !== 'string') return;
  if (!(await isOwnerOperatorVisible(db, scope, requested))) throw notFound('OwnerOperator');
}

/** The 409 naming the kind's number when `error` is its unique index refusing `number`; undefined otherwise. */
export function numberConflict(kind: Pick<AssetKind, 'number' | 'table' | 'noun'>, error: unknown, number: unknown) {
  if (!kind.number || typeof number !== 'string' || !isNumberTaken(error, kind.table, kind.number.column)) return undefined;
  return duplicateNumber(kind.number.field, number, kind.noun);
}
