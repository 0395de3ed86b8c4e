import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Selectable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { OutboxTable } from '../../db/tables/outbox.js';
import type { WebhookDeliveriesTable } from '../../db/tables/webhook-deliveries.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { formatStoredDateTime } from '../shared/datetime.js';

/**
 * The dispatcher's data: the outbox entries it fans out, the deliveries it claims, attempts and
 * moves on, and the receivers it reads for them. The worker serves every tenant at once: these
 * are not a caller's reads, and each delivery carries its own tenant.
 */

export type Delivery = Selectable<WebhookDeliveriesTable>;
export type OutboxRow = Selectable<OutboxTable>;

/** A subscription as fan-out routes to it. */
export type Subscription = { id: string; tenant_id: string; subsidiary_id: string; event_types: string };

/** A claimed delivery stays with its worker for the attempt's timeout plus this margin. */
const LEASE_MARGIN_MS = 5_000;

/** Rows per INSERT: far below SQLite's bound-parameter limit at 14 columns a row. */
const INSERT_CHUNK = 500;

/** Deliveries per UPDATE: three bound parameters each, far below either database's limit. */
const MOVE_CHUNK = 500;

/**
 * The one dialect branch of the dispatcher. On Postgres several workers share the outbox and
 * the delivery queue: rows one worker is claiming are locked and the others skip them instead
 * of waiting. SQLite has one writer at a time, so a transaction alone makes a claim exclusive.
 */
function lockForClaim<QB extends SelectQueryBuilder<any, any, any>>(trx: Db, query: QB): QB {
  return (dialectOf(trx) === 'postgres' ? query.forUpdate().skipLocked() : query) as QB;
}

/** Up to `limit` outbox entries not yet fanned out, oldest first, locked for the caller's transaction. */
export function claimOutboxEntries(trx: Db, limit: number): Promise<OutboxRow[]> {
  return lockForClaim(
    trx,
    trx.selectFrom('outbox').selectAll().where('dispatched_at', 'is', null).orderBy('created_at').orderBy('id').limit(limit),
  ).execute();
}

/** The tenants' Active, enabled subscriptions: the only ones that receive events. */
export function findReceivingSubscriptions(trx: Db, tenantIds: readonly string[]): Promise<Subscription[]> {
  return trx
    .selectFrom('webhooks')
    .select(['id', 'tenant_id', 'subsidiary_id', 'event_types'])
    .where('tenant_id', 'in', tenantIds)
    .where('status', '=', 'Active')
    .where('enabled', '=', 1)
    .orderBy('id')
    .execute();
}

/** Of these customers, those with a visibility integration, as `<tenant>/<customer>`. */
export async function findIntegratedCustomers(trx: Db, customerIds: readonly string[]): Promise<Set<string>> {
  if (customerIds.length === 0) return new Set();
  const rows = await trx.selectFrom('customers').select(['id', 'tenant_id']).where('id', 'in', customerIds).where('visibility_url', 'is not', null).execute();
  return new Set(rows.map((c) => `${c.tenant_id}/${c.id}`));
}

/** Inserts new deliveries, a chunk a statement. */
export async function insertDeliveries(trx: Db, deliveries: readonly Insertable<WebhookDeliveriesTable>[]): Promise<void> {
  for (let i = 0; i < deliveries.length; i += INSERT_CHUNK) {
    await trx.insertInto('webhook_deliveries').values(deliveries.slice(i, i + INSERT_CHUNK)).execute();
  }
}

/**
 * Claims up to `limit` due deliveries for this worker: a lease (time and token) set in the
 * claiming transaction keeps every other worker off them while the attempt runs. A worker
 * that dies mid-attempt leaves an expired lease behind, and the delivery is attempted again
 * with the same id (at-least-once).
 */
export async function claimDue(db: Db, clock: Clock, config: Config, limit: number): Promise<Delivery[]> {
  const now = clock.now();
  const nowText = formatStoredDateTime(now);
  const leaseUntil = formatStoredDateTime(now.getTime() + config.webhookTimeoutMs + LEASE_MARGIN_MS);
  return db.transaction().execute(async (trx) => {
    const rows = await lockForClaim(
      trx,
      trx
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('state', '=', 'pending')
        .where('next_attempt_at', '<=', nowText)
        .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', nowText)]))
        .orderBy('next_attempt_at')
        .orderBy('id')
        .limit(limit),
    ).execute();
    if (rows.length === 0) return [];
    const token = randomUUID();
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_until: leaseUntil, lease_token: token })
      .where('id', 'in', rows.map((r) => r.id))
      .execute();
    return rows.map((row) => ({ ...row, lease_until: leaseUntil, lease_token: token }));
  });
}

/** The receivers of a batch of deliveries: their subscriptions, their customers' visibility integrations, and their EDI documents' partners. */
export function findReceivers(db: Db, webhookIds: readonly string[], customerIds: readonly string[], ediDocumentIds: readonly string[]) {
  return Promise.all([
    webhookIds.length === 0 ? [] : db.selectFrom('webhooks').selectAll().where('id', 'in', webhookIds).execute(),
    customerIds.length === 0
      ? []
      : db
          .selectFrom('customers')
          .select(['id', 'tenant_id', 'visibility_url', 'visibility_secret_encrypted'])
          .where('id', 'in', customerIds)
          .execute(),
    ediDocumentIds.length === 0
      ? []
      : db
          .selectFrom('edi_documents')
          .innerJoin('edi_partners', 'edi_partners.id', 'edi_documents.partner_id')
          .select([
            'edi_documents.id as document_id',
            'edi_documents.tenant_id',
            'edi_partners.status',
            'edi_partners.outbound_url',
            'edi_partners.secret_encrypted',
          ])
          .where('edi_documents.id', 'in', ediDocumentIds)
          .execute(),
  ]);
}

/**
 * Deletes claimed deliveries whose receiver is gone, in one statement: nothing is left to
 * deliver to or to log against. A delivery no longer held by its lease is left alone.
 */
export async function dropDeliveries(db: Db, deliveries: readonly Delivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  await db
    .deleteFrom('webhook_deliveries')
    .where('id', 'in', deliveries.map((d) => d.id))
    .where(stillLeased(deliveries))
    .execute();
}

/** Where an attempt takes its delivery. */
export interface Move {
  delivery: Delivery;
  /** `succeeded`, `skipped` or `failed` end it; `pending` waits for the next retry. */
  state: string;
  /** The next retry's time; null leaves next_attempt_at as it is. */
  nextAttemptAt: string | null;
}

/**
 * Moves deliveries on after their attempts, releasing their leases: one UPDATE per distinct
 * (state, next attempt) whatever the number of deliveries, so a group of successes costs one
 * statement. Only a delivery still held by the lease it was claimed with moves (a lost lease
 * means the delivery was deleted, requeued or claimed again meanwhile), and since the lease
 * holds, its attempts are the ones claimed: `attempts + 1` is the attempt just made.
 * The ids must be distinct. Answers the ids that moved.
 */
export async function moveDeliveries(trx: Db, moves: readonly Move[], updatedAt: string): Promise<Set<string>> {
  const groups = new Map<string, Move[]>();
  for (const move of moves) {
    const key = `${move.state} ${move.nextAttemptAt ?? ''}`;
    const group = groups.get(key) ?? [];
    group.push(move);
    groups.set(key, group);
  }
  const moved = new Set<string>();
  for (const group of groups.values()) {
    const { state, nextAttemptAt } = group[0]!;
    for (let i = 0; i < group.length; i += MOVE_CHUNK) {
      const deliveries = group.slice(i, i + MOVE_CHUNK).map((move) => move.delivery);
      const rows = await trx
        .updateTable('webhook_deliveries')
        .set({
          state,
          attempts: sql<number>`attempts + 1`,
          ...(nextAttemptAt === null ? {} : { next_attempt_at: nextAttemptAt }),
          lease_until: null,
          lease_token: null,
          updated_at: updatedAt,
        })
        // The id list lets both databases find the rows by primary key; the pairs check the leases.
        .where('id', 'in', deliveries.map((d) => d.id))
        .where(stillLeased(deliveries))
        .returning('id')
        .execute();
      for (const row of rows) moved.add(row.id);
    }
  }
  return moved;
}

/** Each delivery still carries the lease token it was claimed with (a row-value IN, which both databases take with a VALUES list). */
function stillLeased(deliveries: readonly Pick<Delivery, 'id' | 'lease_token'>[]) {
  const pairs = sql.join(deliveries.map((d) => sql`(${d.id}, ${d.lease_token})`));
  return sql<SqlBool>`(id, lease_token) in (values ${pairs})`;
}
