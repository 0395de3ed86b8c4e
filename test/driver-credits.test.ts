import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { moneyFixture } from './support/money-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: moneyFixture() });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0/credits/driver';
const post = (body: unknown, as = 'prairie-integration') => t.api(base, { method: 'POST', as, body });
const credit = { Date: '2026-11-21T10:00:00Z', Amount: 150, Category: 'Bonus', Description: 'Safety bonus', DriverId: 'drv_ana' };
let keyCounter = 0;
const freshKey = () => `key-${++keyCounter}-${Date.now()}`;

async function creditCount(externalId: string): Promise<number> {
  const rows = await t.db.selectFrom('deductions').select('id').where('external_id', '=', externalId).execute();
  return rows.length;
}

describeAuthCases(() => t, { method: 'POST', path: base, scope: 'deduction:create', body: credit, okStatus: 201 });

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/cr_bonus_paid`,
  scope: 'deduction:read',
  otherTenantPath: `${base}/cr_harbor`,
  missingPath: `${base}/cr_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/cr_ben_dal` },
});

// The shared cases send no If-Match: reaching the precondition check (428) proves that
// authentication and scope passed; the isolation cases are 404 before it.
describeAuthCases(() => t, {
  method: 'PATCH',
  path: `${base}/cr_ben_dal`,
  scope: 'deduction:update',
  body: { Description: 'x' },
  okStatus: 428,
  otherTenantPath: `${base}/cr_harbor`,
  missingPath: `${base}/cr_nowhere`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/cr_ben_dal` },
});

describe('POST /credits/driver', () => {
  it('creates a credit (Type Credit) with Location, ETag and no replay header', async () => {
    const response = await post({ ...credit, OwnerOperatorId: 'oo_mesa', DriverId: 'drv_ben', ExternalId: freshKey() });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      Id: expect.stringMatching(/^cr_/),
      Type: 'Credit',
      GroupId: expect.stringMatching(/^grp_/),
      Description: 'Safety bonus',
      Category: 'Bonus',
      Amount: { Amount: 150, Currency: 840 },
      Date: '2026-11-21T00:00:00.000Z',
      IsPaid: false,
      CreatedAt: '2026-11-22T12:00:00.000Z',
      DriverId: 'drv_ben',
      TruckId: null,
      OwnerOperatorId: 'oo_mesa',
      CreatedBy: 'prairie-integration',
      ExternalId: expect.stringMatching(/^key-/),
    });
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/credits/driver/${response.body.Id}`);
    expect(response.headers.get('etag')).toBe(`"${response.body.Id}.1"`);
    expect(response.headers.get('idempotent-replayed')).toBeNull();
    const row = await t.db.selectFrom('deductions').selectAll().where('id', '=', response.body.Id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ subsidiary_id: 'sub_dal', amount: 15000, type: 'Credit' });
  });

  it.each([
    ['an offset crossing midnight lands on the next UTC day', '2026-11-21T22:30:00-05:00', '2026-11-22T00:00:00.000Z'],
    ['a late UTC time stays on its day', '2026-11-21T23:59:59.999Z', '2026-11-21T00:00:00.000Z'],
    ['a positive offset moves back a day', '2026-11-21T01:00:00+03:00', '2026-11-20T00:00:00.000Z'],
    ['a bare date is that day', '2026-11-21', '2026-11-21T00:00:00.000Z'],
  ])('normalises Date to its UTC calendar date: %s', async (_label, date, stored) => {
    const response = await post({ ...credit, Date: date });
    expect(response.status).toBe(201);
    expect(response.body.Date).toBe(stored);
  });

  it("posts to the driver's next statement, creating one when none is open", async () => {
    // drv_ana's only statement (80001) is Processed: the first credit opens a new one.
    const first = await post({ ...credit, DriverId: 'drv_cara' });
    const second = await post({ ...credit, DriverId: 'drv_cara' });
    const rows = await t.db
      .selectFrom('deductions')
      .select(['id', 'driver_statement_number'])
      .where('id', 'in', [first.body.Id, second.body.Id])
      .execute();
    const numbers = new Set(rows.map((r) => r.driver_statement_number));
    expect(numbers.size).toBe(1);
    const [number] = [...numbers];
    const statement = await t.db.selectFrom('driver_settlement_statements').selectAll().where('number', '=', number!).executeTakeFirstOrThrow();
    expect(statement).toMatchObject({ driver_id: 'drv_cara', status: 'Open', subsidiary_id: 'sub_kc', tenant_id: 'tn_prairie' });

    const ana = await post(credit);
    const anaRow = await t.db.selectFrom('deductions').select('driver_statement_number').where('id', '=', ana.body.Id).executeTakeFirstOrThrow();
    expect(anaRow.driver_statement_number).not.toBe(80001);
    expect(anaRow.driver_statement_number).not.toBe(number);

    // Once that statement is processed, the next credit opens another.
    await t.db.updateTable('driver_settlement_statements').set({ status: 'Processed' }).where('number', '=', number!).execute();
    const third = await post({ ...credit, DriverId: 'drv_cara' });
    const thirdRow = await t.db.selectFrom('deductions').select('driver_statement_number').where('id', '=', third.body.Id).executeTakeFirstOrThrow();
    expect(thirdRow.driver_statement_number).not.toBe(number);
  });

  it('posts to the earliest open statement when several are open', async () => {
    const now = '2026-11-22T12:00:00.000Z';
    const statement = (number: number, date: string) => ({
      number,
      tenant_id: 'tn_prairie',
      subsidiary_id: 'sub_dal',
      driver_id: 'drv_ben',
      status: 'Open',
      statement_date: date,
      created_at: now,
      updated_at: now,
    });
    await t.db.insertInto('driver_settlement_statements').values([statement(90002, '2026-11-08T00:00:00.000Z'), statement(90001, '2026-11-01T00:00:00.000Z')]).execute();
    const response = await post({ ...credit, DriverId: 'drv_ben' });
    const row = await t.db.selectFrom('deductions').select('driver_statement_number').where('id', '=', response.body.Id).executeTakeFirstOrThrow();
    expect(row.driver_statement_number).toBe(90001);
  });

  it.each([
    ['zero', 0, 0],
    ['one', 1, 100],
    ['the cap', 1_000_000, 100_000_000],
    ['two decimals', 1.29, 129],
  ])('accepts %s exactly', async (_label, amount, minor) => {
    const response = await post({ ...credit, Amount: amount });
    expect(response.status).toBe(201);
    expect(response.body.Amount).toEqual({ Amount: amount, Currency: 840 });
    const row = await t.db.selectFrom('deductions').select('amount').where('id', '=', response.body.Id).executeTakeFirstOrThrow();
    expect(row.amount).toBe(minor);
  });

  it('adds credits in minor units: 1.1 + 2.2 is 3.30 exactly', async () => {
    const a = await post({ ...credit, DriverId: 'drv_ben', Amount: 1.1, Category: 'Exact' });
    const b = await post({ ...credit, DriverId: 'drv_ben', Amount: 2.2, Category: 'Exact' });
    const rows = await t.db.selectFrom('deductions').select('amount').where('id', 'in', [a.body.Id, b.body.Id]).execute();
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(330);
  });

  it.each([
    ['between 0 and 1', 0.5],
    ['0.99', 0.99],
    ['negative', -5],
    ['above the cap', 1_000_000.01],
    ['three decimals', 10.125],
    ['a string', '10'],
  ])('refuses an amount %s with 400 naming Amount', async (_label, amount) => {
    const response = await post({ ...credit, Amount: amount });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['Amount']);
  });

  it('refuses missing required fields and unknown ones', async () => {
    const response = await post({ Amount: 5, Extra: true });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors).sort()).toEqual(['Category', 'Date', 'Description', 'DriverId', 'Extra']);
  });

  it('answers unknown, other-tenant and out-of-scope drivers and owner-operators with byte-identical 404s', async () => {
    const responses = await Promise.all([
      post({ ...credit, DriverId: 'drv_nowhere' }),
      post({ ...credit, DriverId: 'drv_hal' }),
      post({ ...credit, DriverId: 'drv_ben' }, 'sub_kc-all'),
      post({ ...credit, OwnerOperatorId: 'oo_nowhere' }),
      post({ ...credit, OwnerOperatorId: 'oo_mesa' }, 'sub_kc-all'),
    ]);
    expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
  });

  it('answers 403 to a token without deduction:create', async () => {
    const response = await post(credit, 'prairie-readonly');
    expect(response.status).toBe(403);
  });
});

describe('POST /credits/driver idempotency', () => {
  it('replays the first credit with its original Description and the Idempotent-Replayed header', async () => {
    const key = freshKey();
    const first = await post({ ...credit, ExternalId: key });
    const replay = await post({ ...credit, ExternalId: key, Description: 'Corrected text', Date: '2026-11-21T23:00:00Z', Amount: 150.0 });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(replay.body.Description).toBe('Safety bonus');
    expect(replay.headers.get('etag')).toBe(first.headers.get('etag'));
    expect(await creditCount(key)).toBe(1);
  });

  it.each([
    ['Amount', { Amount: 151 }],
    ['Date', { Date: '2026-11-22T10:00:00Z' }],
    ['Category', { Category: 'Other' }],
    ['DriverId', { DriverId: 'drv_cara' }],
    ['OwnerOperatorId', { OwnerOperatorId: 'oo_mesa', DriverId: 'drv_ben' }],
  ])('refuses the key reused with a changed %s: 409 IdempotencyKeyReuse', async (field, change) => {
    const key = freshKey();
    const base = field === 'OwnerOperatorId' ? { ...credit, DriverId: 'drv_ben' } : credit;
    await post({ ...base, ExternalId: key });
    const response = await post({ ...base, ...change, ExternalId: key });
    expect(response.status).toBe(409);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Conflict/IdempotencyKeyReuse`);
    expect(response.body.ConflictingFields).toEqual([field]);
    expect(await creditCount(key)).toBe(1);
  });

  it('keeps keys per tenant: another tenant may use the same ExternalId', async () => {
    const key = freshKey();
    const prairie = await post({ ...credit, ExternalId: key });
    const harbor = await post({ ...credit, DriverId: 'drv_hal', ExternalId: key }, 'tn_harbor-all');
    expect([prairie.status, harbor.status]).toEqual([201, 201]);
    expect(harbor.headers.get('idempotent-replayed')).toBeNull();
    expect(harbor.body.Id).not.toBe(prairie.body.Id);
  });

  it('treats a credit that already carries the key (fixture data) as the first call', async () => {
    const same = { Date: '2026-11-08T15:00:00Z', Amount: 100, Category: 'Bonus', Description: 'Again', DriverId: 'drv_ana', ExternalId: 'bonus-2026-11-ana' };
    const replay = await post(same);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.Id).toBe('cr_bonus_paid');
    const changed = await post({ ...same, Amount: 101 });
    expect(changed.status).toBe(409);
    expect(await creditCount('bonus-2026-11-ana')).toBe(1);
  });

  it('makes exactly one credit from 50 parallel identical creates, and every caller gets it', async () => {
    const key = freshKey();
    const responses = await Promise.all(Array.from({ length: 50 }, () => post({ ...credit, DriverId: 'drv_cara', ExternalId: key })));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(responses.map((r) => r.body.Id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
    expect(await creditCount(key)).toBe(1);
  });
});

describe('GET /credits/driver/{deductionId}', () => {
  it('returns the credit with its ETag', async () => {
    const response = await t.api(`${base}/cr_bonus_paid`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe('"cr_bonus_paid.1"');
    expect(response.body).toMatchObject({ Id: 'cr_bonus_paid', Type: 'Credit', ExternalId: 'bonus-2026-11-ana' });
  });

  it('answers a deduction id with 404 (the wrong family)', async () => {
    const response = await t.api(`${base}/ded_fuel_adv`, { as: 'prairie-integration' });
    expect(response.status).toBe(404);
  });
});

describe('PATCH /credits/driver/{deductionId}', () => {
  const patch = (id: string, body: unknown, ifMatch?: string, as = 'prairie-integration') =>
    t.api(`${base}/${id}`, { method: 'PATCH', as, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });

  async function fresh() {
    const created = await post({ ...credit, ExternalId: freshKey() });
    return { id: created.body.Id as string, etag: created.headers.get('etag')!, body: created.body };
  }

  it('merges the sent fields, keeps the rest and moves the ETag', async () => {
    const { id, etag, body } = await fresh();
    t.clock.advance(60_000);
    const response = await patch(id, { Description: 'Corrected', Amount: 3.3 }, etag);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...body, Description: 'Corrected', Amount: { Amount: 3.3, Currency: 840 } });
    expect(response.headers.get('etag')).toBe(`"${id}.2"`);
    const read = await t.api(`${base}/${id}`, { as: 'prairie-integration' });
    expect(read.headers.get('etag')).toBe(`"${id}.2"`);
    const row = await t.db.selectFrom('deductions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ amount: 330, version: 2, updated_at: '2026-11-22T12:01:00.000Z' });
  });

  it('normalises Date like the create and can clear the owner-operator', async () => {
    const created = await post({ ...credit, DriverId: 'drv_ben', OwnerOperatorId: 'oo_mesa' });
    const response = await patch(created.body.Id, { Date: '2026-11-23T20:00:00-08:00', OwnerOperatorId: null }, created.headers.get('etag')!);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Date: '2026-11-24T00:00:00.000Z', OwnerOperatorId: null });
  });

  it('requires If-Match (428) and a current strong one (412); * and bare tags match', async () => {
    const { id, etag } = await fresh();
    const missing = await patch(id, { Category: 'A' });
    expect(missing.status).toBe(428);
    expect(missing.body.Type).toBe(`${t.apiUrl}/errors/PreconditionRequired`);
    const stale = await patch(id, { Category: 'A' }, `"${id}.9"`);
    expect(stale.status).toBe(412);
    expect(stale.body.Type).toBe(`${t.apiUrl}/errors/PreconditionFailed`);
    const weak = await patch(id, { Category: 'A' }, `W/${etag}`);
    expect(weak.status).toBe(412);
    const bare = await patch(id, { Category: 'B' }, etag.replace(/"/g, ''));
    expect(bare.status).toBe(200);
    const star = await patch(id, { Category: 'C' }, '*');
    expect(star.status).toBe(200);
    expect(star.headers.get('etag')).toBe(`"${id}.3"`);
    const old = await patch(id, { Category: 'D' }, etag);
    expect(old.status).toBe(412);
  });

  it('refuses an empty update and bad values with 400 before looking at If-Match', async () => {
    const { id } = await fresh();
    const empty = await patch(id, {});
    expect(empty.status).toBe(400);
    expect(empty.body.Errors).toHaveProperty('$');
    const amount = await patch(id, { Amount: 0.5 });
    expect(amount.status).toBe(400);
    expect(Object.keys(amount.body.Errors)).toEqual(['Amount']);
    const unknown = await patch(id, { DriverId: 'drv_cara' });
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body.Errors).sort()).toEqual(['$', 'DriverId']);
  });

  it('refuses a paid credit with 409 SettledRecord', async () => {
    const response = await patch('cr_bonus_paid', { Description: 'x' }, '*');
    expect(response.status).toBe(409);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
  });

  it('refuses a credit on a processed or paid statement with 409', async () => {
    const created = await post({ ...credit, DriverId: 'drv_ben', Category: 'OnStatement' });
    const { driver_statement_number: number } = await t.db
      .selectFrom('deductions')
      .select('driver_statement_number')
      .where('id', '=', created.body.Id)
      .executeTakeFirstOrThrow();
    await t.db.updateTable('driver_settlement_statements').set({ status: 'Paid' }).where('number', '=', number!).execute();
    const response = await patch(created.body.Id, { Description: 'x' }, created.headers.get('etag')!);
    expect(response.status).toBe(409);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
    await t.db.updateTable('driver_settlement_statements').set({ status: 'Open' }).where('number', '=', number!).execute();
  });

  it('answers a deduction id (wrong family) and an unknown owner-operator with 404', async () => {
    expect((await patch('ded_fuel_adv', { Description: 'x' }, '*')).status).toBe(404);
    const { id, etag } = await fresh();
    expect((await patch(id, { OwnerOperatorId: 'oo_nowhere' }, etag)).status).toBe(404);
  });

  it('needs deduction:update', async () => {
    const { id, etag } = await fresh();
    const response = await patch(id, { Description: 'x' }, etag, 'prairie-readonly');
    expect(response.status).toBe(403);
  });
});
