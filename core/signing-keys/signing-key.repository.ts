import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../db/database.js';
import type { SigningKeysTable } from '../../db/tables/tenancy.js';

export type SigningKeyRow = Selectable<SigningKeysTable>;

/** Keys a live token may still name: not retired yet, or retired but not past `expires_at`. Newest first. */
export function listLiveKeys(db: Kysely<Database>, nowIso: string): Promise<SigningKeyRow[]> {
  return db
    .selectFrom('signing_keys')
    .selectAll()
    .where((eb) => eb.or([eb('retired_at', 'is', null), eb('expires_at', '>', nowIso)]))
    .orderBy('created_at', 'desc')
    .orderBy('kid', 'desc')
    .execute();
}

export function listAllKeys(db: Kysely<Database>): Promise<SigningKeyRow[]> {
  return db.selectFrom('signing_keys').selectAll().orderBy('created_at', 'desc').orderBy('kid', 'desc').execute();
}

/** Idempotent: several processes starting at once may all record the same JWT_PRIVATE_KEY. */
export async function insertKey(
  db: Kysely<Database>,
  row: { kid: string; publicJwk: string; privateJwkEncrypted: string | null; createdAt: string },
): Promise<void> {
  await db
    .insertInto('signing_keys')
    .values({
      kid: row.kid,
      public_jwk: row.publicJwk,
      private_jwk_encrypted: row.privateJwkEncrypted,
      created_at: row.createdAt,
      retired_at: null,
      expires_at: null,
    })
    .onConflict((oc) => oc.column('kid').doNothing())
    .execute();
}

/** Retires every key still in service (except `keepKid`); they stay published until `expiresAt`. */
export async function retireKeys(
  db: Kysely<Database>,
  options: { retiredAt: string; expiresAt: string; keepKid?: string },
): Promise<void> {
  let query = db
    .updateTable('signing_keys')
    .set({ retired_at: options.retiredAt, expires_at: options.expiresAt })
    .where('retired_at', 'is', null);
  if (options.keepKid !== undefined) query = query.where('kid', '!=', options.keepKid);
  await query.execute();
}
