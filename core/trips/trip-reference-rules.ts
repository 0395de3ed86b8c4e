import type { Db } from '../../db/create-db.js';
import { AppError, notFound, validationError } from '../errors.js';
import { findDefinitionForReference } from '../reference-definitions/reference-definition.repository.js';
import { isPlainDate } from '../shared/local-datetime.js';
import type { Scope } from '../shared/scope.js';
import { findTripReferenceOfDefinition } from './trip-reference.repository.js';

export interface ReferenceDefinition {
  id: string;
  name: string;
  type: string;
}

/** A catalog definition that applies to trips; 404 otherwise (reference definitions are tenant-wide). */
export async function requireTripDefinition(trx: Db, scope: Scope, definitionId: string): Promise<ReferenceDefinition> {
  const row = await findDefinitionForReference(trx, scope, definitionId);
  const entities: unknown = row ? JSON.parse(row.entities) : [];
  if (!row || !Array.isArray(entities) || !entities.includes('Trip')) throw notFound('Reference definition');
  return { id: row.id, name: row.name, type: row.type };
}

/** The catalog rules of docs/api-rules.md#trip-references: the name is the definition's, a Date definition takes yyyy-MM-dd. */
export function checkAgainstDefinition(definition: ReferenceDefinition | null, body: { Name: string; Value: string }): void {
  if (!definition) return;
  if (body.Name !== definition.name) {
    throw validationError('Name', `must be the name of the reference definition ${definition.id}: "${definition.name}".`);
  }
  if (definition.type === 'Date' && !isPlainDate(body.Value)) {
    throw validationError('Value', 'must be a date, yyyy-MM-dd, for a Date reference definition.');
  }
}

/** 409 when another reference of the trip already holds a value for the definition (docs/api-rules.md#trip-references). */
export async function refuseSecondValue(trx: Db, tripId: string, definitionId: string | null, exceptId?: string): Promise<void> {
  if (definitionId === null) return;
  const existing = await findTripReferenceOfDefinition(trx, tripId, definitionId, exceptId);
  if (existing) {
    throw new AppError('CONFLICT', `The trip already has a value for reference definition ${definitionId} (reference ${existing.id}); update that one.`, {
      subtype: 'DuplicateReference',
      extensions: { ExistingReferenceId: existing.id },
    });
  }
}

/** docs/api-rules.md#trip-references: what the API writes, whatever the reference held before. */
export const API_REFERENCE_ORIGIN = 'Integration';
export const API_REFERENCE_ACCESS = 'Internal';
export const FREE_REFERENCE_TYPE = 'Text';
