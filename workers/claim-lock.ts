import type { SelectQueryBuilder } from 'kysely';
import { dialectOf, type Db } from '../db/create-db.js';

/**
 * The one dialect branch of the dispatcher. On Postgres several workers share the outbox and
 * the delivery queue: rows one worker is claiming are locked and the others skip them instead
 * of waiting. SQLite has one writer at a time, so a transaction alone makes a claim exclusive.
 */
export function lockForClaim<QB extends SelectQueryBuilder<any, any, any>>(trx: Db, query: QB): QB {
  return (dialectOf(trx) === 'postgres' ? query.forUpdate().skipLocked() : query) as QB;
}
