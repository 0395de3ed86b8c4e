import { randomUUID } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import { AppError } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { commitWithoutFlush } from '../../db/commit-without-flush.js';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';

/** A key answers replays for 24 hours after its first request; then it is new again. */
export const KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * A claim still `running` this long after it was taken belongs to a process that died (no
 * request runs that long: bodies are at most 10 MiB and the database answers in seconds), so
 * a retry may take it over. Taking over replaces the claim token; should the first request
 * still be alive after all, its transaction can no longer commit (`markCommitted`).
 */
export const TAKEOVER_AFTER_MS = 5 * 60 * 1000;

/** Whose key: a key belongs to one client application of one tenant. */
export interface KeyOwner {
  tenantId: string;
  clientId: string;
  key: string;
}

/** A key this request holds; `token` proves it still does. */
export interface Claim extends KeyOwner {
  token: string;
}

/** What a replay answers: the first answer's status, body and headers worth repeating. */
export interface StoredAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type ClaimResult =
  | { kind: 'claimed'; claim: Claim }
  /** Another request holds the key, or wrote under it and died before storing its answer. */
  | { kind: 'in-progress' }
  | { kind: 'done'; fingerprint: string; answer: StoredAnswer };

const TABLE = 'request_idempotency_keys' as const;

/**
 * Postgres: the claim's insert (and the stored answer, `storeAnswer`) commits without waiting
 * for its WAL to reach the disk (db/commit-without-flush.ts, evaluated in its RETURNING list). That wait was a whole flush on every POST with a key, before its
 * real write even began. Nothing can be lost by it: Postgres writes its WAL in order, so the
 * request's write transaction, which commits with the usual flush, makes the claim durable
 * with it (its `markCommitted` needs the claim row anyway); and a claim lost to a database
 * crash before any write only means a retry runs again, as if the first request never came.
 * Not inside a transaction: there the setting would hold for the caller's writes too.
 */
const claimReturning = (db: Db) =>
  dialectOf(db) === 'postgres' && !db.isTransaction ? [commitWithoutFlush.as('commit_mode')] : [];

const ofOwner = (owner: KeyOwner) => (eb: ExpressionBuilder<Database, typeof TABLE>) =>
  eb.and([eb('tenant_id', '=', owner.tenantId), eb('client_id', '=', owner.clientId), eb('idempotency_key', '=', owner.key)]);

/**
 * Claims a key with one atomic insert on the primary key (tenant, client, key): of concurrent
 * requests, in one process or several over one Postgres database, exactly one inserts. The
 * others read the row: a stored answer (`done`), a claim in progress, or one they may take
 * over (expired, or a stale `running` claim) with a compare-and-set on the claim token, which
 * again only one of them wins.
 */
export async function claimKey(db: Db, owner: KeyOwner, now: Date): Promise<ClaimResult> {
  const nowText = formatStoredDateTime(now);
  const fresh = () => ({
    state: 'running',
    claim_token: randomUUID(),
    claimed_at: nowText,
    expires_at: formatStoredDateTime(now.getTime() + KEY_LIFETIME_MS),
    fingerprint: null,
    response_status: null,
    response_headers: null,
    response_body: null,
  });
  // A race lost to a takeover or an expiry pass sends the loser round again; three rounds
  // cannot all lose, since every lost round means another request now holds the key.
  for (let round = 0; round < 3; round += 1) {
    const values = fresh();
    const inserted = await db
      .insertInto(TABLE)
      .values({ tenant_id: owner.tenantId, client_id: owner.clientId, idempotency_key: owner.key, ...values })
      .onConflict((oc) => oc.columns(['tenant_id', 'client_id', 'idempotency_key']).doNothing())
      .returning(['claim_token', ...claimReturning(db)])
      .executeTakeFirst();
    if (inserted) return { kind: 'claimed', claim: { ...owner, token: values.claim_token } };

    const row = await db.selectFrom(TABLE).selectAll().where(ofOwner(owner)).executeTakeFirst();
    if (!row) continue;
    const expired = row.expires_at <= nowText;
    const stale = row.state === 'running' && row.claimed_at <= formatStoredDateTime(now.getTime() - TAKEOVER_AFTER_MS);
    if (expired || stale) {
      const taken = await db
        .updateTable(TABLE)
        .set(values)
        .where(ofOwner(owner))
        .where('claim_token', '=', row.claim_token)
        .returning('claim_token')
        .executeTakeFirst();
      if (taken) return { kind: 'claimed', claim: { ...owner, token: values.claim_token } };
      continue;
    }
    if (row.state === 'done' && row.response_status !== null && row.fingerprint !== null) {
      return {
        kind: 'done',
        fingerprint: row.fingerprint,
        answer: { status: row.response_status, headers: JSON.parse(row.response_headers ?? '{}'), body: row.response_body ?? '' },
      };
    }
    return { kind: 'in-progress' };
  }
  return { kind: 'in-progress' };
}

/**
 * Run inside the request's own write transaction: marks the claim `committed` with the
 * request's fingerprint, so the write and "this key has written" commit together. From then
 * on the key is never released or taken over (a retry cannot write a second record), even if
 * the process dies before `storeAnswer`. A request whose claim was taken over meanwhile fails
 * here and its transaction rolls back.
 */
export async function markCommitted(trx: Db, claim: Claim, fingerprint: string): Promise<void> {
  const marked = await trx
    .updateTable(TABLE)
    .set({ state: 'committed', fingerprint })
    .where(ofOwner(claim))
    .where('claim_token', '=', claim.token)
    .where('state', 'in', ['running', 'committed'])
    .returning('claim_token')
    .executeTakeFirst();
  if (!marked) {
    throw new AppError('CONFLICT', 'This request ran so long that a retry with its Idempotency-Key took over; nothing was written.', {
      subtype: 'RequestInProgress',
    });
  }
}

/**
 * Stores the answer replays will repeat. On Postgres, like the claim, its commit does not wait
 * for the WAL flush: the write it answers is already durable, and so is `committed` with it, so
 * a Postgres crash in the next moments (three times `wal_writer_delay`) can only forget the
 * stored answer, leaving the key as a process that died before storing it leaves it (retries
 * answer RequestInProgress until the key expires). That wait was a second flush on every POST
 * with a key, after its write's own.
 */
export async function storeAnswer(db: Db, claim: Claim, fingerprint: string, answer: StoredAnswer): Promise<void> {
  await db
    .updateTable(TABLE)
    .set({
      state: 'done',
      fingerprint,
      response_status: answer.status,
      response_headers: JSON.stringify(answer.headers),
      response_body: answer.body,
    })
    .where(ofOwner(claim))
    .where('claim_token', '=', claim.token)
    .returning(['claim_token', ...claimReturning(db)])
    .execute();
}

/**
 * Gives the key up so a retry runs again: only while nothing was committed under it. A claim
 * already `committed` (the write happened, its answer was not storable) stays, answering
 * RequestInProgress until it expires rather than letting a retry write twice.
 */
export async function releaseKey(db: Db, claim: Claim): Promise<void> {
  await db.deleteFrom(TABLE).where(ofOwner(claim)).where('claim_token', '=', claim.token).where('state', '=', 'running').execute();
}

/** Deletes keys past their 24 hours (workers/idempotency-key-expiry.ts); answers how many. */
export async function deleteExpiredKeys(db: Db, now: Date): Promise<number> {
  const result = await db.deleteFrom(TABLE).where('expires_at', '<=', formatStoredDateTime(now)).executeTakeFirst();
  return Number(result.numDeletedRows);
}
