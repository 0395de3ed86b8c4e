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
  await register(pending, db, callback);
}

/** Adds `callback` to the list `lists` keeps for the connection of the transaction `db`. */
async function register(lists: WeakMap<DatabaseConnection, Array<() => void>>, db: Kysely<any>, callback: () => void): Promise<void> {
  await db.getExecutor().provideConnection(async (connection) => {
    const list = lists.get(connection);
    if (list) list.push(callback);
    else lists.set(connection, [callback]);
  });
}

const onCommitSent = new WeakMap<DatabaseConnection, Array<() => void>>();

/**
 * Runs `callback` as soon as the COMMIT of the transaction `db` has been handed to the driver
 * (on Postgres, written to the connection's socket), before its answer: for a writer that hands
 * on its turn once only its COMMIT is left (core/visibility/commit-positions.ts), so that COMMIT
 * goes out before whatever the next turn starts. Dropped on rollback. Needs a database made by
 * createDb, and `db` a transaction.
 */
export async function whenCommitSent(db: Kysely<any>, callback: () => void): Promise<void> {
  await register(onCommitSent, db, callback);
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
        const sent = onCommitSent.get(connection);
        onCommitSent.delete(connection);
        // The driver sends COMMIT before its first await (Kysely's executeQuery calls pg's query at once).
        const committing = commit(connection);
        for (const callback of sent ?? []) callback();
        await committing;
        onCommitted?.();
        for (const callback of callbacks ?? []) callback();
      };
      driver.rollbackTransaction = async (connection) => {
        pending.delete(connection);
        onCommitSent.delete(connection);
        await rollback(connection);
      };
      return driver;
    },
  };
}
