import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for secrets the server must read back (webhook secrets, generated
 * signing keys): AES-256-GCM under a key derived from SECRET_KEY with HKDF, one derived key
 * per purpose so a value encrypted for one use cannot be replayed as another.
 * Format: `v1.<iv b64url>.<tag b64url>.<ciphertext b64url>`.
 */
export type SecretPurpose = 'webhook-secret' | 'signing-key' | 'visibility-secret' | 'download-link' | 'stored-answer' | 'edi-partner-secret';

/**
 * Derived keys by SECRET_KEY buffer and purpose: HKDF per call showed in the profile of the
 * ingestion bench (every share post opens its customer's secret). Keyed by the buffer object,
 * so a process with one configured key derives each purpose once, and a dropped key goes too.
 */
const derived = new WeakMap<Buffer, Map<SecretPurpose, Buffer>>();

export function deriveKey(secretKey: Buffer, purpose: SecretPurpose): Buffer {
  let keys = derived.get(secretKey);
  if (!keys) derived.set(secretKey, (keys = new Map()));
  let key = keys.get(purpose);
  if (!key) keys.set(purpose, (key = Buffer.from(hkdfSync('sha256', secretKey, Buffer.alloc(0), `waybill:${purpose}`, 32))));
  return key;
}

export function encryptSecret(secretKey: Buffer, purpose: SecretPurpose, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secretKey, purpose), iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

export function decryptSecret(secretKey: Buffer, purpose: SecretPurpose, sealed: string): string {
  const [version, iv, tag, body] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('malformed sealed secret');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(secretKey, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
}
