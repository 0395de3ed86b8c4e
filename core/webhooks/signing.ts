import { createHmac, randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, type SecretPurpose } from '../crypto/secret-box.js';
import type { Config } from '../config.js';

/**
 * Standard Webhooks signing (docs/api-rules.md#webhooks): secrets `whsec_<base64>`,
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`, one entry per
 * secret that still signs (two during a rotation's 24 h overlap).
 */

/** A new secret: `whsec_` and the base64 of 32 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signedHeaders(secrets: readonly string[], id: string, at: Date, body: string): SignedHeaders {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, id, timestamp, body)).join(' '),
  };
}

function keyOf(config: Config): Buffer {
  if (!config.secretKey) throw new Error('SECRET_KEY is not resolved; webhook secrets cannot be read or written');
  return config.secretKey;
}

export function sealSecret(config: Config, purpose: SecretPurpose, secret: string): string {
  return encryptSecret(keyOf(config), purpose, secret);
}

export function openSecret(config: Config, purpose: SecretPurpose, sealed: string): string {
  return decryptSecret(keyOf(config), purpose, sealed);
}

/** The secrets a subscription signs with at `now`: the current one, and the previous one until it expires. */
export function signingSecrets(
  config: Config,
  row: { secret_encrypted: string; previous_secret_encrypted: string | null; previous_secret_expires_at: string | null },
  now: string,
): string[] {
  const secrets = [openSecret(config, 'webhook-secret', row.secret_encrypted)];
  if (row.previous_secret_encrypted && row.previous_secret_expires_at && row.previous_secret_expires_at > now) {
    secrets.push(openSecret(config, 'webhook-secret', row.previous_secret_encrypted));
  }
  return secrets;
}
