import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { ApiClientsTable } from '../../db/tables/tenancy.js';
import { parseScopeList } from '../auth/scopes.js';

/** What the token endpoint needs to authenticate a client and shape its token. */
export interface ClientRecord {
  clientId: string;
  tenantId: string;
  subsidiaryId: string | null;
  name: string | null;
  scopes: string[];
  secretHash: string;
  active: boolean;
}

/** A client as the operator CLI lists it: never the secret hash. */
export type ClientSummary = Omit<ClientRecord, 'secretHash'> & { createdAt: string; secretRotatedAt: string | null };

/** A client to create: active from the start, its secret yet to be made. */
export type NewClient = Omit<ClientRecord, 'secretHash' | 'active'> & { now: Date };

type ClientRow = Omit<Selectable<ApiClientsTable>, 'secret_hash'>;

function toClient(row: ClientRow): Omit<ClientRecord, 'secretHash'> {
  return {
    clientId: row.client_id,
    tenantId: row.tenant_id,
    subsidiaryId: row.subsidiary_id,
    name: row.name,
    scopes: parseScopeList(row.scopes),
    active: row.active === 1,
  };
}

function toSummary(row: ClientRow): ClientSummary {
  return { ...toClient(row), createdAt: row.created_at, secretRotatedAt: row.secret_rotated_at };
}

/** Unscoped by design: the token host looks a client up by id before any principal exists; the CLI has none. */
export async function findClient(db: Db, clientId: string): Promise<ClientRecord | undefined> {
  const row = await db.selectFrom('api_clients').selectAll().where('client_id', '=', clientId).executeTakeFirst();
  return row && { ...toClient(row), secretHash: row.secret_hash };
}

export async function insertClient(db: Db, client: NewClient & { secretHash: string }): Promise<void> {
  await db
    .insertInto('api_clients')
    .values({
      client_id: client.clientId,
      tenant_id: client.tenantId,
      subsidiary_id: client.subsidiaryId,
      name: client.name,
      scopes: client.scopes.join(' '),
      secret_hash: client.secretHash,
      active: 1,
      created_at: client.now.toISOString(),
      secret_rotated_at: null,
    })
    .execute();
}

/** Unscoped by design: for the operator CLI, which lists any tenant's clients and has no principal. */
export async function listClients(db: Db, filter: { tenantId?: string } = {}): Promise<ClientSummary[]> {
  let query = db
    .selectFrom('api_clients')
    .select(['client_id', 'tenant_id', 'subsidiary_id', 'name', 'scopes', 'active', 'created_at', 'secret_rotated_at'])
    .orderBy('tenant_id')
    .orderBy('client_id');
  if (filter.tenantId !== undefined) query = query.where('tenant_id', '=', filter.tenantId);
  return (await query.execute()).map(toSummary);
}

/** Replaces the secret hash; the old secret stops working at once. False when no such client. */
export async function updateClientSecret(db: Db, clientId: string, secretHash: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('api_clients')
    .set({ secret_hash: secretHash, secret_rotated_at: now.toISOString() })
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Stops the client from getting new tokens. False when no such client. */
export async function deactivateClient(db: Db, clientId: string): Promise<boolean> {
  const result = await db.updateTable('api_clients').set({ active: 0 }).where('client_id', '=', clientId).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
