import { sql } from 'kysely';
import type { Db } from '../../db/create-db.js';

/**
 * Runs `work` inside a savepoint of the caller's transaction: when it answers `keep: false` or
 * throws, everything it wrote is rolled back and the transaction goes on (both databases
 * support SAVEPOINT inside a transaction). An EDI interchange applies each set this way: a
 * set that fails changes nothing while the others still apply (docs/edi.md#inbound).
 */
export async function withSavepoint<T>(trx: Db, name: string, work: () => Promise<{ keep: boolean; value: T }>): Promise<T> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid savepoint name ${name}`);
  const point = sql.raw(name);
  await sql`savepoint ${point}`.execute(trx);
  try {
    const result = await work();
    if (result.keep) await sql`release savepoint ${point}`.execute(trx);
    else await sql`rollback to savepoint ${point}`.execute(trx);
    return result.value;
  } catch (error) {
    await sql`rollback to savepoint ${point}`.execute(trx);
    throw error;
  }
}
