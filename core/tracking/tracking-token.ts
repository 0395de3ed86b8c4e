import { createHash, randomBytes } from 'node:crypto';

/**
 * Customer tracking link tokens (docs/api-rules.md#tracking-links): 256 random bits as
 * base64url (43 characters), so a link cannot be guessed. The database keeps only the token's
 * SHA-256: a stolen backup opens no page. A fast hash suffices because the input has no
 * structure to guess, unlike a password.
 */

export const TRACK_PATH_PREFIX = '/track/';
export const TRACKING_LINK_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newTrackingToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The stored key of a token; null for text that cannot be a token this server issued. */
export function trackingTokenHash(token: string): string | null {
  if (!TOKEN_PATTERN.test(token)) return null;
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

export function trackingUrl(baseUrl: string, token: string): string {
  return `${baseUrl}${TRACK_PATH_PREFIX}${token}`;
}
