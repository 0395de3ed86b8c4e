import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../crypto/secret-box.js';
import { formatStoredDateTime } from '../shared/datetime.js';

/**
 * Signed download links (docs/api-rules.md#documents): `{PUBLIC_BASE_URL}/files/{token}`, valid
 * 10 minutes. The token signs the document id and the expiry only, so a type change (or any
 * other edit of the document) leaves issued links working, and the bytes are looked up again
 * when the link is used (a deleted document is gone even while its link is unexpired).
 *
 * Token: `<base64url("<expiry ms>:<document id>")>.<base64url(HMAC-SHA256)>`, the MAC keyed
 * with a key derived from SECRET_KEY for this purpose alone. Everything here is pure: the
 * caller passes the key material and the current time.
 */

export const DOWNLOAD_LINK_TTL_MS = 10 * 60 * 1000;
export const FILES_PATH_PREFIX = '/files/';

// Deriving the key is an HKDF per call; the secret does not change while the process runs.
const keys = new WeakMap<Buffer, Buffer>();

export function downloadLinkKey(secretKey: Buffer | null): Buffer {
  if (!secretKey) throw new Error('SECRET_KEY is required to sign download links');
  let key = keys.get(secretKey);
  if (!key) {
    key = deriveKey(secretKey, 'download-link');
    keys.set(secretKey, key);
  }
  return key;
}

function mac(key: Buffer, payload: string): Buffer {
  return createHmac('sha256', key).update(payload, 'utf8').digest();
}

export function signDownloadToken(key: Buffer, documentId: string, expiresAtMs: number): string {
  const payload = `${expiresAtMs}:${documentId}`;
  return `${Buffer.from(payload, 'utf8').toString('base64url')}.${mac(key, payload).toString('base64url')}`;
}

export interface DownloadLink {
  DownloadUrl: string;
  ExpiresAt: string;
}

/** A link to `documentId` valid for 10 minutes from `now`. */
export function issueDownloadLink(options: { key: Buffer; baseUrl: string; documentId: string; now: Date }): DownloadLink {
  const expiresAtMs = options.now.getTime() + DOWNLOAD_LINK_TTL_MS;
  const token = signDownloadToken(options.key, options.documentId, expiresAtMs);
  return { DownloadUrl: `${options.baseUrl}${FILES_PATH_PREFIX}${token}`, ExpiresAt: formatStoredDateTime(expiresAtMs) };
}

export type TokenCheck =
  | { valid: true; documentId: string; expiresAtMs: number }
  /** `forged`: not a token this server signed (or altered); `expired`: signed, but past its expiry. */
  | { valid: false; reason: 'forged' | 'expired' };

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const PAYLOAD = /^(\d{1,15}):(.+)$/s;

/**
 * Checks a token's signature, then its expiry: only a genuine token can be told apart as
 * expired, so a forged one reveals nothing about the ids it names.
 */
export function verifyDownloadToken(key: Buffer, token: string, now: Date): TokenCheck {
  const dot = token.indexOf('.');
  const encodedPayload = token.slice(0, dot);
  const encodedMac = token.slice(dot + 1);
  if (dot <= 0 || !BASE64URL.test(encodedPayload) || !BASE64URL.test(encodedMac)) return { valid: false, reason: 'forged' };
  const payload = Buffer.from(encodedPayload, 'base64url').toString('utf8');
  const given = Buffer.from(encodedMac, 'base64url');
  const expected = mac(key, payload);
  // Re-encoding must give the same text, or two spellings of one token would both verify.
  const canonical = given.toString('base64url') === encodedMac && Buffer.from(payload, 'utf8').toString('base64url') === encodedPayload;
  if (!canonical || given.length !== expected.length || !timingSafeEqual(given, expected)) return { valid: false, reason: 'forged' };
  const match = PAYLOAD.exec(payload);
  if (!match) return { valid: false, reason: 'forged' };
  const expiresAtMs = Number(match[1]);
  if (now.getTime() >= expiresAtMs) return { valid: false, reason: 'expired' };
  return { valid: true, documentId: match[2] as string, expiresAtMs };
}
