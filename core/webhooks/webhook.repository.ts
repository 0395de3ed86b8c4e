import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { WebhooksTable } from '../../db/tables/webhooks.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TWebhook } from './webhook.schemas.js';

export type WebhookRow = Selectable<WebhooksTable>;

const scoped = (scope: Scope) => inScope('webhooks', scope);

export function toWebhook(row: WebhookRow): TWebhook {
  return {
    Id: row.id,
    Name: row.name,
    Url: row.url,
    SubsidiaryId: row.subsidiary_id,
    EventTypes: JSON.parse(row.event_types) as string[],
    Enabled: row.enabled === 1,
    Status: row.status === 'Active' ? 'Active' : 'Pending',
    ConsecutiveFailures: row.consecutive_failures,
    PreviousSecretExpiresAt: row.previous_secret_expires_at,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

/** The subscription's row when the caller may see it; another tenant's or subsidiary's is undefined. */
export async function getWebhookRow(db: Db, scope: Scope, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where(scoped(scope)).where('id', '=', id).executeTakeFirst();
}

/** Creation order, the id breaking ties. */
const WEBHOOK_ORDER = thenById('webhooks', { column: 'created_at', type: 'text' });

export async function findWebhooks(db: Db, scope: Scope, request: TPageRequest): Promise<PageOf<TWebhook>> {
  const query = db.selectFrom('webhooks').where(scoped(scope));
  const page = await selectPage(db, query, { table: 'webhooks', order: WEBHOOK_ORDER, page: request });
  return { ...page, items: page.items.map(toWebhook) };
}

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

/** Updates a subscription the caller may see; answers the new row, or undefined when there is none. */
export async function updateWebhook(
  db: Db,
  scope: Scope,
  id: string,
  values: Updateable<WebhooksTable>,
): Promise<WebhookRow | undefined> {
  const result = await db.updateTable('webhooks').set(values).where(scoped(scope)).where('id', '=', id).executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return undefined;
  return getWebhookRow(db, scope, id);
}

/** Deletes a subscription with its pending deliveries and its attempt log; false when the caller cannot see it. */
export async function deleteWebhook(db: Db, scope: Scope, id: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('webhooks').where(scoped(scope)).where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    // Deliveries and attempts have no subsidiary column: they are the subscription's, found in scope just above.
    for (const table of ['webhook_deliveries', 'webhook_delivery_attempts'] as const) {
      await trx.deleteFrom(table).where(inScope(table, scope, { subsidiaryColumn: null })).where('webhook_id', '=', id).execute();
    }
    return true;
  });
}
