import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { StopDetentionsTable } from '../../db/tables/stop-detentions.js';
import { detentionMinutes } from './detention-clock.js';
import type { TDetention } from './detention.schemas.js';

export type StopDetentionRow = Selectable<StopDetentionsTable>;

/** A stop's Detention as it reads: null until stop.detention.started was emitted (docs/api-rules.md#detention). */
export function toDetention(row: StopDetentionRow | undefined): TDetention | null {
  if (!row || row.started !== 1) return null;
  return {
    StartedAt: row.due_at,
    EndedAt: row.departed_at,
    Minutes: row.departed_at === null ? null : detentionMinutes(row.due_at, row.departed_at),
    FreeMinutes: Number(row.free_minutes),
    AccessorialId: row.accessorial_id,
  };
}

/** The Detention of each of these stops of the tenant that has one started; one query over the primary key. */
export async function detentionsOfStops(db: Db, tenantId: string, stopIds: readonly string[]): Promise<Map<string, TDetention>> {
  if (stopIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('stop_detentions')
    .selectAll()
    .where('stop_id', 'in', [...stopIds])
    .where('tenant_id', '=', tenantId)
    .where('started', '=', 1)
    .execute();
  return new Map(rows.map((row) => [row.stop_id, toDetention(row)!]));
}

/**
 * The stop's row, locked for the rest of the transaction (a no-op update takes the row lock on
 * Postgres; SQLite runs one write transaction at a time), so a stop write and the start pass
 * never both decide on one stop.
 */
export async function lockStopDetention(trx: Db, tenantId: string, stopId: string): Promise<StopDetentionRow | undefined> {
  await trx
    .updateTable('stop_detentions')
    .set((eb) => ({ started: eb.ref('started') }))
    .where('stop_id', '=', stopId)
    .where('tenant_id', '=', tenantId)
    .execute();
  return trx.selectFrom('stop_detentions').selectAll().where('stop_id', '=', stopId).where('tenant_id', '=', tenantId).executeTakeFirst();
}

export async function saveStopDetention(trx: Db, row: StopDetentionRow, exists: boolean): Promise<void> {
  if (!exists) {
    await trx.insertInto('stop_detentions').values(row).execute();
    return;
  }
  const { stop_id, tenant_id, created_at: _created, ...changes } = row;
  await trx.updateTable('stop_detentions').set(changes).where('stop_id', '=', stop_id).where('tenant_id', '=', tenant_id).execute();
}

export async function deleteStopDetention(trx: Db, tenantId: string, stopId: string): Promise<void> {
  await trx.deleteFrom('stop_detentions').where('stop_id', '=', stopId).where('tenant_id', '=', tenantId).execute();
}

/** Stops whose free time ran out before `now` and whose start is not yet announced, soonest first (stop_detentions_due_idx). */
export async function dueDetentions(db: Db, now: string, limit: number): Promise<Array<Pick<StopDetentionRow, 'stop_id' | 'tenant_id'>>> {
  return db
    .selectFrom('stop_detentions')
    .select(['stop_id', 'tenant_id'])
    // The partial index's own predicate, as literal text, so both databases see the query is inside it.
    .where(sql<SqlBool>`started = 0 and departed_at is null`)
    .where('due_at', '<', now)
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

/**
 * Claims one due stop for the start pass: marks it started only if it still waits, so of
 * several passes (several workers on Postgres) exactly one gets the row back and emits
 * stop.detention.started.
 */
export async function claimStart(trx: Db, due: Pick<StopDetentionRow, 'stop_id' | 'tenant_id'>, now: string): Promise<StopDetentionRow | undefined> {
  return trx
    .updateTable('stop_detentions')
    .set({ started: 1, updated_at: now })
    .where('stop_id', '=', due.stop_id)
    .where('tenant_id', '=', due.tenant_id)
    .where('started', '=', 0)
    .where('departed_at', 'is', null)
    .where('due_at', '<', now)
    .returningAll()
    .executeTakeFirst();
}
