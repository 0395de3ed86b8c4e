import { sql } from 'kysely';

/**
 * Postgres: an expression that, evaluated by a statement run on its own (autocommit), makes that
 * statement's commit return without waiting for its WAL to reach the disk: `synchronous_commit`
 * off for that one transaction (`set_config(…, true)` is local to it), at no round trip. Other
 * sessions see the write at once; a Postgres crash may forget it. Only for writes whose loss is
 * harmless or made good by a later flushed commit (WAL is written in order), and never inside a
 * caller's transaction, where it would hold for the caller's writes too. Used by the
 * `Idempotency-Key` claim and the rate limiter's leases.
 */
export const commitWithoutFlush = sql<string>`set_config('synchronous_commit', 'off', true)`;
