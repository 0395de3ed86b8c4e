import type { DatabaseConnection, Dialect, Kysely } from 'kysely';

/**
 * Work to run once a transaction has committed: a wake-up that must not fire before what it
 * announces is visible to other connections (the events feed's long poll). Dropped on rollback.
 */
const pending = new WeakMap<DatabaseConnection, Array<() => void>>();

/**
 * Runs `callback` after the transaction `db` belongs to commits (at once when `db` is not a
 * transaction: its statements have committed already). Needs a database made by createDb.
 */
export async function afterCommit(db: Kysely<any>, callback: () => void): Promise<void> {
  if (!db.isTransaction) {
    callback();
    return;
  }
  await db.getExecutor().provideConnection(async (connection) => {
    const list = pending.get(connection);
    if (list) list.push(callback);
    else pending.set(connection, [callback]);
  });
}

/**
 * The dialect with a driver that runs the callbacks `afterCommit` registered on a connection,
 * and `onCommitted` after every commit (SQLite: the WAL's restart, db/sqlite-checkpointer.ts).
 */
export function withAfterCommit(dialect: Dialect, onCommitted?: () => void): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      const commit = driver.commitTransaction.bind(driver);
      const rollback = driver.rollbackTransaction.bind(driver);
      driver.commitTransaction = async (connection) => {
        const callbacks = pending.get(connection);
        pending.delete(connection);
        await commit(connection);
        onCommitted?.();
        for (const callback of callbacks ?? []) callback();
      };
      driver.rollbackTransaction = async (connection) => {
        pending.delete(connection);
        await rollback(connection);
      };
      return driver;
    },
  };
}
