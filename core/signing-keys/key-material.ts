import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { Config } from '../config.js';
import { decryptSecret, encryptSecret } from '../crypto/secret-box.js';

export const ALG = 'ES256';

/** A key pair in the forms the token host needs; `kid` is the RFC 7638 thumbprint of `publicJwk`. */
export interface KeyMaterial {
  kid: string;
  /** Only the public members (kty, crv, x, y), so it can be published as it is. */
  publicJwk: JWK;
  privateKey: CryptoKey;
}

/** Drops every private and descriptive member: what is left is safe to publish. */
export function publicJwkOf(jwk: JWK): JWK {
  const { kty, crv, x, y } = jwk;
  if (kty !== 'EC' || crv !== 'P-256' || !x || !y) throw new Error('signing keys must be P-256 EC keys (ES256)');
  return { kty, crv, x, y };
}

export async function importEcKey(jwk: JWK): Promise<CryptoKey> {
  const key = await importJWK(jwk, ALG);
  // A symmetric JWK would import as raw bytes; never accept one as a signing or verification key.
  if (key instanceof Uint8Array) throw new Error('expected an EC key, got a symmetric one');
  return key;
}

export function requireSecretKey(config: Config, purpose: string): Buffer {
  if (!config.secretKey) {
    throw new Error(`SECRET_KEY is required to ${purpose} (set SECRET_KEY, or JWT_PRIVATE_KEY to sign with your own key)`);
  }
  return config.secretKey;
}

export async function generateKeyMaterial(): Promise<KeyMaterial> {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true });
  const publicJwk = publicJwkOf(await exportJWK(privateKey));
  return { kid: await calculateJwkThumbprint(publicJwk), publicJwk, privateKey };
}

/** JWT_PRIVATE_KEY as PKCS#8 PEM; env files often carry the line breaks as literal `\n`. */
export async function keyMaterialFromPem(pem: string): Promise<KeyMaterial> {
  let privateKey: CryptoKey;
  try {
    privateKey = await importPKCS8(pem.replace(/\\n/g, '\n').trim(), ALG, { extractable: true });
  } catch {
    throw new Error('JWT_PRIVATE_KEY must be an ES256 (P-256) private key in PKCS#8 PEM form');
  }
  const publicJwk = publicJwkOf(await exportJWK(privateKey));
  return { kid: await calculateJwkThumbprint(publicJwk), publicJwk, privateKey };
}

export async function sealPrivateKey(secretKey: Buffer, material: KeyMaterial): Promise<string> {
  return encryptSecret(secretKey, 'signing-key', JSON.stringify(await exportJWK(material.privateKey)));
}

export async function unsealPrivateKey(secretKey: Buffer, sealed: string): Promise<CryptoKey> {
  let jwk: JWK;
  try {
    jwk = JSON.parse(decryptSecret(secretKey, 'signing-key', sealed)) as JWK;
  } catch {
    throw new Error('cannot decrypt the stored signing key: SECRET_KEY is not the one it was stored with');
  }
  return importEcKey(jwk);
}
