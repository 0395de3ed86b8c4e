import { createMigrator } from '../../db/migrate.js';
import { pingDb, type Db } from '../../db/create-db.js';

export interface Readiness {
  ready: boolean;
  Database: 'ok' | 'unreachable';
  Migrations: 'current' | 'pending' | 'unknown';
  /** Names of the migrations this build has that the database has not run. */
  PendingMigrations: string[];
}

/** How long a "pending" answer is reused: an operator's `npm run migrate` shows within this. */
const PENDING_RECHECK_MS = 5_000;

/**
 * `/readyz`: the database answers and has run every migration of this build. It never runs a
 * migration. The database is pinged on every call (one `select 1`); the migration table is
 * read at most every few seconds while migrations are pending, and never again once they are
 * current: a running build's list of migrations does not change, and applied ones stay applied.
 */
export function createReadinessCheck(db: Db): () => Promise<Readiness> {
  let current = false;
  let pending: { names: string[]; at: number } | null = null;

  const pendingMigrations = async (): Promise<string[]> => {
    if (pending && performance.now() - pending.at < PENDING_RECHECK_MS) return pending.names;
    const migrator = await createMigrator(db);
    const names = (await migrator.getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
    pending = { names, at: performance.now() };
    return names;
  };

  return async () => {
    if (!(await pingDb(db))) {
      return { ready: false, Database: 'unreachable', Migrations: current ? 'current' : 'unknown', PendingMigrations: [] };
    }
    if (current) return { ready: true, Database: 'ok', Migrations: 'current', PendingMigrations: [] };
    let names: string[];
    try {
      names = await pendingMigrations();
    } catch {
      return { ready: false, Database: 'ok', Migrations: 'unknown', PendingMigrations: [] };
    }
    if (names.length === 0) {
      current = true;
      return { ready: true, Database: 'ok', Migrations: 'current', PendingMigrations: [] };
    }
    return { ready: false, Database: 'ok', Migrations: 'pending', PendingMigrations: names };
  };
}
