import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { transactionFixture } from './support/transaction-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: transactionFixture() });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';

const toll1001 = {
  Id: 'toll_1001',
  TransactionId: 'PP-55120',
  Source: 'PrePass',
  Agency: 'Kansas Turnpike Authority',
  TransponderId: 'KTA-000123',
  SubsidiaryId: 'sub_kc',
  TruckId: 'trk_101',
  UnitNumber: '101',
  LicensePlate: 'KS 4417TR',
  LicenseState: 'KS',
  EntryPlaza: 'Wichita South',
  EntryAt: '2026-11-18T15:10:00.000Z',
  ExitPlaza: 'Emporia',
  ExitAt: '2026-11-18T16:20:00.000Z',
  Amount: { Amount: 18.75, Currency: 840 },
  Fee: { Amount: 0.5, Currency: 840 },
  PostedAt: '2026-11-19T06:00:00.000Z',
  TransactionDate: '2026-11-18T16:20:00.000Z',
  DeductionId: null,
  CreatedAt: '2026-11-19T06:05:00.000Z',
  UpdatedAt: '2026-11-19T06:05:00.000Z',
};

const get = (id: string, as = ALL) => t.api(`${base}/tolls/${encodeURIComponent(id)}`, { as });
const search = (body: unknown, as = ALL) => t.api(`${base}/tolls/search`, { method: 'POST', as, body });
const create = (body: unknown, as = ALL) => t.api(`${base}/tolls`, { method: 'POST', as, body });
const ids = (response: ApiResponse) => response.body.Items.map((item: { Id: string }) => item.Id);
const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});
const rowCount = async () => Number((await t.db.selectFrom('toll_transactions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

let transactions = 0;
const freshTransactionId = () => `PP-${++transactions}-${Date.now()}`;

function importBody(extra: Record<string, unknown> = {}) {
  return {
    TransactionId: freshTransactionId(),
    Source: 'PrePass',
    Agency: 'Oklahoma Turnpike Authority',
    TransponderId: 'KTA-000123',
    TruckId: 'trk_101',
    EntryPlaza: 'Tulsa',
    EntryAt: '2026-11-21T08:00:00Z',
    ExitPlaza: 'Oklahoma City',
    ExitAt: '2026-11-21T09:30:00Z',
    Amount: { Amount: 14.6, Currency: 840 },
    Fee: { Amount: 0.35, Currency: 840 },
    TransactionDate: '2026-11-21T09:30:00Z',
    ...extra,
  };
}

describe('GET /tolls/{id}', () => {
  it('returns the transaction with its ETag', async () => {
    const response = await get('toll_1001');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(toll1001);
    expect(response.headers.get('etag')).toBe('"toll_1001.1"');
  });

  it("answers another subsidiary's transaction with the 404 of an unknown id", async () => {
    const other = await get('toll_1001', 'sub_dal-all');
    const missing = await get('toll_nowhere', 'sub_dal-all');
    expect(other.status).toBe(404);
    expect({ ...other.body, Instance: null }).toEqual({ ...missing.body, Instance: null });
  });
});

describe('POST /tolls/search', () => {
  it('lists newest TransactionDate first and filters', async () => {
    const window = { TransactionDateRange: { End: '2026-11-21T00:00:00Z' } };
    const all = await search(window);
    expect(all.status).toBe(200);
    expect(ids(all)).toEqual(['toll_1002', 'toll_1001']);
    expect(all.body).toMatchObject({ Page: 0, PageSize: 50, Total: 2, NextCursor: null });
    expect(ids(await search({ ...window, TransponderId: 'NTTA-000777' }))).toEqual(['toll_1002']);
    expect(ids(await search({ ...window, TruckIds: ['trk_101'] }))).toEqual(['toll_1001']);
    expect(ids(await search({ TransactionDateRange: { Start: '2026-11-19T00:00:00Z', End: '2026-11-21T00:00:00Z' } }))).toEqual(['toll_1002']);
    expect(ids(await search({ ...window, UpdatedAtRange: { Start: '2026-11-20T00:00:00Z' } }))).toEqual(['toll_1002']);
    expect(ids(await search({ ...window, PageSize: 1, Page: 1 }))).toEqual(['toll_1001']);
  });

  it("shows a subsidiary-bound client only its subsidiary's transactions, and no other tenant's", async () => {
    const window = { TransactionDateRange: { End: '2026-11-21T00:00:00Z' } };
    expect(ids(await search(window, 'sub_kc-all'))).toEqual(['toll_1001']);
    expect(ids(await search(window, 'sub_dal-all'))).toEqual(['toll_1002']);
    expect(ids(await search(window, 'tn_harbor-all'))).toEqual(['toll_h1']);
  });

  it('refuses empty lists, reversed ranges and unknown fields with a 400 naming them', async () => {
    for (const [body, field] of [
      [{ TruckIds: [] }, 'TruckIds'],
      [{ TransponderId: '' }, 'TransponderId'],
      [{ TransactionDateRange: { Start: '2026-11-20T00:00:00Z', End: '2026-11-19T00:00:00Z' } }, 'TransactionDateRange.End'],
      [{ UpdatedAtRange: { Start: '2026-11-20T00:00:00Z', End: '2026-11-20T00:00:00Z' } }, 'UpdatedAtRange.End'],
      [{ Categories: ['Diesel'] }, 'Categories'],
    ] as const) {
      const response = await search(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response).join(' '), JSON.stringify(body)).toContain(field);
    }
  });
});

describe('POST /tolls', () => {
  it("imports with 201, Location and ETag in the truck's subsidiary; no deduction for a company truck", async () => {
    const body = importBody();
    const response = await create(body);
    expect(response.status, response.text).toBe(201);
    const id: string = response.body.Id;
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/tolls/${id}`);
    expect(response.headers.get('etag')).toBe(`"${id}.1"`);
    expect(response.body).toMatchObject({
      SubsidiaryId: 'sub_kc',
      Amount: { Amount: 14.6, Currency: 840 },
      Fee: { Amount: 0.35, Currency: 840 },
      EntryAt: '2026-11-21T08:00:00.000Z',
      UnitNumber: null,
      PostedAt: null,
      DeductionId: null,
    });
    expect((await get(id)).body).toEqual(response.body);
  });

  it('replays the same Source and TransactionId, refuses other values with 409, and makes one record of concurrent imports', async () => {
    const body = importBody();
    const first = await create(body);
    const replay = await create(body);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const changed = await create({ ...body, Fee: null });
    expect(changed.status).toBe(409);
    expect(changed.body.Type).toBe(`${t.apiUrl}/errors/Conflict/IdempotencyKeyReuse`);
    expect(changed.body.ConflictingFields).toEqual(['Fee']);

    const parallel = importBody();
    const responses = await Promise.all(Array.from({ length: 6 }, () => create(parallel)));
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(201));
    expect(new Set(responses.map((r) => r.body.Id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
  });

  it('refuses bad values with a 400 naming the field, writing nothing', async () => {
    const before = await rowCount();
    for (const [body, field] of [
      [importBody({ Amount: { Amount: 1.005, Currency: 840 } }), 'Amount.Amount'],
      [importBody({ Amount: { Amount: -1, Currency: 840 } }), 'Amount.Amount'],
      [importBody({ Fee: { Amount: 1, Currency: 124 } }), 'Fee.Currency'],
      [importBody({ Amount: undefined }), 'Amount'],
      [importBody({ ExitAt: 'later' }), 'ExitAt'],
      [importBody({ Source: '  ' }), 'Source'],
      [importBody({ DeductionId: 'ded_x' }), 'DeductionId'],
    ] as const) {
      const response = await create(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(errorFields(response), JSON.stringify(body)).toContain(field);
    }
    expect(await rowCount()).toBe(before);
  });

  it("answers another tenant's or subsidiary's truck like a missing one (404), and a SubsidiaryId not the truck's with 422", async () => {
    const missing = await create(importBody({ TruckId: 'trk_nowhere' }));
    const otherTenant = await create(importBody({ TruckId: 'trk_h1' }));
    expect(missing.status).toBe(404);
    expect({ ...otherTenant.body, Instance: null }).toEqual({ ...missing.body, Instance: null });
    expect((await create(importBody({ TruckId: 'trk_202' }), 'sub_kc-all')).status).toBe(404);
    const mismatch = await create(importBody({ SubsidiaryId: 'sub_dal' }));
    expect(mismatch.status).toBe(422);
    expect(errorFields(mismatch)).toEqual(['SubsidiaryId']);
  });
});

describe('deductions generated by toll imports', () => {
  it("charges the truck's owner-operator Amount + Fee, and DELETE /deductions refuses it", async () => {
    const response = await create(importBody({ TruckId: 'trk_202', TransponderId: 'NTTA-000777' }));
    expect(response.status, response.text).toBe(201);
    const { Id, DeductionId } = response.body;
    expect(response.body.SubsidiaryId).toBe('sub_dal');
    const deduction = await t.api(`${base}/deductions/${DeductionId}`, { as: 'sub_dal-all' });
    expect(deduction.status).toBe(200);
    expect(deduction.body).toMatchObject({
      Type: 'Deduction',
      Category: 'Tolls',
      Amount: { Amount: -14.95, Currency: 840 },
      TruckId: 'trk_202',
      DriverId: null,
      OwnerOperatorId: 'oo_mesa',
      ExternalId: `toll:${Id}`,
    });
    const refused = await t.api(`${base}/deductions/${DeductionId}`, { method: 'DELETE', as: ALL });
    expect(refused.status).toBe(409);
    expect(refused.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
  });

  it('generates none for transactions loaded from a fixture', async () => {
    expect((await get('toll_1002')).body).toMatchObject({ TruckId: 'trk_202', DeductionId: null });
  });
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/tolls/toll_1001`,
  scope: 'toll:read',
  otherTenantPath: `${base}/tolls/toll_h1`,
  missingPath: `${base}/tolls/toll_nowhere`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/tolls/toll_1001` },
});
describeAuthCases(() => t, { method: 'POST', path: `${base}/tolls/search`, scope: 'toll:read', body: {} });
describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/tolls`,
  scope: 'toll:create',
  body: importBody({ TransactionId: 'AUTH-CASE-1' }),
  okStatus: 201,
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/tolls` },
});

describe('endpoint rate rules (docs/api-rules.md#rate-limits)', () => {
  it('limit GET /tolls/{id} and POST /tolls/search to 10 a minute per client', async () => {
    const limited = await startTestApp({ fixture: transactionFixture(), env: { RATE_LIMITS: 'on' } });
    try {
      for (const call of [
        () => limited.api(`${base}/tolls/toll_1001`, { as: ALL }),
        () => limited.api(`${base}/tolls/search`, { method: 'POST', as: ALL, body: {} }),
      ]) {
        const statuses: number[] = [];
        for (let i = 0; i < 11; i++) statuses.push((await call()).status);
        expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
        expect(statuses[10]).toBe(429);
      }
    } finally {
      await limited.close();
    }
  });
});
