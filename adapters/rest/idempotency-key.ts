import { createHash } from 'node:crypto';
import { TransactionBuilder } from 'kysely';
import type { Clock } from '../../core/clock.js';
import type { Principal } from '../../core/trpc.js';
import type { Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';
import { claimKey, markCommitted, releaseKey, storeAnswer, type Claim, type StoredAnswer } from '../../core/idempotency/request-idempotency-key.repository.js';
import { problemAnswer, type Answer } from './answer.js';
import { buildProblem, problemKinds } from '../http/problem.js';
import { decryptSecret, encryptSecret } from '../../core/crypto/secret-box.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** 1 to 255 visible ASCII characters (docs/api-rules.md#idempotency). */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
const validKey = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The headers of the first answer a replay repeats; the rest (version, rate) are the replay's own. */
const REPLAYED_HEADERS = ['Location', 'ETag', 'Content-Type'];

/**
 * Which answers a key keeps. Deterministic outcomes of the request are kept, so a retry gets
 * the same answer: 2xx, and 4xx the request itself caused (400 validation, 404, 409 of the
 * domain, 412, 422, ...). Not kept, so that a retry runs again: 401 and 403 (the credential,
 * not the request, was at fault and may be fixed), 408 and 429 (timing), and 5xx (the server
 * failed; the retry is what the client is told to do). Streamed answers are never kept.
 */
export function isStoredOutcome(status: number): boolean {
  if (status >= 200 && status < 300) return true;
  return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
}

export interface IdempotencyKeyOptions {
  db: Db;
  clock: Clock;
  baseUrl: string;
  principal: Principal;
  /** The header's raw value (`req.headers['idempotency-key']`). */
  header: string | string[] | undefined;
  /** The request path, for problems' Instance. */
  instance: string;
  /** SECRET_KEY: stored answers are sealed with it (they can hold a revealed secret or a link token). */
  secretKey: Buffer | null;
}

export type IdempotencyKeyStart =
  /** No header: the request runs as usual. */
  | { kind: 'absent' }
  /** Send this at once: 400 for a malformed key, 409 RequestInProgress while the key is busy. */
  | { kind: 'refused'; answer: Answer }
  | { kind: 'held'; key: HeldIdempotencyKey };

/**
 * The Idempotency-Key of one POST under /api/p/, for any route (JSON, multipart, ...). Use:
 *
 * 1. after authentication, rate limit and scope: `const start = await startIdempotencyKey(...)`;
 *    `refused` → send `start.answer`. The key is claimed before the body is read, so a second
 *    request with a busy key is refused at once, even while a 10 MiB upload is still arriving.
 * 2. once the raw body is read: `const early = await key.fingerprint(requestDigest(method, target, rawBody))`
 *    (or, for a streamed body, the digest of a `bodyHasher` fed its chunks);
 *    an answer (the stored replay, or 409 IdempotencyKeyReuse) is sent as it is, nothing runs.
 * 3. run the request with `key.fence(db)` as its database, so its write transaction marks
 *    the key committed in the same transaction (see `markCommitted`);
 * 4. `await key.finish(answer)` before sending the answer (kept or released per
 *    `isStoredOutcome`), or `await key.release()` when the request fails without an answer.
 */
export async function startIdempotencyKey(options: IdempotencyKeyOptions): Promise<IdempotencyKeyStart> {
  const { header } = options;
  if (header === undefined) return { kind: 'absent' };
  const problem = (detail: string, subtype?: string, errors?: Record<string, string[]>) =>
    problemAnswer(
      buildProblem(options.baseUrl, {
        kind: errors ? problemKinds.VALIDATION : problemKinds.CONFLICT,
        subtype,
        detail,
        instance: options.instance,
        errors,
      }),
    );
  // A repeated header arrives joined with ", ": the space makes it invalid, as it should be.
  const key = Array.isArray(header) ? header.join(', ') : header;
  if (!validKey.test(key)) {
    const message = 'Send 1 to 255 visible ASCII characters (0x21 to 0x7E), no spaces.';
    return { kind: 'refused', answer: problem('See Errors for the fields to correct.', undefined, { [IDEMPOTENCY_KEY_HEADER]: [message] }) };
  }
  const owner = { tenantId: options.principal.TenantId, clientId: options.principal.ClientId, key };
  const claimed = await claimKey(options.db, owner, options.clock.now());
  if (claimed.kind === 'in-progress') {
    return {
      kind: 'refused',
      answer: problem('A request with this Idempotency-Key is still in progress; retry once it has finished.', 'RequestInProgress'),
    };
  }
  const reuse = () =>
    problem('The Idempotency-Key was already used with another method, path or body; use a new key.', 'IdempotencyKeyReuse');
  const box = answerBox(options.secretKey);
  if (claimed.kind === 'done') return { kind: 'held', key: new ReplayingKey(claimed.fingerprint, box.open(claimed.answer), reuse) };
  return { kind: 'held', key: new ClaimedKey(options.db, claimed.claim, box) };
}

export interface HeldIdempotencyKey {
  /** The stored replay or a 409 reuse to send as it is, or undefined: run the request. */
  fingerprint(digest: string): Promise<Answer | undefined>;
  /** The request's database: its transactions also mark the key committed. */
  fence(db: Db): Db;
  /** Keeps the answer for replays, or gives the key up (per `isStoredOutcome`). Call before sending it. */
  finish(answer: Answer): Promise<void>;
  /** Gives the key up when the request ends without an answer to keep. */
  release(): Promise<void>;
}

/**
 * The fingerprint of a request: sha256 of method, path (with its query) and the raw body bytes,
 * fed as they arrive (a streamed upload is hashed without keeping it), hex once complete.
 */
export function bodyHasher(method: string, target: string): { update(chunk: Uint8Array): void; digest(): string } {
  const hash = createHash('sha256').update(`${method}\n${target}\n`);
  return { update: (chunk) => void hash.update(chunk), digest: () => hash.digest('hex') };
}

export function requestDigest(method: string, target: string, rawBody: Buffer): string {
  const hasher = bodyHasher(method, target);
  hasher.update(rawBody);
  return hasher.digest();
}

/**
 * Stored answers are sealed (AES-256-GCM under a key derived from SECRET_KEY): an answer may
 * carry a webhook secret just revealed or rotated, or a tracking link's token, and secrets are
 * never kept in the clear. Status stays readable; headers and body travel sealed in the body.
 */
interface AnswerBox {
  seal(answer: StoredAnswer): StoredAnswer;
  open(stored: StoredAnswer): StoredAnswer;
}

function answerBox(secretKey: Buffer | null): AnswerBox {
  const key = (): Buffer => {
    if (!secretKey) throw new Error('SECRET_KEY is not resolved; Idempotency-Key answers cannot be stored or read');
    return secretKey;
  };
  return {
    seal: (answer) => ({ status: answer.status, headers: {}, body: encryptSecret(key(), 'stored-answer', JSON.stringify({ headers: answer.headers, body: answer.body })) }),
    open: (stored) => {
      const opened = JSON.parse(decryptSecret(key(), 'stored-answer', stored.body)) as { headers: Record<string, string>; body: string };
      return { status: stored.status, headers: opened.headers, body: opened.body };
    },
  };
}

/** The key already holds an answer. */
class ReplayingKey implements HeldIdempotencyKey {
  constructor(
    private readonly stored: string,
    private readonly answer: StoredAnswer,
    private readonly reuse: () => Answer,
  ) {}

  async fingerprint(digest: string): Promise<Answer> {
    if (digest !== this.stored) return this.reuse();
    const headers: Record<string, string> = { ...this.answer.headers, 'Idempotent-Replayed': 'true', 'Cache-Control': 'no-store' };
    if (this.answer.body) headers['Content-Length'] = String(Buffer.byteLength(this.answer.body));
    return { status: this.answer.status, headers, ...(this.answer.body ? { body: this.answer.body } : {}) };
  }

  fence(db: Db): Db {
    return db;
  }

  async finish(): Promise<void> {}

  async release(): Promise<void> {}
}

/** This request claimed the key and runs. */
class ClaimedKey implements HeldIdempotencyKey {
  private hash: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly claim: Claim,
    private readonly box: AnswerBox,
  ) {}

  async fingerprint(digest: string): Promise<undefined> {
    this.hash = digest;
    return undefined;
  }

  fence(db: Db): Db {
    return fencedDb(db, async (trx) => {
      if (this.hash !== undefined) await markCommitted(trx, this.claim, this.hash);
    });
  }

  async finish(answer: Answer): Promise<void> {
    // Before the fingerprint is known (the body could not be read) there is nothing to compare
    // a replay with: the key is given up.
    if (this.hash === undefined || !isStoredOutcome(answer.status)) return this.release();
    const headers = Object.fromEntries(REPLAYED_HEADERS.filter((name) => answer.headers[name] !== undefined).map((name) => [name, answer.headers[name]!]));
    await storeAnswer(this.db, this.claim, this.hash, this.box.seal({ status: answer.status, headers, body: answer.body ?? '' }));
  }

  async release(): Promise<void> {
    await releaseKey(this.db, this.claim);
  }
}

/**
 * `db` whose transactions run `onCommit` in the transaction, after the caller's work and
 * before the commit. It wraps the one way procedures write together (`db.transaction()`), so
 * every route, present or future, gets the fence without knowing about keys.
 */
function fencedDb(db: Db, onCommit: (trx: Db) => Promise<void>): Db {
  return new Proxy(db, {
    get(target, property) {
      if (property === 'transaction') return () => fencedTransaction(target.transaction(), onCommit);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function fencedTransaction(builder: TransactionBuilder<Database>, onCommit: (trx: Db) => Promise<void>): TransactionBuilder<Database> {
  return new Proxy(builder, {
    get(target, property) {
      if (property === 'execute') {
        return <T>(work: (trx: Db) => Promise<T>) =>
          target.execute(async (trx) => {
            const result = await work(trx);
            await onCommit(trx);
            return result;
          });
      }
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      // Settings (isolation level, access mode) answer a new builder: fence that one too.
      return (...args: unknown[]) => {
        const out: unknown = value.apply(target, args);
        return out instanceof TransactionBuilder ? fencedTransaction(out as TransactionBuilder<Database>, onCommit) : out;
      };
    },
  });
}
