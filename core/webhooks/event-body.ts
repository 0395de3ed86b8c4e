import { randomUUID } from 'node:crypto';

/**
 * The body every attempt of a delivery sends (DECISIONS "Webhooks"): `{ type, timestamp, data }`,
 * with `data` spliced in as the JSON text the outbox holds, so it is not parsed and re-encoded.
 */
export function eventBody(type: string, timestamp: string, dataJson: string): string {
  return `{"type":${JSON.stringify(type)},"timestamp":${JSON.stringify(timestamp)},"data":${dataJson}}`;
}

/** A delivery id: the `webhook-id` header, the same for every attempt of the delivery. */
export function newDeliveryId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}
