/**
 * The fuel import benchmark's yardstick: a bare node:http server doing the same insert as the
 * API on the same database — in one transaction, the (Source, TransactionId) key claimed in
 * idempotency_keys and the transaction row built by the API's own builder — and answering 201
 * with the row as JSON. No authentication, rate limits, validation, scope lookups or read-back:
 * the difference to the API is the price of those.
 *
 * Run as its own process with DATABASE_URL; prints `listening <url>` when ready.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDb } from '../db/create-db.js';
import { fuelFingerprint, fuelRow } from '../core/fuel/fuel-rows.js';
import { importKey } from '../core/card-imports/import-parties.repository.js';
import { insertFuel } from '../core/fuel/fuel.repository.js';
import { claimKey } from '../core/idempotency/idempotency.repository.js';
import { toStoredDateTime } from '../core/shared/datetime.js';

async function main(): Promise<void> {
  const db = createDb(process.env.DATABASE_URL!);
  const trucks = new Map((await db.selectFrom('trucks').select(['id', 'tenant_id', 'subsidiary_id']).execute()).map((t) => [t.id, t]));

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const truck = trucks.get(body.TruckId);
      if (!truck) {
        res.writeHead(404).end();
        return;
      }
      const now = new Date().toISOString();
      const id = `fuel_${randomUUID()}`;
      const values = { ...body, FuelCardNumber: String(body.FuelCardNumber).slice(-4), TransactionDate: toStoredDateTime(body.TransactionDate) };
      const row = fuelRow(values, { id, tenantId: truck.tenant_id, subsidiaryId: truck.subsidiary_id, createdBy: null, createdAt: now, updatedAt: now });
      const scope = { tenantId: truck.tenant_id, subsidiaryId: null };
      db.transaction()
        .execute(async (trx) => {
          const claimed = await claimKey(trx, scope, { family: 'fuel', key: importKey(body.Source, body.TransactionId), fingerprint: fuelFingerprint(row), recordId: id, now });
          if (claimed === null) await insertFuel(trx, row);
        })
        .then(
          () => {
            const text = JSON.stringify(row);
            res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
            res.end(text);
          },
          () => res.writeHead(500).end(),
        );
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
