import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { CheckCallsTable } from '../../db/tables/check-calls.js';
import { etagOf } from '../shared/etag.js';
import { reportedPlace } from '../shared/reported-place.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TCheckCall } from './check-call.schemas.js';

export type CheckCallRow = Selectable<CheckCallsTable>;

/** Whether the trip exists in the caller's scope (another tenant's or subsidiary's is missing). */
export async function tripInScope(db: Db, scope: Scope, tripId: string): Promise<boolean> {
  const trip = await db.selectFrom('trips').select('id').where(inScope('trips', scope)).where('id', '=', tripId).executeTakeFirst();
  return trip !== undefined;
}

export async function insertCheckCall(trx: Db, row: CheckCallRow): Promise<void> {
  await trx.insertInto('check_calls').values(row).execute();
}

/** Newest RecordedAt first; the id breaks ties (`check_calls_trip_idx`). */
export const CHECK_CALL_ORDER = thenById('check-calls', { column: 'recorded_at', desc: true, type: 'text' });

/** A trip's check calls; `tripId` is a trip already found in the caller's scope. */
export async function findCheckCalls(db: Db, tenantId: string, tripId: string, page: TPageRequest): Promise<PageOf<TCheckCall>> {
  const query = db.selectFrom('check_calls').where('check_calls.tenant_id', '=', tenantId).where('check_calls.trip_id', '=', tripId);
  const found = await selectPage(db, query, { table: 'check_calls', order: CHECK_CALL_ORDER, page });
  return { ...found, items: found.items.map(toCheckCall) };
}

export async function getCheckCall(db: Db, tenantId: string, tripId: string, checkCallId: string): Promise<CheckCallRow | undefined> {
  return db
    .selectFrom('check_calls')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('trip_id', '=', tripId)
    .where('id', '=', checkCallId)
    .executeTakeFirst();
}

/** Check calls are never changed, so the first version's tag is the only one (docs/api-rules.md#notes-and-check-calls). */
export const checkCallEtag = (row: Pick<CheckCallRow, 'id'>) => etagOf(row.id, 1);

export function toCheckCall(row: CheckCallRow): TCheckCall {
  return {
    Id: row.id,
    TripId: row.trip_id,
    StopId: row.stop_id,
    RecordedAt: row.recorded_at,
    ...reportedPlace(row),
    Status: row.status as TCheckCall['Status'],
    Eta: row.eta,
    Note: row.note,
    CreatedAt: row.created_at,
    CreatedBy: row.created_by,
  };
}
