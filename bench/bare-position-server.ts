/**
 * The position benchmark's yardstick: a bare node:http server doing the same insert as the
 * API, on the same database. It reads the truck and the reading from the request, holds the
 * position as the asset's latest and appends it to history with the API's own statements and
 * the same group commit, and answers 201 with the row as JSON.
 * No authentication, rate limits, validation, trip matching, geocoding or Live ETAs: the
 * difference to the API is the price of those.
 *
 * Run as its own process with DATABASE_URL; prints `listening <url>` when ready.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '../db/create-db.js';
import type { AssetPositionColumns } from '../db/tables/asset-positions.js';
import { appendPositionHistory, holdLatestPositions } from '../core/visibility/position.repository.js';

async function main(): Promise<void> {
  const db = createDb(process.env.DATABASE_URL!);
  const trucks = new Map(
    (await db.selectFrom('trucks').select(['id', 'tenant_id', 'subsidiary_id']).execute()).map((t) => [t.id, t]),
  );

  // The same group commit as the API's position writer, without its lookups: readings that
  // arrive while a transaction runs share the next one.
  const pending: { row: AssetPositionColumns; done(held: boolean): void; fail(): void }[] = [];
  let busy = false;
  const schedule = () => {
    if (busy) return;
    busy = true;
    setImmediate(async () => {
      while (pending.length > 0) {
        const batch = pending.splice(0, 500);
        try {
          const held = await db.transaction().execute(async (trx) => {
            const outcomes = await holdLatestPositions(trx, batch.map((item) => item.row));
            await appendPositionHistory(trx, batch.filter((_, i) => outcomes[i]).map((item) => item.row));
            return outcomes;
          });
          batch.forEach((item, i) => item.done(held[i]!));
        } catch {
          for (const item of batch) item.fail();
        }
      }
      busy = false;
    });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const truckId = (req.url ?? '').split('/')[5] ?? '';
      const truck = trucks.get(decodeURIComponent(truckId));
      if (!truck) {
        res.writeHead(404).end();
        return;
      }
      const reading = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const receivedAt = new Date().toISOString();
      const row = {
        tenant_id: truck.tenant_id,
        subsidiary_id: truck.subsidiary_id,
        asset_id: truck.id,
        asset_type: 'Truck',
        source: 'PublicApi',
        latitude: reading.Coordinates.Latitude,
        longitude: reading.Coordinates.Longitude,
        street: null,
        city: null,
        state: null,
        zip_code: null,
        country: null,
        formatted_address: null,
        recorded_at: reading.RecordedAt,
        received_at: receivedAt,
        trip_id: null,
        trip_number: null,
        odometer: reading.Odometer ?? null,
        odometer_reading_at: null,
      };
      pending.push({
        row,
        done: (held) => {
          const body = JSON.stringify(row);
          res.writeHead(held ? 201 : 409, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        },
        fail: () => res.writeHead(500).end(),
      });
      schedule();
    });
  });
  server.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
  });
  process.on('SIGTERM', () => {
    server.close();
    void db.destroy().then(() => process.exit(0));
  });
}

void main();
