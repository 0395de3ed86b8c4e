import type { Db } from '../../db/create-db.js';
import { insertGeneratedDeduction, type GeneratedDeduction } from '../deductions/deduction.repository.js';
import { createOnce, type CreateOnceResult } from '../idempotency/create-once.js';
import type { Fingerprint } from '../idempotency/idempotency.repository.js';
import type { Scope } from '../shared/scope.js';
import { importKey } from './import-parties.repository.js';

/** What every imported card transaction row has: fuel purchases and tolls alike. */
interface ImportedRow {
  id: string;
  deduction_id: string | null;
}

/** One fuel or toll import: the row to write and what differs between the two kinds. */
export interface CardImport<Row extends ImportedRow> {
  scope: Scope;
  family: 'fuel' | 'tolls';
  source: string;
  transactionId: string;
  row: Row;
  now: string;
  fingerprint: (row: Row) => Fingerprint;
  findByKey: (trx: Db, tenantId: string, source: string, transactionId: string) => Promise<Row | undefined>;
  insert: (trx: Db, row: Row) => Promise<void>;
  /** The owner-operator's deduction the import generates, or null when it charges none. */
  deduction: Omit<GeneratedDeduction, 'tenantId' | 'now'> | null;
}

/**
 * Writes an import at most once per (Source, TransactionId) in the tenant, with the deduction
 * it generates in the same transaction; a replay answers the first import's id. A transaction
 * loaded from a fixture holds the key too, without an idempotency row, so it is looked up by it.
 */
export async function importOnce<Row extends ImportedRow>(db: Db, spec: CardImport<Row>): Promise<CreateOnceResult> {
  const { scope, row, now } = spec;
  return createOnce(db, {
    scope,
    family: spec.family,
    key: importKey(spec.source, spec.transactionId),
    keyName: 'Source and TransactionId',
    fingerprint: spec.fingerprint(row),
    recordId: row.id,
    now,
    findUnkeyed: async (trx) => {
      const loaded = await spec.findByKey(trx, scope.tenantId, spec.source, spec.transactionId);
      return loaded && { recordId: loaded.id, fingerprint: spec.fingerprint(loaded) };
    },
    create: async (trx) => {
      if (spec.deduction) row.deduction_id = await insertGeneratedDeduction(trx, { ...spec.deduction, tenantId: scope.tenantId, now });
      await spec.insert(trx, row);
    },
  });
}
