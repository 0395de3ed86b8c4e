import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../db/create-db.js';
import { readDatabaseGauges, registry } from './registry.js';

/**
 * Metrics with WEB_CONCURRENCY > 1: each worker counts its own requests, batches and delivery
 * attempts in its registry; the primary, which alone listens on METRICS_PORT, asks every worker
 * for its registry over the cluster's IPC channel at scrape time and answers the sum (prom-client's
 * `AggregatorRegistry.aggregate`: counters and histograms added up, the database gauges read
 * once by the primary itself). The request and answer are our own small messages rather than
 * prom-client's built-in ones, so the primary's own registry joins the sum.
 */

type Metrics = Awaited<ReturnType<typeof registry.getMetricsAsJSON>>;

const REQUEST = 'waybill:metrics-request';
const ANSWER = 'waybill:metrics';
/** A worker that does not answer within this is left out of the scrape (it may be restarting). */
const WORKER_TIMEOUT_MS = 2_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}

interface MetricsAnswer {
  type: typeof ANSWER;
  id: number;
  metrics: Metrics;
}

/** In a worker: answers the primary's metrics requests with this process's registry. */
export function answerMetricsRequests(): void {
  process.on('message', (message: Partial<MetricsRequest>) => {
    if (message?.type !== REQUEST || typeof message.id !== 'number') return;
    const id = message.id;
    void registry.getMetricsAsJSON().then((metrics) => {
      if (process.connected) process.send?.({ type: ANSWER, id, metrics } satisfies MetricsAnswer);
    });
  });
}

let nextRequestId = 0;

/** One worker's registry, or null when it does not answer in time. */
function askWorker(worker: Worker): Promise<Metrics | null> {
  const id = nextRequestId++;
  return new Promise((resolve) => {
    const onMessage = (message: Partial<MetricsAnswer>) => {
      if (message?.type !== ANSWER || message.id !== id) return;
      finish(message.metrics ?? null);
    };
    const finish = (metrics: Metrics | null) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      resolve(metrics);
    };
    const onExit = () => finish(null);
    const timer = setTimeout(() => finish(null), WORKER_TIMEOUT_MS);
    worker.on('message', onMessage);
    worker.on('exit', onExit);
    worker.send({ type: REQUEST, id } satisfies MetricsRequest);
  });
}

/** In the primary: the exposition summed over the workers and the primary's own database gauges. */
export async function clusterExposition(db: Db, clock: Clock): Promise<string> {
  await readDatabaseGauges(db, clock.now().getTime());
  const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker?.isConnected());
  const answers = await Promise.all(workers.map((worker) => askWorker(worker!)));
  const all = [await registry.getMetricsAsJSON(), ...answers.filter((metrics): metrics is Metrics => metrics !== null)];
  return AggregatorRegistry.aggregate(all).metrics();
}
