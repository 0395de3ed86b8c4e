import type { Insertable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { WebhookDeliveryAttemptsTable } from '../../db/tables/webhook-deliveries.js';

/** Attempt rows per INSERT: far below SQLite's bound-parameter limit at 13 columns a row. */
const INSERT_CHUNK = 500;

/** Appends delivery attempts to the log, a chunk a statement. */
export async function insertAttempts(trx: Db, rows: readonly Insertable<WebhookDeliveryAttemptsTable>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx.insertInto('webhook_delivery_attempts').values(rows.slice(i, i + INSERT_CHUNK)).execute();
}
