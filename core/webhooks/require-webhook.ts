import { notFound } from '../errors.js';
import type { Scope } from '../shared/scope.js';
import type { Db } from '../../db/create-db.js';
import { getWebhookRow, type WebhookRow } from './webhook.repository.js';

/** The subscription the caller may see, or the same 404 for a missing one and another tenant's or subsidiary's. */
export async function requireWebhook(db: Db, scope: Scope, id: string): Promise<WebhookRow> {
  const row = await getWebhookRow(db, scope, id);
  if (!row) throw notFound('Webhook');
  return row;
}
