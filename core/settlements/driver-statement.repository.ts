import { sql } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import { inScope, type Scope } from '../shared/scope.js';

export interface StatementDriver {
  id: string;
  subsidiaryId: string | null;
}

async function earliestOpen(trx: Db, scope: Scope, driverId: string): Promise<number | undefined> {
  const row = await trx
    .selectFrom('driver_settlement_statements')
    .select('number')
    .where(inScope('driver_settlement_statements', scope))
    .where('driver_id', '=', driverId)
    .where('status', '=', 'Open')
    .orderBy('statement_date')
    .orderBy('number')
    .limit(1)
    .executeTakeFirst();
  return row?.number;
}

/**
 * docs/api-rules.md#credits-and-accessorials: a driver credit posts to the driver's next settlement statement, the
 * earliest one not yet processed, created when none exists. Call it in the transaction that
 * posts the credit. Creating a statement takes a table lock on Postgres, so two posts cannot
 * both create an Open statement for one driver or pick the same number (statement numbers are
 * unique across the database); SQLite has a single writer already.
 */
export async function nextDriverStatement(trx: Db, scope: Scope, driver: StatementDriver, now: string): Promise<number> {
  const open = await earliestOpen(trx, scope, driver.id);
  if (open !== undefined) return open;
  if (dialectOf(trx) === 'postgres') {
    await sql`lock table driver_settlement_statements in share row exclusive mode`.execute(trx);
    const created = await earliestOpen(trx, scope, driver.id);
    if (created !== undefined) return created;
  }
  const { last } = await trx
    .selectFrom('driver_settlement_statements')
    .select((eb) => eb.fn.max('number').as('last'))
    .executeTakeFirstOrThrow();
  const number = Number(last ?? 0) + 1;
  await trx
    .insertInto('driver_settlement_statements')
    .values({
      number,
      tenant_id: scope.tenantId,
      subsidiary_id: driver.subsidiaryId,
      driver_id: driver.id,
      status: 'Open',
      statement_date: `${now.slice(0, 10)}T00:00:00.000Z`,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return number;
}

/**
 * The status of the driver statement a record sits on, or undefined when it sits on none (or
 * the statement is another tenant's). Tenant-wide, like the carrier statement guard: this is a
 * guard, and a statement may carry another subsidiary than the driver's (fixture data says
 * so), so a subsidiary filter would let a settled credit change.
 */
export async function driverStatementStatus(db: Db, scope: Scope, number: number | null): Promise<string | undefined> {
  if (number === null) return undefined;
  const row = await db
    .selectFrom('driver_settlement_statements')
    .select('status')
    .where(inScope('driver_settlement_statements', scope, { subsidiaryColumn: null }))
    .where('number', '=', number)
    .executeTakeFirst();
  return row?.status;
}
