import type { Insertable } from 'kysely';
import type { WebhookDeliveriesTable } from '../../db/tables/webhook-deliveries.js';
import { timeOrderedUuid } from '../shared/record-id.js';

/**
 * The body every attempt of a delivery sends (docs/api-rules.md#webhooks): `{ type, timestamp, data }`,
 * with `data` spliced in as the JSON text the outbox holds, so it is not parsed and re-encoded.
 */
export function eventBody(type: string, timestamp: string, dataJson: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(timestamp)},"data":${dataJson}}`;
}

/** A delivery id: one event to one receiver, the delivery log's DeliveryId; time-ordered, as record ids are. */
export function newDeliveryId(): string {
  return `msg_${timeOrderedUuid().replaceAll('-', '')}`;
}

/**
 * A new delivery of one event to one target, due now: its first attempt is the dispatcher's
 * next turn. Its webhook-id is the event's id (docs/api-rules.md#webhooks), which the events
 * feed shows as the item's `id`: every receiver and every attempt, replay and resend of the
 * event carry it. A test delivery has no event (`outboxId` null) and carries its own id.
 */
export function pendingDelivery(fields: {
  tenantId: string;
  target: { webhook_id: string | null; customer_id: string | null };
  outboxId: string | null;
  eventType: string;
  timestamp: string;
  dataJson: string;
  now: string;
}): Insertable<WebhookDeliveriesTable> & { id: string } {
  const id = newDeliveryId();
  return {
    id,
    message_id: fields.outboxId ?? id,
    tenant_id: fields.tenantId,
    ...fields.target,
    outbox_id: fields.outboxId,
    event_type: fields.eventType,
    body: eventBody(fields.eventType, fields.timestamp, fields.dataJson),
    event_at: fields.timestamp,
    state: 'pending',
    attempts: 0,
    next_attempt_at: fields.now,
    lease_until: null,
    lease_token: null,
    created_at: fields.now,
    updated_at: fields.now,
  };
}
