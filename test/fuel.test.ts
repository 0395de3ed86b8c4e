import { readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../adapters/logger.js';
import { createDb } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { createTestDatabase, testDatabaseKind } from './support/database.js';
import { transactionFixture } from './support/transaction-fixture.js';
import { bareTenant, problemsOf } from './support/master-data-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: transactionFixture() });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

const fuel1001 = {
  Id: 'fuel_1001',
  TransactionId: 'CD-10001',
  Source: 'Comdata',
  SubsidiaryId: 'sub_kc',
  TruckId: 'trk_101',
  TruckNumber: '101',
  DriverId: 'drv_ana',
  DriverName: 'Ana Ortiz',
  FuelCardNumber: '************4417',
  Category: 'Diesel',
  Location: { Name: "Love's Travel Stop #512", City: 'Salina', State: 'KS', Country: 'US' },
  Quantity: { Value: 112.5, UnitOfMeasure: 'Gallons' },
  PricePerUnit: { Amount: 3.8795, Currency: 840 },
  FuelTotal: { Amount: 436.44, Currency: 840 },
  Fees: { Amount: 2, Currency: 840 },
  Discounts: { Amount: 10, Currency: 840 },
  Total: { Amount: 428.44, Currency: 840 },
  TransactionDate: '2026-11-18T14:05:00.000Z',
  DeductionId: null,
  CreatedAt: '2026-11-18T15:00:00.000Z',
  UpdatedAt: '2026-11-18T15:00:00.000Z',
};

const get = (id: string, as = ALL) => t.api(`${base}/fuel/${encodeURIComponent(id)}`, { as });
const search = (body: unknown, as = ALL) => t.api(`${base}/fuel/search`, { method: 'POST', as, body });
const create = (body: unknown, as = ALL) => t.api(`${base}/fuel`, { method: 'POST', as, body });
const ids = (response: ApiResponse) => response.body.Items.map((item: { Id: string }) => item.Id);
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});
const rowCount = async () => Number((await t.db.selectFrom('fuel_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

let transactions = 0;
const freshTransactionId = () => `TX-${++transactions}-${Date.now()}`;

function importBody(extra: Record<string, unknown> = {}) {
  return {
    TransactionId: freshTransactionId(),
    Source: 'Comdata',
    TruckId: 'trk_101',
    DriverId: 'drv_ana',
    FuelCardNumber: '************4417',
    Category: 'Diesel',
    Location: { Name: 'Pilot #77', City: 'Topeka', State: 'KS' },
    Quantity: { Value: 100.25, UnitOfMeasure: 'Gallons' },
    PricePerUnit: { Amount: 3.9999, Currency: 840 },
    FuelTotal: { Amount: 400.99, Currency: 840 },
    Fees: { Amount: 1.5, Currency: 840 },
    Discounts: { Amount: 5, Currency: 840 },
    Total: { Amount: 397.49, Currency: 840 },
    TransactionDate: '2026-11-21T10:00:00Z',
    ...extra,
  };
}

describe('GET /fuel/{id}', () => {
  it('returns the transaction with its ETag, the card masked and the names read', async () => {
    const response = await get('fuel_1001');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(fuel1001);
    expect(response.headers.get('etag')).toBe('"fuel_1001.1"');
  });

  it("answers another subsidiary's transaction with the 404 of an unknown id", async () => {
    const other = await get('fuel_1001', 'sub_dal-all');
    const missing = await get('fuel_nowhere', 'sub_dal-all');
    expect(other.status).toBe(404);
    expect({ ...other.body, Instance: null }).toEqual({ ...missing.body, Instance: null });
    expect((await get('fuel_1001', 'sub_kc-all')).status).toBe(200);
  });
});

describe('fixture transactions', () => {
  it('keep only the last 4 digits of a full card number in the fixture', async () => {
    const response = await get('fuel_h1', 'tn_harbor-all');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ FuelCardNumber: '************0007', SubsidiaryId: 'sub_harbor_main', DeductionId: null });
    const row = await t.db.selectFrom('fuel_transactions').select('card_last4').where('id', '=', 'fuel_h1').executeTakeFirstOrThrow();
    expect(row.card_last4).toBe('0007');
  });
});

describe('fixture checks', () => {
  it('refuse transactions naming unknown records, reusing an import key or breaking the Total rule', async () => {
    const fuel = (id: string, extra: Record<string, unknown>) => ({ ...importBody({ TruckId: null, DriverId: null }), Id: id, TransactionId: 'FX-1', ...extra });
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fx', {
          Trucks: [{ Id: 'trk_fx', TruckNumber: '1', OwnerOperatorId: 'oo_nowhere' }],
          FuelTransactions: [fuel('fuel_fx1', { TruckId: 'trk_nowhere' }), fuel('fuel_fx2', { Total: { Amount: 1 } })],
          TollTransactions: [{ Id: 'toll_fx1', TransactionId: 'T-1', Source: 'PrePass', DriverId: 'drv_x', Amount: { Amount: 1 }, TransactionDate: '2026-11-20T00:00:00Z' }],
        }),
      ],
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Tenants\[0\]\.Trucks\[0\]\.OwnerOperatorId: /),
        expect.stringMatching(/^Tenants\[0\]\.FuelTransactions\[0\]\.TruckId: "trk_nowhere" is not a truck/),
        expect.stringMatching(/^Tenants\[0\]\.FuelTransactions\[1\]\.TransactionId: "FX-1" of "Comdata" is used twice/),
        expect.stringMatching(/^Tenants\[0\]\.FuelTransactions\[1\]\.Total: /),
        expect.stringMatching(/^Tenants\[0\]\.TollTransactions\[0\]\.DriverId: /),
      ]),
    );
  });
});

describe('POST /fuel/search', () => {
  it('lists newest TransactionDate first and filters', async () => {
    const all = await search({ TransactionDateRange: { End: '2026-11-20T00:00:00Z' } });
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual(['fuel_1002', 'fuel_1001']);
    expect(all.body).toMatchObject({ Page: 0, PageSize: 50, Total: 2, NextCursor: null });
    const window = { TransactionDateRange: { End: '2026-11-20T00:00:00Z' } };
    expect(ids(await search({ ...window, FuelCardLast4: '9031' }))).toEqual(['fuel_1002']);
    expect(ids(await search({ ...window, TruckIds: ['trk_101', 'trk_nowhere'] }))).toEqual(['fuel_1001']);
    expect(ids(await search({ ...window, DriverIds: ['drv_ben'] }))).toEqual(['fuel_1002']);
    expect(ids(await search({ ...window, Categories: ['def'] }))).toEqual(['fuel_1002']);
    expect(ids(await search({ TransactionDateRange: { Start: '2026-11-19T09:30:00Z', End: '2026-11-19T09:30:01Z' } }))).toEqual(['fuel_1002']);
    expect(ids(await search({ ...window, UpdatedAtRange: { End: '2026-11-19T00:00:00Z' } }))).toEqual(['fuel_1001']);
    const first = await search({ ...window, PageSize: 1 });
    expect(ids(first)).toEqual(['fuel_1002']);
    expect(ids(await search({ ...window, PageSize: 1, Cursor: first.body.NextCursor }))).toEqual(['fuel_1001']);
  });

  it("shows a subsidiary-bound client only its subsidiary's transactions, and no other tenant's", async () => {
    const window = { TransactionDateRange: { End: '2026-11-20T00:00:00Z' } };
    expect(ids(await search(window, 'sub_kc-all'))).toEqual(['fuel_1001']);
    expect(ids(await search(window, 'sub_dal-all'))).toEqual(['fuel_1002']);
    expect(ids(await search(window, 'tn_harbor-all'))).toEqual(['fuel_h1']);
  });

  it('refuses empty lists, reversed ranges, bad values and unknown fields with a 400 naming them', async () => {
    for (const [body, field] of [
      [{ TruckIds: [] }, 'TruckIds'],
      [{ DriverIds: [] }, 'DriverIds'],
      [{ Categories: [] }, 'Categories'],
      [{ Categories: ['Kerosene'] }, 'Categories'],
      [{ FuelCardLast4: '12345' }, 'FuelCardLast4'],
      [{ TransactionDateRange: { Start: '2026-11-20T00:00:00Z', End: '2026-11-20T00:00:00Z' } }, 'TransactionDateRange.End'],
      [{ UpdatedAtRange: { Start: '2026-11-20T00:00:00Z', End: '2026-11-19T00:00:00Z' } }, 'UpdatedAtRange.End'],
      [{ PageSize: 101 }, 'PageSize'],
      [{ Ids: ['fuel_1001'] }, 'Ids'],
    ] as const) {
      const response = await search(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response).join(' '), JSON.stringify(body)).toContain(field);
    }
  });
});

describe('POST /fuel', () => {
  it('imports with 201, Location and ETag; the subsidiary is the truck’s and no deduction for a company driver', async () => {
    const body = importBody();
    const response = await create(body);
    expect(response.status, response.text).toBe(201);
    const id: string = response.body.Id;
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/fuel/${id}`);
    expect(response.headers.get('etag')).toBe(`"${id}.1"`);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    expect(response.body).toMatchObject({
      TransactionId: body.TransactionId,
      SubsidiaryId: 'sub_kc',
      TruckNumber: '101',
      DriverName: 'Ana Ortiz',
      FuelCardNumber: '************4417',
      Location: { Name: 'Pilot #77', City: 'Topeka', State: 'KS', Country: null },
      Quantity: { Value: 100.25, UnitOfMeasure: 'Gallons' },
      PricePerUnit: { Amount: 3.9999, Currency: 840 },
      Total: { Amount: 397.49, Currency: 840 },
      TransactionDate: '2026-11-21T10:00:00.000Z',
      DeductionId: null,
      CreatedAt: '2026-11-22T12:00:00.000Z',
    });
    expect((await get(id)).body).toEqual(response.body);
  });

  it('defaults Fees and Discounts to zero and takes a purchase with neither truck nor driver in the caller’s subsidiary', async () => {
    const response = await create(
      importBody({ TruckId: undefined, DriverId: undefined, Fees: undefined, Discounts: undefined, FuelTotal: { Amount: 50 }, Total: { Amount: 50 }, PricePerUnit: { Amount: 5 } }),
      'sub_dal-all',
    );
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ SubsidiaryId: 'sub_dal', TruckId: null, DriverName: null, Fees: { Amount: 0, Currency: 840 }, Discounts: { Amount: 0, Currency: 840 } });
  });

  it('replays the first record for the same Source and TransactionId, and refuses other values with 409', async () => {
    const body = importBody();
    const first = await create(body);
    const replay = await create({ ...body, TransactionDate: '2026-11-21T05:00:00-05:00', FuelCardNumber: '4111 2222 3333 4417' });
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const before = await rowCount();
    const changed = await create({ ...body, Quantity: { Value: 100.5, UnitOfMeasure: 'Gallons' } });
    expect(changed.status).toBe(409);
    expect(changed.body.Type).toBe(`${t.apiUrl}/errors/Conflict/IdempotencyKeyReuse`);
    expect(changed.body.ConflictingFields).toEqual(['Quantity']);
    expect(await rowCount()).toBe(before);
    // The same TransactionId from another provider is another transaction.
    expect((await create({ ...body, Source: 'WEX' })).headers.get('idempotent-replayed')).toBeNull();
  });

  it('replays a transaction loaded from the fixture', async () => {
    const { Id, TruckNumber, DriverName, DeductionId, CreatedAt, UpdatedAt, SubsidiaryId, ...body } = fuel1001;
    const replay = await create(body);
    expect(replay.status, replay.text).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(fuel1001);
  });

  it('makes one record of concurrent identical imports; the others replay it', async () => {
    const body = importBody();
    const responses = await Promise.all(Array.from({ length: 8 }, () => create(body)));
    expect(responses.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(responses.map((r) => r.body.Id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(7);
    const stored = await t.db.selectFrom('fuel_transactions').select('id').where('transaction_id', '=', body.TransactionId).execute();
    expect(stored).toHaveLength(1);
  });

  it('refuses a Total other than FuelTotal + Fees − Discounts, more than 4 decimals and mixed currencies with a 400 naming the field, writing nothing', async () => {
    const before = await rowCount();
    for (const [body, field] of [
      [importBody({ Total: { Amount: 397.5, Currency: 840 } }), 'Total'],
      [importBody({ PricePerUnit: { Amount: 3.99991, Currency: 840 } }), 'PricePerUnit.Amount'],
      [importBody({ FuelTotal: { Amount: 400.991, Currency: 840 } }), 'FuelTotal.Amount'],
      [importBody({ Fees: { Amount: 1.5, Currency: 124 } }), 'Fees.Currency'],
      [importBody({ Quantity: { Value: 0, UnitOfMeasure: 'Gallons' } }), 'Quantity.Value'],
      [importBody({ Quantity: { Value: 1.0001, UnitOfMeasure: 'Gallons' } }), 'Quantity.Value'],
      [importBody({ Quantity: { Value: 1, UnitOfMeasure: 'Barrels' } }), 'Quantity.UnitOfMeasure'],
      [importBody({ Discounts: { Amount: -1, Currency: 840 } }), 'Discounts.Amount'],
      [importBody({ Category: 'Kerosene' }), 'Category'],
      [importBody({ FuelCardNumber: '4111-1111-abcd-1111' }), 'FuelCardNumber'],
      [importBody({ TransactionDate: 'yesterday' }), 'TransactionDate'],
      [importBody({ TransactionId: undefined }), 'TransactionId'],
      [importBody({ Id: 'fuel_mine' }), 'Id'],
      [importBody({ DeductionId: 'ded_x' }), 'DeductionId'],
      [importBody({ TruckNumber: '101' }), 'TruckNumber'],
    ] as const) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response), JSON.stringify(body)).toContain(field);
    }
    expect(await rowCount()).toBe(before);
  });

  it("answers an unknown truck or driver, another subsidiary's and another tenant's alike with 404", async () => {
    const missing = await create(importBody({ TruckId: 'trk_nowhere' }));
    expect(missing.status).toBe(404);
    const otherTenant = await create(importBody({ TruckId: 'trk_h1' }));
    const otherSubsidiary = await create(importBody({ TruckId: 'trk_202', DriverId: null }), 'sub_kc-all');
    const missingForKc = await create(importBody({ TruckId: 'trk_nowhere' }), 'sub_kc-all');
    for (const [response, twin] of [
      [otherTenant, missing],
      [otherSubsidiary, missingForKc],
    ] as const) {
      expect(response.status).toBe(404);
      expect({ ...response.body, Instance: null }).toEqual({ ...twin.body, Instance: null });
    }
    expect((await create(importBody({ DriverId: 'drv_ben', TruckId: null }), 'sub_kc-all')).status).toBe(404);
    expect((await create(importBody({ TruckId: null, DriverId: null, SubsidiaryId: 'sub_dal' }), 'sub_kc-all')).status).toBe(404);
  });

  it("refuses a SubsidiaryId other than the truck's with 422 naming it", async () => {
    const response = await create(importBody({ SubsidiaryId: 'sub_dal' }));
    expect(response.status).toBe(422);
    expect(errorFields(response)).toEqual(['SubsidiaryId']);
    expect((await create(importBody({ SubsidiaryId: 'sub_kc' }))).status).toBe(201);
  });
});

describe('deductions generated by fuel imports', () => {
  it("charges an owner-operator's driver the Total in the same transaction, and DELETE /deductions refuses it", async () => {
    const body = importBody({ TruckId: 'trk_202', DriverId: 'drv_ben' });
    const response = await create(body);
    expect(response.status, response.text).toBe(201);
    const { Id, DeductionId } = response.body;
    expect(DeductionId).toMatch(/^ded_/);
    const deduction = await t.api(`${base}/deductions/${DeductionId}`, { as: ALL });
    expect(deduction.status).toBe(200);
    expect(deduction.body).toMatchObject({
      Type: 'Deduction',
      Category: 'Fuel',
      Amount: { Amount: -397.49, Currency: 840 },
      DriverId: 'drv_ben',
      TruckId: null,
      OwnerOperatorId: 'oo_mesa',
      ExternalId: `fuel:${Id}`,
      IsPaid: false,
      Date: '2026-11-21T10:00:00.000Z',
    });
    const refused = await t.api(`${base}/deductions/${DeductionId}`, { method: 'DELETE', as: ALL });
    expect(refused.status).toBe(409);
    expect(refused.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
    expect((await t.api(`${base}/deductions/${DeductionId}`, { as: ALL })).status).toBe(200);
    // A replay generates nothing more.
    await create(body);
    const generated = await t.db.selectFrom('deductions').select('id').where('external_id', '=', `fuel:${Id}`).execute();
    expect(generated).toHaveLength(1);
  });

  it('generates none for a company driver, and none for transactions loaded from a fixture', async () => {
    expect((await create(importBody({ DriverId: 'drv_cara' }))).body.DeductionId).toBeNull();
    expect((await get('fuel_1002')).body).toMatchObject({ DriverId: 'drv_ben', DeductionId: null });
  });
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/fuel/fuel_1001`,
  scope: 'fuel:read',
  otherTenantPath: `${base}/fuel/fuel_h1`,
  missingPath: `${base}/fuel/fuel_nowhere`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/fuel/fuel_1001` },
});
describeAuthCases(() => t, { method: 'POST', path: `${base}/fuel/search`, scope: 'fuel:read', body: {} });
describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/fuel`,
  scope: 'fuel:create',
  body: importBody({ TransactionId: 'AUTH-CASE-1' }),
  okStatus: 201,
  // The truck is sub_kc's; the isolation case of another tenant is the 404 test above.
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/fuel` },
});

describe('endpoint rate rules (docs/api-rules.md#rate-limits)', () => {
  it('limit GET /fuel/{id} to 10 and POST /fuel/search to 5 a minute per client', async () => {
    const limited = await startTestApp({ fixture: transactionFixture(), env: { RATE_LIMITS: 'on' } });
    try {
      const statuses = async (count: number, call: () => Promise<ApiResponse>) => {
        const out: number[] = [];
        for (let i = 0; i < count; i++) out.push((await call()).status);
        return out;
      };
      const gets = await statuses(11, () => limited.api(`${base}/fuel/fuel_1001`, { as: ALL }));
      expect(gets.slice(0, 10).every((s) => s === 200)).toBe(true);
      expect(gets[10]).toBe(429);
      const searches = await statuses(6, () => limited.api(`${base}/fuel/search`, { method: 'POST', as: ALL, body: {} }));
      expect(searches.slice(0, 5).every((s) => s === 200)).toBe(true);
      expect(searches[5]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('card numbers are never stored, logged or echoed', () => {
  const FULL = '4929 3817 6602 5512';
  const DIGITS = FULL.replace(/ /g, '');
  let dir: string | null = null;

  it('keeps only the last 4 digits: not in the database, the logs or error bodies', async () => {
    const logs: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logs.push(String(chunk));
        done();
      },
    });
    let database;
    let file: string | null = null;
    if (testDatabaseKind() === 'sqlite') {
      dir = mkdtempSync(join(tmpdir(), 'waybill-card-'));
      file = join(dir, 'card.db');
      const db = createDb(`sqlite:${file}`);
      await migrateToLatest(db);
      database = { db, url: `sqlite:${file}`, dispose: () => db.destroy() };
    } else {
      database = await createTestDatabase();
    }
    const app = await startTestApp({ fixture: transactionFixture(), database, logger: createLogger('trace', sink) });
    try {
      const created = await app.api(`${base}/fuel`, { method: 'POST', as: ALL, body: importBody({ FuelCardNumber: FULL, TransactionId: 'CARD-1' }) });
      expect(created.status, created.text).toBe(201);
      expect(created.body.FuelCardNumber).toBe('************5512');
      const dashed = await app.api(`${base}/fuel`, { method: 'POST', as: ALL, body: importBody({ FuelCardNumber: FULL.replace(/ /g, '-'), TransactionId: 'CARD-2' }) });
      expect(dashed.status).toBe(201);
      // Refused bodies, with the number beside the field in error and in error itself.
      const refusals = await Promise.all([
        app.api(`${base}/fuel`, { method: 'POST', as: ALL, body: importBody({ FuelCardNumber: FULL, Total: { Amount: 1 } }) }),
        app.api(`${base}/fuel`, { method: 'POST', as: ALL, body: importBody({ FuelCardNumber: `${DIGITS}x` }) }),
        app.api(`${base}/fuel`, { method: 'POST', as: ALL, body: importBody({ FuelCardNumber: FULL, Unknown: DIGITS }) }),
        app.api(`${base}/fuel`, { method: 'POST', as: ALL, body: importBody({ FuelCardNumber: FULL, TransactionId: 'CARD-1', Category: 'DEF' }) }),
        app.api(`${base}/fuel/search`, { method: 'POST', as: ALL, body: { FuelCardLast4: DIGITS } }),
      ]);
      expect(refusals.map((r) => r.status)).toEqual([400, 400, 400, 409, 400]);
      for (const response of [created, dashed, ...refusals]) {
        expect(response.text).not.toContain(DIGITS);
        expect(response.text).not.toContain(FULL);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
      const logged = logs.join('');
      expect(logged).toContain('"path"');
      expect(logged).not.toContain(DIGITS.slice(0, 12));

      if (file) {
        await app.db.destroy().catch(() => undefined);
        for (const path of [file, `${file}-wal`, `${file}-journal`]) {
          if (!existsSync(path)) continue;
          const bytes = readFileSync(path).toString('latin1');
          expect(bytes).not.toContain(DIGITS);
          expect(bytes).not.toContain(DIGITS.slice(0, 12));
          expect(bytes).toContain('5512');
        }
      } else {
        const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = current_schema()`.execute(app.db);
        let text = '';
        for (const { table_name } of tables.rows) {
          const rows = await sql<{ row: string }>`select t::text as row from ${sql.table(table_name)} t`.execute(app.db);
          text += rows.rows.map((r) => r.row).join('\n');
        }
        expect(text).toContain('5512');
        expect(text).not.toContain(DIGITS);
        expect(text).not.toContain(DIGITS.slice(0, 12));
      }
    } finally {
      await app.close().catch(() => undefined);
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  });
});
