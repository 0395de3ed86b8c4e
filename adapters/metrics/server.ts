import { createServer, type Server } from 'node:http';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/create-db.js';
import type { Logger } from '../logger.js';
import { observeCore, registry, scrape } from './registry.js';

/**
 * The metrics listener (METRICS_PORT): `GET /metrics` in Prometheus text format, nothing else.
 * It is a port of its own, never the public API port, and has no authentication: bind it where
 * only the scraper reaches it (HOST, a private interface or a firewall rule; docs/deploying.md).
 */
export function createMetricsServer(options: {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The exposition; by default this process's registry (a cluster primary sums its workers'). */
  render?: () => Promise<string>;
}): Server {
  observeCore();
  const render = options.render ?? (() => scrape(options.db, options.clock.now().getTime()));
  return createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Only /metrics is served here.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Use GET.\n');
      return;
    }
    render()
      .then((text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error }, 'metrics scrape failed');
        res.writeHead(503, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The database did not answer.\n');
      });
  });
}
