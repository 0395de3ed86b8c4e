import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The fleet's customers' visibility integration during the position benchmark: a local
 * node:http server answering 204 to every post and counting them, so that the server under
 * test runs its whole share path (outbox rows, dispatcher posts, outcomes) as in production.
 * It runs in the benchmark's own process, which is idle while the load generator runs.
 */
export interface ShareReceiver {
  url: string;
  /** Posts received so far. */
  readonly posts: number;
  close(): Promise<void>;
}

export async function startShareReceiver(): Promise<ShareReceiver> {
  let posts = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.method === 'POST') posts += 1;
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/tracking`,
    get posts() {
      return posts;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
