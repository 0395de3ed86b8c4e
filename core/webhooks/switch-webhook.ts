import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import type { Scope } from '../shared/scope.js';
import type { TWebhook } from './webhook.schemas.js';
import { toWebhook, updateWebhook } from './webhook.repository.js';

/** Turns a subscription's deliveries off or on (on also forgives its failure streak); 404 outside the scope. */
export async function switchWebhook(db: Db, scope: Scope, id: string, enabled: boolean, now: Date): Promise<TWebhook> {
  const updated = await updateWebhook(db, scope, id, {
    enabled: enabled ? 1 : 0,
    ...(enabled ? { consecutive_failures: 0 } : {}),
    updated_at: formatStoredDateTime(now),
  });
  if (!updated) throw notFound('Webhook');
  return toWebhook(updated);
}
