import type { ColumnType } from 'kysely';

/**
 * One outbox entry on its way to one receiver: a webhook subscription (`webhook_id`) or a
 * customer's visibility integration (`customer_id`); or an outbound EDI document on its way to
 * its trading partner (`edi_document_id`). `id` is the delivery's own (the delivery log's
 * DeliveryId); `message_id` is the `webhook-id` header of every attempt (the event's id; an EDI
 * document's delivery, like a test delivery, its own).
 */
export interface WebhookDeliveriesTable {
  id: string;
  /**
   * The `webhook-id` every attempt carries, so a redelivery after a crash, a retry, a replay or
   * a resend carries the same one: the event's id (`outbox_id`, the events feed's item id), the
   * same for every receiver of the event; a test delivery's own `id`. Rows made before
   * migration 2026-11-27T0360 hold their own `id`, which their earlier attempts carried.
   */
  message_id: string;
  tenant_id: string;
  webhook_id: string | null;
  customer_id: string | null;
  /** An outbound EDI document posted to its partner's OutboundUrl (docs/edi.md#outbound-delivery); null otherwise. */
  edi_document_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** The outbox entry it came from; null for `webhook.test` and EDI deliveries. */
  outbox_id: string | null;
  event_type: string;
  /** The exact JSON body every attempt sends: `{type, timestamp, data}`. */
  body: string;
  /** The event's own time (the body's `timestamp`): what a replay window selects by. Null only in rows written before migration 2026-11-23T0094 filled it. */
  event_at: string | null;
  /** `pending` until it ends as `succeeded`, `failed` (retries exhausted) or `skipped`. */
  state: string;
  /** Attempts made so far (skipped turns included). */
  attempts: number;
  /** Attempts made before the delivery was last queued again (replay, resend): its retry schedule counts from there. */
  retry_base: ColumnType<number, number | undefined, number>;
  next_attempt_at: string;
  /** A worker holds the delivery until then; an expired lease (a crashed worker) frees it. */
  lease_until: string | null;
  lease_token: string | null;
  created_at: string;
  updated_at: string;
}

/** The attempt log behind delivery logs, their export and health metrics. */
export interface WebhookDeliveryAttemptsTable {
  id: string;
  tenant_id: string;
  delivery_id: string;
  /** The outbox entry delivered (an event's id: the delivery log's EventId); null for a test delivery. */
  event_id: string | null;
  webhook_id: string | null;
  customer_id: string | null;
  event_type: string;
  /** 1-based attempt number within the delivery. */
  attempt: number;
  /** `success`, `failure`, `timeout` or `skipped`. */
  status: string;
  http_status: number | null;
  duration_ms: number;
  reason: string | null;
  /** The start of the receiver's answer, cut at a small cap. */
  response_body: string | null;
  attempted_at: string;
}

/**
 * How many attempts a subscription's delivery log holds per attempt status, kept exact by
 * database triggers (migration 2026-11-23T0084): the log's Total without a time or event-type
 * filter. Read-only for the app.
 */
export interface DeliveryAttemptCountsTable {
  webhook_id: string;
  status: string;
  /** bigint on Postgres (the driver returns text), integer on SQLite. */
  n: ColumnType<number | string, never, never>;
}
