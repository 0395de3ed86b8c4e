import type { ServerResponse } from 'node:http';
import { pingDb, type Db } from '../../db/create-db.js';
import { buildProblem, edgeKinds, sendProblem } from '../http/problem.js';
import { createReadinessCheck } from './readiness.js';

/** `/healthz` and `/readyz`, for load balancers and orchestrators (no token, JSON). */
export function createHealthPages(db: Db, baseUrl: () => string) {
  const readiness = createReadinessCheck(db);
  return {
    /** The process answers and the database is reachable. */
    async health(res: ServerResponse, path: string): Promise<void> {
      if (await pingDb(db)) {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ Status: 'ok', Database: 'ok' }));
      } else {
        sendProblem(res, buildProblem(baseUrl(), { kind: edgeKinds.UNAVAILABLE, detail: 'The database is not reachable.', instance: path }));
      }
    },
    /** The database is reachable and has run every migration of this build. */
    async readiness(res: ServerResponse, path: string): Promise<void> {
      const { ready, ...state } = await readiness();
      if (ready) {
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ Status: 'ready', Database: state.Database, Migrations: state.Migrations }));
        return;
      }
      const detail =
        state.Database === 'unreachable'
          ? 'The database is not reachable.'
          : state.Migrations === 'pending'
            ? `The database has not run ${state.PendingMigrations.length} migration(s) of this build: run npm run migrate.`
            : 'The migration state could not be read.';
      sendProblem(res, buildProblem(baseUrl(), { kind: edgeKinds.UNAVAILABLE, detail, instance: path, extensions: state }), { 'Cache-Control': 'no-store' });
    },
  };
}
