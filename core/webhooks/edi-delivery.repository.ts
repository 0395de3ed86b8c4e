import type { Db } from '../../db/create-db.js';
import { newDeliveryId } from './event-body.js';
import { notInFlight, requeued } from './replay.repository.js';

/**
 * Deliveries of outbound EDI documents to their partners' OutboundUrl (docs/edi.md#outbound-delivery):
 * rows of the same queue as webhook events, so the dispatcher's claims, leases, retries and
 * attempt log serve them unchanged. `webhook_id` and `customer_id` are null; `edi_document_id`
 * names the document, the receiver is its partner.
 */

export interface EdiDeliveryInput {
  tenantId: string;
  documentId: string;
  /** The document's set: the delivery's event type is `edi.<set>`. */
  set: string;
  /** The X12 text, posted as is. */
  x12: string;
  /** Stored date-time: the document's creation, due at once. */
  now: string;
}

/** Queues a document's first delivery in the caller's transaction; answers the delivery id (every attempt's webhook-id). */
export async function queueEdiDelivery(trx: Db, input: EdiDeliveryInput): Promise<string> {
  const [id] = await queueEdiDeliveries(trx, [input]);
  return id!;
}

/** Queues documents' first deliveries in one statement; answers their delivery ids in order. */
export async function queueEdiDeliveries(trx: Db, inputs: readonly EdiDeliveryInput[]): Promise<string[]> {
  if (inputs.length === 0) return [];
  const rows = inputs.map((input) => {
    const id = newDeliveryId();
    return {
      id,
      // A document is not an event: like a test delivery, its webhook-id is its own.
      message_id: id,
      tenant_id: input.tenantId,
      webhook_id: null,
      customer_id: null,
      edi_document_id: input.documentId,
      outbox_id: null,
      event_type: `edi.${input.set}`,
      body: input.x12,
      event_at: input.now,
      state: 'pending',
      attempts: 0,
      retry_base: 0,
      next_attempt_at: input.now,
      lease_until: null,
      lease_token: null,
      created_at: input.now,
      updated_at: input.now,
    };
  });
  await trx.insertInto('webhook_deliveries').values(rows).execute();
  return rows.map((row) => row.id);
}

/**
 * Queues a document's delivery again, whatever its state: the same id and body, a fresh retry
 * schedule. Answers the delivery id, null when the document never had one (no OutboundUrl when
 * it was sent: the caller queues a first one), or 'in-flight' while an attempt runs.
 */
export async function requeueEdiDelivery(db: Db, tenantId: string, documentId: string, now: string): Promise<string | null | 'in-flight'> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('edi_document_id', '=', documentId)
    .executeTakeFirst();
  if (!row) return null;
  const result = await db.updateTable('webhook_deliveries').set(requeued(now)).where('id', '=', row.id).where(notInFlight(now)).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? row.id : 'in-flight';
}
