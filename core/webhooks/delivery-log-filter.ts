import { validationError } from '../errors.js';
import { toStoredDateTime } from '../shared/datetime.js';
import type { Scope } from '../shared/scope.js';
import type { DeliveryLogFilter } from './delivery-log.repository.js';

/** The list's and the export's filters in stored form; To before From is a 400 naming To. */
export function deliveryLogFilter(
  scope: Scope,
  input: { webhookId: string; Status?: string | undefined; EventType?: string | undefined; From?: string | undefined; To?: string | undefined },
): DeliveryLogFilter {
  const from = input.From === undefined ? undefined : toStoredDateTime(input.From, { assumeUtc: true });
  const to = input.To === undefined ? undefined : toStoredDateTime(input.To, { assumeUtc: true });
  if (from && to && to < from) throw validationError('To', 'To must not be before From.');
  return { scope, webhookId: input.webhookId, status: input.Status, eventType: input.EventType, from, to };
}
