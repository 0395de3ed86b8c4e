import { EVENT_TYPES } from '../../core/webhooks/event-types.js';

type Json = Record<string, any>;
type EventType = (typeof EVENT_TYPES)[number]['Type'];

/** `data.diff` of the `*.changed` and `*.updated` events: what changed, field by field. */
const diffSchema: Json = {
  type: 'object',
  properties: {
    changes: {
      type: 'array',
      items: {
        type: 'object',
        description: 'One change. `Field` is a PascalCase path (`Stops[stp_1].ArrivedAt`, `BillingAddress.City`); Eta fields never appear.',
        properties: { Field: { type: 'string' }, From: {}, To: {} },
        required: ['Field', 'From', 'To'],
        additionalProperties: false,
      },
    },
  },
  required: ['changes'],
  additionalProperties: false,
};

/** What names the stop in every `stop.*` event's data. */
const stopEventIds: Json = { LoadNumber: { type: 'string' }, TripId: { type: 'string' }, StopId: { type: 'string' } };

/** `{ LoadNumber, TripId, StopId, Detention }` of the detention events; the ended one's Detention may be null (withdrawn). */
function detentionData(schemas: Json, nullable: boolean): Json {
  if (!schemas.Detention) throw new Error('webhooks: no component Detention');
  const detention = { $ref: '#/components/schemas/Detention' };
  return {
    type: 'object',
    properties: {
      ...stopEventIds,
      Detention: nullable ? { anyOf: [detention, { type: 'null' }] } : detention,
    },
    required: ['LoadNumber', 'TripId', 'StopId', 'Detention'],
    additionalProperties: false,
  };
}

/** `data` of `stop.arrived` and `stop.departed` (docs/api-rules.md#geofences). */
function stopVisitSchema(time: 'ArrivedAt' | 'DepartedAt'): Json {
  return {
    type: 'object',
    properties: {
      ...stopEventIds,
      StopType: { type: 'string', description: 'Pickup, Delivery or Waypoint.' },
      [time]: { type: 'string', format: 'date-time', description: 'UTC, as the stop reads it.' },
      Source: { type: 'string', enum: ['Manual', 'Geofence'], description: 'Manual: the stop route; Geofence: positions attached to the trip.' },
    },
    required: ['LoadNumber', 'TripId', 'StopId', 'StopType', time, 'Source'],
    additionalProperties: false,
  };
}

/**
 * What each event's `data` is, from the code that appends it to the outbox: a component of
 * the document (the same snapshot the API's read answers) with the extra members the event
 * adds. Keyed by the catalog's type, so a new event type that has no entry here fails the
 * type check.
 */
const payloads: Record<EventType, { component?: string; extra?: Json; required?: string[]; inline?: (schemas: Json) => Json }> = {
  'trip.changed': { component: 'Trip', extra: { diff: diffSchema }, required: ['diff'] },
  'trip.status.changed': { component: 'Trip', extra: { diff: diffSchema }, required: ['diff'] },
  'load.changed': {
    inline: (schemas) => ({
      type: 'object',
      description:
        'A change of the load\'s own fields (PATCH /loads/{loadNumber}) carries the whole load as GET reads it, its diff naming ' +
        'the fields (`OrderNumber`, `ExternalIds.<source>`); a document change carries the load\'s number and status, its ' +
        'diff naming the document (`Documents[<id>]`, `Documents[<id>].AttachmentType`).',
      properties: { ...schemas.Load.properties, diff: diffSchema },
      required: ['LoadNumber', 'Status', 'diff'],
      additionalProperties: false,
    }),
  },
  'load.status.changed': { component: 'Load', extra: { diff: diffSchema }, required: ['diff'] },
  'load.created': { component: 'Load' },
  'trip.created': { component: 'Trip' },
  'document.created': { component: 'Document', extra: { LoadNumber: { type: 'string' } }, required: ['LoadNumber'] },
  'document.updated': { component: 'Document', extra: { LoadNumber: { type: 'string' }, diff: diffSchema }, required: ['LoadNumber', 'diff'] },
  'carrier.document.created': { component: 'Document', extra: { CarrierId: { type: 'string' } }, required: ['CarrierId'] },
  'document.deleted': { component: 'Document', extra: { LoadNumber: { type: 'string' } }, required: ['LoadNumber'] },
  'carrier.document.deleted': { component: 'Document', extra: { CarrierId: { type: 'string' } }, required: ['CarrierId'] },
  'carrier.document.updated': { component: 'Document', extra: { CarrierId: { type: 'string' }, diff: diffSchema }, required: ['CarrierId', 'diff'] },
  'customer.created': { component: 'Customer' },
  'customer.updated': { component: 'Customer', extra: { diff: diffSchema }, required: ['diff'] },
  'customer.deleted': { component: 'Customer' },
  'carrier.created': { component: 'Carrier' },
  'carrier.changed': { component: 'Carrier', extra: { diff: diffSchema }, required: ['diff'] },
  'location.created': { component: 'Location' },
  'location.changed': { component: 'Location', extra: { diff: diffSchema }, required: ['diff'] },
  'invoice.payment.recorded': { component: 'Invoice', extra: { Payment: { $ref: '#/components/schemas/InvoicePayment' } }, required: ['Payment'] },
  'invoice.paid': { component: 'Invoice' },
  'invoice.created': { component: 'Invoice' },
  'invoice.voided': { component: 'Invoice', extra: { Reason: { type: 'string', description: 'The Reason the void gave; absent when none.' } } },
  'tender.received': { component: 'Tender' },
  'tender.changed': { component: 'Tender' },
  'tender.accepted': { component: 'Tender' },
  'tender.rejected': { component: 'Tender' },
  'tender.cancelled': { component: 'Tender' },
  'tender.expired': { component: 'Tender' },
  'load.note.created': { component: 'LoadNote', extra: { LoadNumber: { type: 'string' } }, required: ['LoadNumber'] },
  'trip.check_call.created': { component: 'CheckCall', extra: { LoadNumber: { type: 'string' } }, required: ['LoadNumber'] },
  'driver.created': { component: 'Driver' },
  'driver.changed': { component: 'Driver', extra: { diff: diffSchema }, required: ['diff'] },
  'truck.created': { component: 'Truck' },
  'truck.changed': { component: 'Truck', extra: { diff: diffSchema }, required: ['diff'] },
  'trailer.created': { component: 'Trailer' },
  'trailer.changed': { component: 'Trailer', extra: { diff: diffSchema }, required: ['diff'] },
  'stop.arrived': { inline: () => stopVisitSchema('ArrivedAt') },
  'stop.departed': { inline: () => stopVisitSchema('DepartedAt') },
  'stop.detention.started': { inline: (schemas) => detentionData(schemas, false) },
  'stop.detention.ended': { inline: (schemas) => detentionData(schemas, true) },
  'edi.partner.created': { component: 'EdiPartner' },
  'edi.partner.changed': { component: 'EdiPartner', extra: { diff: diffSchema }, required: ['diff'] },
  'webhook.test': {
    inline: () => ({
      type: 'object',
      properties: { WebhookId: { type: 'string' }, Message: { type: 'string' } },
      required: ['WebhookId', 'Message'],
      additionalProperties: false,
    }),
  },
};

/** `Trip` becomes `TripChangedEventData` (`trip.check_call.created`: `TripCheckCallCreatedEventData`) and so on: one component per event's data. */
function componentName(type: string, suffix: string): string {
  return type.split(/[._]/).map((part) => part[0]!.toUpperCase() + part.slice(1)).join('') + suffix;
}

/**
 * The OpenAPI 3.1 `webhooks` section: one entry per event type, the POST a subscription
 * receives, with its `{ type, timestamp, data }` body, the Standard Webhooks headers, and what
 * the receiver answers. The data schemas are copies of the snapshot components with the
 * event's extra members, because the components refuse unknown properties.
 */
export function addWebhooks(doc: Json): void {
  const schemas: Json = doc.components.schemas;
  schemas.EventDiff = diffSchema;
  doc.webhooks = {};
  for (const { Type: type, Description: description } of EVENT_TYPES) {
    const payload = payloads[type];
    const base: Json | undefined = payload.component ? schemas[payload.component] : undefined;
    if (payload.component && !base) throw new Error(`webhooks: no component ${payload.component} for ${type}`);
    const data: Json = payload.inline?.(schemas) ?? {
      ...base,
      properties: { ...base!.properties, ...replaceDiff(payload.extra ?? {}) },
      required: [...(base!.required ?? []), ...(payload.required ?? [])],
    };
    const dataName = componentName(type, 'EventData');
    schemas[dataName] = payload.inline ? { ...data, properties: replaceDiff(data.properties) } : data;
    const envelopeName = componentName(type, 'Event');
    schemas[envelopeName] = {
      type: 'object',
      description: `The body of a \`${type}\` delivery.`,
      properties: {
        type: { type: 'string', const: type },
        timestamp: { type: 'string', format: 'date-time', description: 'When the event happened (UTC).' },
        data: { $ref: `#/components/schemas/${dataName}` },
      },
      required: ['type', 'timestamp', 'data'],
      additionalProperties: false,
    };
    doc.webhooks[type] = {
      post: {
        operationId: `event_${type.replaceAll('.', '_')}`,
        tags: ['Webhooks'],
        summary: type,
        description: `${description}\n\nSigned with the Standard Webhooks scheme; every attempt of one delivery carries the same \`webhook-id\`.`,
        parameters: [
          { in: 'header', name: 'webhook-id', required: true, schema: { type: 'string' } },
          { in: 'header', name: 'webhook-timestamp', required: true, schema: { type: 'string', pattern: '^[0-9]+$' }, description: 'Unix seconds.' },
          {
            in: 'header',
            name: 'webhook-signature',
            required: true,
            schema: { type: 'string' },
            description: 'Space-separated `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`; two entries for 24 h after a secret rotation.',
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${envelopeName}` } } } },
        responses: {
          '2XX': { description: 'Received. Any other status, a redirect or a timeout is a failed attempt, retried later.' },
        },
      },
    };
  }
}

/** The diff as a reference to its one component, so each event does not repeat it. */
function replaceDiff(properties: Json): Json {
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, schema === diffSchema ? { $ref: '#/components/schemas/EventDiff' } : schema]));
}
