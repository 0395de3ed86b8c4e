import type { Db } from '../../db/create-db.js';
import { inScope, type Scope } from '../shared/scope.js';

/** The normalised request values a replay must repeat (docs/api-rules.md#idempotency: dates stored form, amounts as numbers, absent as null). */
export type Fingerprint = Record<string, string | number | null>;

export interface KeyClaim {
  /** The route family, e.g. `credits/driver`: keys are unique per tenant and family. */
  family: string;
  key: string;
  fingerprint: Fingerprint;
  recordId: string;
  now: string;
}

export interface ExistingClaim {
  recordId: string;
  fingerprint: Fingerprint;
}

// Keys have no subsidiary column: they are unique per tenant and family, so a key a sibling
// subsidiary used is taken, and the record it names is then read in the caller's own scope.
const keysOf = (scope: Scope) => inScope('idempotency_keys', scope, { subsidiaryColumn: null });

/**
 * Claims an idempotency key for a new record, in the caller's transaction. The primary key
 * decides, not a read before the write: of concurrent claims one inserts, and the others wait
 * for it (Postgres) or run after it (SQLite's single writer) and then read its row.
 * Answers null when this call claimed the key, else the claim that holds it.
 */
export async function claimKey(trx: Db, scope: Scope, claim: KeyClaim): Promise<ExistingClaim | null> {
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values({
      tenant_id: scope.tenantId,
      family: claim.family,
      key: claim.key,
      fingerprint: JSON.stringify(claim.fingerprint),
      record_id: claim.recordId,
      created_at: claim.now,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'family', 'key']).doNothing())
    .returning('record_id')
    .executeTakeFirst();
  if (inserted) return null;
  const row = await trx
    .selectFrom('idempotency_keys')
    .select(['record_id', 'fingerprint'])
    .where(keysOf(scope))
    .where('family', '=', claim.family)
    .where('key', '=', claim.key)
    .executeTakeFirstOrThrow();
  return { recordId: row.record_id, fingerprint: JSON.parse(row.fingerprint) as Fingerprint };
}

/** Points a key at a record that already carried it before keys were recorded (fixture data). */
export async function repointKey(trx: Db, scope: Scope, claim: Omit<KeyClaim, 'now'>): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ record_id: claim.recordId, fingerprint: JSON.stringify(claim.fingerprint) })
    .where(keysOf(scope))
    .where('family', '=', claim.family)
    .where('key', '=', claim.key)
    .execute();
}

/** The fields whose values differ between the first request and a replay. */
export function differingFields(first: Fingerprint, replay: Fingerprint): string[] {
  const names = new Set([...Object.keys(first), ...Object.keys(replay)]);
  return [...names].filter((name) => (first[name] ?? null) !== (replay[name] ?? null)).sort();
}
