import type { Db } from '../../db/create-db.js';
import { AppError } from '../errors.js';
import type { Scope } from '../shared/scope.js';
import { claimKey, differingFields, repointKey, type ExistingClaim, type Fingerprint } from './idempotency.repository.js';

export interface CreateOnceOptions {
  /** The caller's: keys are claimed in its tenant. */
  scope: Scope;
  family: string;
  /** The ExternalId; null creates without idempotency. */
  key: string | null;
  /** What the key is called in the 409's detail; `ExternalId` when absent. */
  keyName?: string;
  fingerprint: Fingerprint;
  /** The id the new record gets. */
  recordId: string;
  now: string;
  /** Inserts the record (and whatever goes with it) in the transaction. */
  create: (trx: Db) => Promise<void>;
  /**
   * A record of this family that already carries the key without a key row (loaded from a
   * fixture), with the fingerprint of its current values.
   */
  findUnkeyed?: (trx: Db) => Promise<ExistingClaim | undefined>;
  /**
   * The 503 of accessorial creates (docs/api-rules.md#problems): when the commit fails or does not answer within
   * this many milliseconds, the write may or may not exist and the caller is told to retry
   * the identical request.
   */
  confirmWithinMs?: number;
}

export interface CreateOnceResult {
  recordId: string;
  replayed: boolean;
}

function replayOf(existing: ExistingClaim, fingerprint: Fingerprint, keyName = 'ExternalId'): CreateOnceResult {
  const changed = differingFields(existing.fingerprint, fingerprint);
  if (changed.length > 0) {
    throw new AppError('CONFLICT', `The ${keyName} was already used with different values (${changed.join(', ')}); use a new ${keyName}.`, {
      subtype: 'IdempotencyKeyReuse',
      extensions: { ConflictingFields: changed },
    });
  }
  return { recordId: existing.recordId, replayed: true };
}

export function writeNotConfirmed(cause: unknown): AppError {
  return new AppError(
    'WRITE_NOT_CONFIRMED',
    'The write could not be confirmed and the record may exist. Retrying the identical request with the same ExternalId is safe: it returns the record if it was created.',
    { cause },
  );
}

/**
 * `createOnce` inside the caller's transaction (an EDI 204 creates its tender beside the
 * interchange's other sets: docs/edi.md#inbound): the key row and the record are written with the caller's other
 * writes, or rolled back with them.
 */
export async function createOnceIn(trx: Db, options: Omit<CreateOnceOptions, 'confirmWithinMs'>): Promise<CreateOnceResult> {
  if (options.key !== null) {
    const claim = { family: options.family, key: options.key, fingerprint: options.fingerprint, recordId: options.recordId };
    const existing = await claimKey(trx, options.scope, { ...claim, now: options.now });
    if (existing) return replayOf(existing, options.fingerprint, options.keyName);
    const unkeyed = await options.findUnkeyed?.(trx);
    if (unkeyed) {
      await repointKey(trx, options.scope, { ...claim, recordId: unkeyed.recordId, fingerprint: unkeyed.fingerprint });
      return replayOf(unkeyed, options.fingerprint, options.keyName);
    }
  }
  await options.create(trx);
  return { recordId: options.recordId, replayed: false };
}

/**
 * Creates a record at most once per idempotency key (docs/api-rules.md#idempotency): the key row and the record commit together, so either both exist or
 * neither does; a replay with the same normalised values answers the first record, a replay
 * with other values is 409 IdempotencyKeyReuse.
 */
export async function createOnce(db: Db, options: CreateOnceOptions): Promise<CreateOnceResult> {
  let bodyDone = false;
  const run = db.transaction().execute(async (trx) => {
    const result = await createOnceIn(trx, options);
    bodyDone = true;
    return result;
  });

  if (options.confirmWithinMs === undefined) return run;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(writeNotConfirmed(new Error('commit timed out'))), options.confirmWithinMs);
  });
  try {
    return await Promise.race([run, timeout]);
  } catch (error) {
    // Refusals (409, …) are answers, not unconfirmed writes; so is a failure before the
    // record was written, which rolled everything back.
    if (error instanceof AppError || !bodyDone) throw error;
    throw writeNotConfirmed(error);
  } finally {
    clearTimeout(timer);
    // A commit that loses the race still settles later; nothing waits for it.
    run.catch(() => undefined);
  }
}
