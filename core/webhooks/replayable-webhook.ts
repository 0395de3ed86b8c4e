import type { Db } from '../../db/create-db.js';
import { AppError } from '../errors.js';
import type { Scope } from '../shared/scope.js';
import { requireWebhook } from './require-webhook.js';
import type { WebhookRow } from './webhook.repository.js';

/**
 * The subscription a replay or resend is for: 404 outside the scope, and 409 when it would not
 * receive what is queued (docs/api-rules.md#webhooks: only Active, enabled subscriptions receive events; a
 * disabled one's turns are logged as skipped), so nothing is queued only to be skipped.
 */
export async function requireReplayableWebhook(db: Db, scope: Scope, id: string): Promise<WebhookRow> {
  const row = await requireWebhook(db, scope, id);
  if (row.enabled !== 1) {
    throw new AppError('CONFLICT', 'The subscription is disabled: enable it before queuing deliveries again.', { subtype: 'WebhookDisabled' });
  }
  if (row.status !== 'Active') {
    throw new AppError('CONFLICT', 'The subscription is not verified: verify it before queuing deliveries again.', { subtype: 'WebhookNotActive' });
  }
  return row;
}
