import type { Db } from '../../db/create-db.js';
import { decoyHash, generateClientSecret, hashSecret, verifySecret } from '../crypto/secret-hash.js';
import { AppError } from '../errors.js';
import { findAnySubsidiary } from '../subsidiaries/subsidiary.repository.js';
import {
  deactivateClient,
  findClient,
  insertClient,
  updateClientSecret,
  type ClientRecord,
  type NewClient,
} from './client.repository.js';
import { requireTenant } from './tenant-setup.js';

// API clients and their secrets: the operator creates, rotates and revokes them (bin/admin.ts),
// the token host authenticates them. A secret is shown once, when it is made; only its hash
// is stored.

/** Answers the new client's secret. */
export async function createClient(db: Db, client: NewClient): Promise<string> {
  await requireTenant(db, client.tenantId);
  if (client.subsidiaryId !== null && (await findAnySubsidiary(db, client.subsidiaryId))?.tenantId !== client.tenantId) {
    throw new AppError('NOT_FOUND', `tenant ${client.tenantId} has no subsidiary ${client.subsidiaryId}`);
  }
  if (await findClient(db, client.clientId)) throw new AppError('CONFLICT', `client ${client.clientId} already exists`);
  const secret = generateClientSecret();
  await insertClient(db, { ...client, secretHash: await hashSecret(secret) });
  return secret;
}

/** Replaces the secret (the old one stops working at once); a revoked client stays revoked. */
export async function rotateClientSecret(db: Db, clientId: string, now: Date): Promise<{ secret: string; active: boolean }> {
  const client = await findClient(db, clientId);
  if (!client) throw new AppError('NOT_FOUND', `client ${clientId} does not exist`);
  const secret = generateClientSecret();
  await updateClientSecret(db, clientId, await hashSecret(secret), now);
  return { secret, active: client.active };
}

export async function revokeClient(db: Db, clientId: string): Promise<void> {
  if (!(await deactivateClient(db, clientId))) throw new AppError('NOT_FOUND', `client ${clientId} does not exist`);
}

/** The client when the secret is its own and it is active; undefined however it fails, so failures look alike. */
export async function authenticateClient(db: Db, clientId: string, secret: string): Promise<ClientRecord | undefined> {
  // Unknown ids are checked against a decoy hash so response time does not reveal which ids exist.
  const client = await findClient(db, clientId);
  const matches = await verifySecret(secret, client?.secretHash ?? (await decoyHash()));
  return client && matches && client.active ? client : undefined;
}
