/**
 * The event catalog (docs/api-rules.md#webhooks). Subscriptions list exact types or `<prefix>.*`
 * patterns; a pattern matches every type that starts with `<prefix>.`.
 */
export const EVENT_TYPES = [
  { Type: 'trip.changed', Description: 'A trip or its stops, references or assignment changed; data.diff.changes lists what. Never sent for an ETA-only change.' },
  { Type: 'trip.status.changed', Description: "A trip's Status changed; data is the trip with Eta on the trip and every stop." },
  { Type: 'load.changed', Description: "A load's fields or documents changed; data.diff.changes lists what." },
  { Type: 'load.status.changed', Description: "A load's Status changed." },
  { Type: 'document.created', Description: 'A load or trip document was added.' },
  { Type: 'document.updated', Description: "A load or trip document changed (for example its AttachmentType)." },
  { Type: 'document.deleted', Description: 'A load or trip document was deleted; data is its last state with LoadNumber (no DownloadUrl). Routed by subsidiary.' },
  { Type: 'carrier.document.created', Description: "A carrier's document was added; sent to every subscription of the tenant." },
  { Type: 'carrier.document.updated', Description: "A carrier's document changed; sent to every subscription of the tenant." },
  { Type: 'carrier.document.deleted', Description: "A carrier's document was deleted; data is its last state with CarrierId (no DownloadUrl). Sent to every subscription of the tenant." },
  { Type: 'customer.created', Description: 'A customer was created; data is the customer. Routed by its subsidiary, to every subscription when it has none.' },
  { Type: 'customer.updated', Description: 'A customer changed; data is the customer with data.diff.changes. Routed like customer.created.' },
  { Type: 'customer.deleted', Description: 'A customer was deleted; data is its last state. Routed like customer.created.' },
  { Type: 'carrier.created', Description: 'A carrier was created; data is the carrier. Sent to every subscription of the tenant.' },
  { Type: 'carrier.changed', Description: 'A carrier changed; data is the carrier with data.diff.changes. Sent to every subscription of the tenant.' },
  { Type: 'location.created', Description: 'A location was created; data is the location. Sent to every subscription of the tenant.' },
  { Type: 'location.changed', Description: 'A location changed; data is the location with data.diff.changes. Sent to every subscription of the tenant.' },
  { Type: 'invoice.payment.recorded', Description: "A customer's payment was recorded on an invoice; data is the invoice after it, with the payment as data.Payment. Routed by the invoice's subsidiary." },
  { Type: 'invoice.paid', Description: 'A payment completed an invoice (Status Paid); data is the invoice. Routed like invoice.payment.recorded.' },
  { Type: 'invoice.created', Description: 'An invoice was created (POST /invoices); data is the invoice. Routed like invoice.payment.recorded.' },
  { Type: 'invoice.voided', Description: 'An invoice was voided; data is the invoice, with data.Reason when the void gave one. Routed like invoice.payment.recorded.' },
  { Type: 'tender.received', Description: 'A tender was received (POST /tenders or an EDI 204); data is the tender. Routed by its subsidiary, to every subscription when it has none.' },
  { Type: 'tender.changed', Description: "A Pending tender's Rate, Equipment, References, Stops and RespondBy were replaced (an EDI 204 change); data is the tender as changed. Routed like tender.received." },
  { Type: 'tender.accepted', Description: 'A tender was accepted; data is the tender with its LoadNumber. Routed like tender.received.' },
  { Type: 'tender.rejected', Description: 'A tender was rejected; data is the tender with its RejectionReason. Routed like tender.received.' },
  { Type: 'tender.cancelled', Description: 'A tender was cancelled (with its load when it was accepted); data is the tender. Routed like tender.received.' },
  { Type: 'tender.expired', Description: 'A Pending tender passed its RespondBy; sent once, within 60 seconds of it. Routed like tender.received.' },
  { Type: 'load.created', Description: 'A load was created (POST /loads or an accepted tender); data is the load with its trips and stops. Routed by its subsidiary.' },
  { Type: 'trip.created', Description: 'A trip was created with a new load (POST /loads) or added to one (POST /loads/{loadNumber}/trips); data is the trip. Routed by its subsidiary.' },
  { Type: 'load.note.created', Description: "A note was added to a load; data is the note with LoadNumber. Routed by the load's subsidiary." },
  { Type: 'trip.check_call.created', Description: "A check call was recorded on a trip; data is the check call with LoadNumber. Routed by the trip's subsidiary." },
  { Type: 'driver.created', Description: 'A driver was created; data is the driver. Routed by its subsidiary, to every subscription when it has none.' },
  { Type: 'driver.changed', Description: 'A driver changed (retired included); data is the driver with data.diff.changes. Routed like driver.created (to both subsidiaries after a move).' },
  { Type: 'truck.created', Description: 'A truck was created; data is the truck. Routed by its subsidiary, to every subscription when it has none.' },
  { Type: 'truck.changed', Description: 'A truck changed (retired included); data is the truck with data.diff.changes. Routed like truck.created (to both subsidiaries after a move).' },
  { Type: 'trailer.created', Description: 'A trailer was created; data is the trailer. Routed by its subsidiary, to every subscription when it has none.' },
  { Type: 'trailer.changed', Description: 'A trailer changed (retired included); data is the trailer with data.diff.changes. Routed like trailer.created (to both subsidiaries after a move).' },
  { Type: 'stop.arrived', Description: "A stop's arrival was recorded or corrected, by the arrival route (Source Manual) or by positions inside its fence (Source Geofence); data is { LoadNumber, TripId, StopId, StopType, ArrivedAt, Source }. Routed by the trip's subsidiary." },
  { Type: 'stop.departed', Description: "A stop's departure was recorded or corrected, by the departure route (Source Manual) or by a position beyond its depart radius (Source Geofence); data is { LoadNumber, TripId, StopId, StopType, DepartedAt, Source }. Routed like stop.arrived." },
  {
    Type: 'stop.detention.started',
    Description:
      "A stop's free time ran out while the truck was there: sent within 60 seconds of it, or when a late arrival or departure is recorded; " +
      "data is { LoadNumber, TripId, StopId, Detention } with EndedAt and Minutes null. Routed by the trip's subsidiary.",
  },
  {
    Type: 'stop.detention.ended',
    Description:
      'The truck left a stop in detention (and again when a corrected time changes the Detention); data is { LoadNumber, TripId, StopId, Detention } ' +
      "with Minutes and AccessorialId. Detention is null when a correction or a cleared arrival put the stop back within its free time. Routed by the trip's subsidiary.",
  },
  { Type: 'edi.partner.created', Description: "An EDI trading partner was created; data is the partner (never its Secret). Routed by its customer's subsidiary, to every subscription when it has none." },
  { Type: 'edi.partner.changed', Description: 'An EDI trading partner changed; data is the partner with data.diff.changes. Routed like edi.partner.created (to both subsidiaries after a move).' },
  { Type: 'webhook.test', Description: 'Sent only by POST /webhooks/{id}/test, to that subscription.' },
] as const;

export const TEST_EVENT_TYPE = 'webhook.test';

/** Events about carriers: carriers have no subsidiary, so every subscription of the tenant gets them (docs/api-rules.md#events). */
export const TENANT_WIDE_PREFIX = 'carrier.document.';

const known: ReadonlySet<string> = new Set(EVENT_TYPES.map((e) => e.Type));

/** Why `value` is not a subscribable event type or pattern, or null when it is. */
export function eventTypeProblem(value: string): string | null {
  if (known.has(value)) return null;
  if (value.endsWith('.*')) {
    const prefix = value.slice(0, -1);
    if (prefix.length > 1 && [...known].some((type) => type.startsWith(prefix))) return null;
    return `matches no known event type; see GET /webhooks/event-types`;
  }
  return 'is not a known event type or a <prefix>.* pattern; see GET /webhooks/event-types';
}

/** Whether a subscription listing `patterns` receives events of `type`. */
export function matchesEventType(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => (pattern.endsWith('.*') ? type.startsWith(pattern.slice(0, -1)) : pattern === type));
}
