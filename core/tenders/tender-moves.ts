import type { Db } from '../../db/create-db.js';
import { AppError, notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf, type Scope } from '../shared/scope.js';
import type { Context, Principal } from '../trpc.js';
import { getTenderRow, statusAt, tenderEtag, toTender, type TenderRow } from './tender.repository.js';
import type { TTender, TenderStatus } from './tender.schemas.js';
import { withHeaders } from '../answer-headers.js';

export function invalidState(status: TenderStatus, move: string): AppError {
  return new AppError('CONFLICT', `A tender that is ${status} cannot be ${move}.`, { subtype: 'InvalidState' });
}

export interface TenderMove {
  trx: Db;
  scope: Scope;
  /** The tender as read in the transaction. */
  row: TenderRow;
  /** Its status at `now` (Expired when Pending past RespondBy). */
  status: TenderStatus;
  now: string;
}

/**
 * Runs one answer to a tender (accept, reject, cancel) in a transaction: reads the tender in
 * the caller's scope (404 otherwise), lets `apply` make the move with a conditional update and
 * answers the tender as written, with its ETag. When the conditional update finds the tender
 * moved meanwhile (a concurrent answer won), `apply` answers undefined and the caller gets the
 * 409 of the state the winner left.
 */
export async function moveTenderWith(
  ctx: Context & { principal: Principal },
  id: string,
  move: string,
  apply: (move: TenderMove) => Promise<TenderRow | undefined>,
): Promise<TTender> {
  const scope = scopeOf(ctx.principal);
  const now = formatStoredDateTime(ctx.clock.now());
  const moved = await ctx.db.transaction().execute(async (trx) => {
    const row = await getTenderRow(trx, scope, id);
    if (!row) throw notFound('Tender');
    const written = await apply({ trx, scope, row, status: statusAt(row, now), now });
    if (written) return written;
    const current = await getTenderRow(trx, scope, id);
    throw invalidState(current ? statusAt(current, now) : statusAt(row, now), move);
  });
  return withHeaders(toTender(moved, now), { etag: tenderEtag(moved) });
}
