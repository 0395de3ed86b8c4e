import type { Db } from '../../db/create-db.js';
import type { Selectable } from 'kysely';
import type { TrackingLinksTable } from '../../db/tables/tracking-links.js';

export type TrackingLinkRow = Selectable<TrackingLinksTable>;

export async function insertTrackingLink(db: Db, row: TrackingLinkRow): Promise<void> {
  await db.insertInto('tracking_links').values(row).execute();
}

/**
 * Revokes every live link of a load. The load was found in the caller's scope, so the tenant
 * bound here only keeps the statement on its index.
 */
export async function revokeTrackingLinks(db: Db, options: { tenantId: string; loadId: string; now: string }): Promise<void> {
  await db
    .updateTable('tracking_links')
    .set({ revoked_at: options.now })
    .where('tenant_id', '=', options.tenantId)
    .where('load_id', '=', options.loadId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The link stored under a token hash (the primary key); the caller decides revoked and expired. */
export async function findTrackingLink(db: Db, tokenHash: string): Promise<TrackingLinkRow | undefined> {
  return db.selectFrom('tracking_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}
