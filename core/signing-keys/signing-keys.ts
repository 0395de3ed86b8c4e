import type { CryptoKey, JWK, KeyObject } from 'jose';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../../db/create-db.js';
import {
  ALG,
  generateKeyMaterial,
  importEcKey,
  keyMaterialFromPem,
  requireSecretKey,
  sealPrivateKey,
  unsealPrivateKey,
  type KeyMaterial,
} from './key-material.js';
import { insertKey, listLiveKeys, retireKeys, type SigningKeyRow } from './signing-key.repository.js';

export type KeyLike = CryptoKey | KeyObject;

/** A key may sign for this long after another process rotated it, until this process reloads. */
export const KEY_REFRESH_MS = 60_000;
/** An unknown `kid` reloads the keys at most this often, so forged kids cannot hammer the database. */
const UNKNOWN_KID_RELOAD_MS = 30_000;

interface PublishedKey {
  kid: string;
  jwk: JWK;
  key: CryptoKey;
  /** null while the key is in service. */
  expiresAt: string | null;
}

interface CurrentKey {
  kid: string;
  privateKey: CryptoKey;
  published: PublishedKey;
}

export interface SigningKeysOptions {
  db: Db;
  config: Config;
  clock: Clock;
}

/**
 * The token host's signing key and every public key a live token may name. Keys live in
 * `signing_keys`, shared by every process on the database: the CLI rotates there and running
 * servers pick the change up on their next reload.
 */
export class SigningKeys {
  private published = new Map<string, PublishedKey>();
  private loadedAt = 0;
  private lastUnknownKidReload = Number.NEGATIVE_INFINITY;
  private reloading: Promise<void> | undefined;

  private constructor(
    private readonly options: SigningKeysOptions,
    private current: CurrentKey,
  ) {}

  static async load(options: SigningKeysOptions): Promise<SigningKeys> {
    const current = options.config.jwtPrivateKeyPem ? await adoptPemKey(options) : await loadStoredKey(options);
    const keys = new SigningKeys(options, current);
    await keys.refresh();
    return keys;
  }

  /**
   * Generates a key, makes it the one to sign with and retires the previous ones. They stay
   * published until every token they signed has expired (plus the reload interval, during
   * which a process that has not noticed the rotation yet may still sign with them).
   */
  static async rotate(db: Db, config: Config, clock: Clock): Promise<string> {
    if (config.jwtPrivateKeyPem) {
      throw new Error('JWT_PRIVATE_KEY is set, so tokens are signed with it: rotate by replacing that key instead');
    }
    const secretKey = requireSecretKey(config, 'generate a signing key');
    const material = await generateKeyMaterial();
    const sealed = await sealPrivateKey(secretKey, material);
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      await retireKeys(trx, { retiredAt: now.toISOString(), expiresAt: retiredUntil(config, now) });
      await insertKey(trx, {
        kid: material.kid,
        publicJwk: JSON.stringify(material.publicJwk),
        privateJwkEncrypted: sealed,
        createdAt: now.toISOString(),
      });
    });
    return material.kid;
  }

  signingKey(): { kid: string; key: KeyLike } {
    return { kid: this.current.kid, key: this.current.privateKey };
  }

  /** The JWKS document: the current key first, then retired keys whose tokens may still be live. */
  jwks(): { keys: JWK[] } {
    const now = this.options.clock.now().toISOString();
    const others = [...this.published.values()].filter(
      (k) => k.kid !== this.current.kid && (k.expiresAt === null || k.expiresAt > now),
    );
    return { keys: [this.current.published, ...others].map((k) => ({ ...k.jwk, kid: k.kid, alg: ALG, use: 'sig' })) };
  }

  async verificationKey(kid: string): Promise<KeyLike | undefined> {
    const found = this.liveKey(kid);
    if (found) return found;
    const now = this.options.clock.now().getTime();
    const sinceLastReload = now - this.lastUnknownKidReload;
    // A clock set backwards counts as time passed rather than blocking reloads until it catches up.
    if (sinceLastReload >= 0 && sinceLastReload < UNKNOWN_KID_RELOAD_MS) return undefined;
    this.lastUnknownKidReload = now;
    await this.refresh();
    return this.liveKey(kid);
  }

  /** Reloads when the keys in memory are older than KEY_REFRESH_MS; the token host calls it per request. */
  async refreshIfStale(): Promise<void> {
    const age = this.options.clock.now().getTime() - this.loadedAt;
    if (age < 0 || age >= KEY_REFRESH_MS) await this.refresh();
  }

  /** Reloads the published keys and, without JWT_PRIVATE_KEY, the newest key to sign with. */
  refresh(): Promise<void> {
    // Concurrent callers share one reload instead of each querying the database.
    this.reloading ??= this.reload().finally(() => {
      this.reloading = undefined;
    });
    return this.reloading;
  }

  private async reload(): Promise<void> {
    const { db, config, clock } = this.options;
    const now = clock.now();
    const rows = await listLiveKeys(db, now.toISOString());
    const next = new Map<string, PublishedKey>();
    for (const row of rows) {
      const known = this.published.get(row.kid);
      next.set(row.kid, known ? { ...known, expiresAt: row.expires_at } : await publishedKeyOf(row));
    }
    if (!config.jwtPrivateKeyPem) {
      const newest = rows.find((row) => row.retired_at === null && row.private_jwk_encrypted !== null);
      if (newest && newest.kid !== this.current.kid) {
        this.current = await currentKeyOf(config, newest, next.get(newest.kid) ?? (await publishedKeyOf(newest)));
      }
    }
    this.published = next;
    this.loadedAt = now.getTime();
  }

  private liveKey(kid: string): CryptoKey | undefined {
    if (kid === this.current.kid) return this.current.published.key;
    const entry = this.published.get(kid);
    if (!entry) return undefined;
    return entry.expiresAt === null || entry.expiresAt > this.options.clock.now().toISOString() ? entry.key : undefined;
  }
}

function retiredUntil(config: Config, now: Date): string {
  return new Date(now.getTime() + config.tokenLifetimeSeconds * 1000 + KEY_REFRESH_MS).toISOString();
}

async function publishedKeyOf(row: SigningKeyRow): Promise<PublishedKey> {
  const jwk = JSON.parse(row.public_jwk) as JWK;
  return { kid: row.kid, jwk, key: await importEcKey(jwk), expiresAt: row.expires_at };
}

async function currentKeyOf(config: Config, row: SigningKeyRow, published: PublishedKey): Promise<CurrentKey> {
  const secretKey = requireSecretKey(config, 'decrypt the stored signing key');
  const privateKey = await unsealPrivateKey(secretKey, row.private_jwk_encrypted ?? '');
  return { kid: row.kid, privateKey, published };
}

async function currentFromMaterial(material: KeyMaterial): Promise<CurrentKey> {
  const published = { kid: material.kid, jwk: material.publicJwk, key: await importEcKey(material.publicJwk), expiresAt: null };
  return { kid: material.kid, privateKey: material.privateKey, published };
}

/**
 * JWT_PRIVATE_KEY signs. Its public key is recorded so that the JWKS keeps it after the
 * operator replaces it; keys in service before it are retired like a rotation, so their
 * tokens keep verifying until they expire.
 */
async function adoptPemKey({ db, config, clock }: SigningKeysOptions): Promise<CurrentKey> {
  const material = await keyMaterialFromPem(config.jwtPrivateKeyPem ?? '');
  const now = clock.now();
  await insertKey(db, {
    kid: material.kid,
    publicJwk: JSON.stringify(material.publicJwk),
    privateJwkEncrypted: null,
    createdAt: now.toISOString(),
  });
  await retireKeys(db, { retiredAt: now.toISOString(), expiresAt: retiredUntil(config, now), keepKid: material.kid });
  return currentFromMaterial(material);
}

/** The newest stored key in service; on first start, a new one. */
async function loadStoredKey(options: SigningKeysOptions): Promise<CurrentKey> {
  const { db, config, clock } = options;
  const rows = await listLiveKeys(db, clock.now().toISOString());
  const newest = rows.find((row) => row.retired_at === null && row.private_jwk_encrypted !== null);
  if (newest) return currentKeyOf(config, newest, await publishedKeyOf(newest));
  const kid = await SigningKeys.rotate(db, config, clock);
  const stored = (await listLiveKeys(db, clock.now().toISOString())).find((row) => row.kid === kid);
  if (!stored) throw new Error('the new signing key was not stored');
  return currentKeyOf(config, stored, await publishedKeyOf(stored));
}
