import { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { moneyFixture } from './support/money-fixture.js';

let t: TestApp;

type FamilyCase = {
  path: string;
  party: 'Driver' | 'Customer' | 'Carrier';
  type: 'Accessorial' | 'Credit';
  partyField: string;
  /** Party, trip and type of a record in sub_kc, in sub_dal and in the other tenant. */
  kc: { party: string; trip: string | null };
  dal: { party: string; trip: string | null };
  harbor: { party: string; trip: string | null };
  typeId: string;
};

const families: FamilyCase[] = [
  {
    path: 'accessorials/driver',
    party: 'Driver',
    type: 'Accessorial',
    partyField: 'DriverId',
    kc: { party: 'drv_ana', trip: null },
    dal: { party: 'drv_ben', trip: null },
    harbor: { party: 'drv_hal', trip: null },
    typeId: 'acc_detention',
  },
  {
    path: 'accessorials/customer',
    party: 'Customer',
    type: 'Accessorial',
    partyField: 'CustomerId',
    kc: { party: 'cus_heartland', trip: null },
    dal: { party: 'cus_lonestar', trip: null },
    harbor: { party: 'cus_portco', trip: null },
    typeId: 'acc_lumper',
  },
  {
    path: 'accessorials/carrier',
    party: 'Carrier',
    type: 'Accessorial',
    partyField: 'CarrierId',
    kc: { party: 'car_redriver', trip: 'trp_kc_carrier' },
    dal: { party: 'car_redriver', trip: 'trp_2001_a' },
    harbor: { party: 'car_harbor', trip: 'trp_h_1' },
    typeId: 'acc_lumper',
  },
  {
    path: 'credits/customer',
    party: 'Customer',
    type: 'Credit',
    partyField: 'CustomerId',
    kc: { party: 'cus_heartland', trip: null },
    dal: { party: 'cus_lonestar', trip: null },
    harbor: { party: 'cus_portco', trip: null },
    typeId: 'acc_detention',
  },
  {
    path: 'credits/carrier',
    party: 'Carrier',
    type: 'Credit',
    partyField: 'CarrierId',
    kc: { party: 'car_redriver', trip: 'trp_kc_carrier' },
    dal: { party: 'car_redriver', trip: 'trp_1990_a' },
    harbor: { party: 'car_harbor', trip: 'trp_h_1' },
    typeId: 'acc_detention',
  },
];

const idOf = (family: FamilyCase, where: 'kc' | 'dal' | 'harbor') => `acc_${family.path.replace('/', '_')}_${where}`;
const rateOf = (family: FamilyCase) => (family.type === 'Accessorial' ? 50 : -50);
const api = '/api/p/v1.0';

function bodyFor(family: FamilyCase, where: 'kc' | 'dal' = 'kc', extra: Record<string, unknown> = {}) {
  const place = family[where];
  return {
    [family.partyField]: place.party,
    ...(place.trip ? { TripId: place.trip } : {}),
    AccessorialTypeId: family.typeId,
    Quantity: 3,
    Rate: rateOf(family),
    Date: '2026-11-20T10:00:00Z',
    ...extra,
  };
}

async function seed(family: FamilyCase, where: 'kc' | 'dal' | 'harbor') {
  const place = family[where];
  const now = '2026-11-20T00:00:00.000Z';
  await t.db
    .insertInto('accessorials')
    .values({
      id: idOf(family, where),
      tenant_id: where === 'harbor' ? 'tn_harbor' : 'tn_prairie',
      subsidiary_id: where === 'harbor' ? 'sub_harbor_main' : `sub_${where}`,
      party: family.party,
      type: family.type,
      driver_id: family.party === 'Driver' ? place.party : null,
      customer_id: family.party === 'Customer' ? place.party : null,
      carrier_id: family.party === 'Carrier' ? place.party : null,
      trip_id: place.trip,
      accessorial_type_id: where === 'harbor' ? 'acc_harbor_chassis' : family.typeId,
      description: 'Seeded',
      quantity_hundredths: 100,
      rate: rateOf(family) * 100,
      amount: rateOf(family) * 100,
      currency: 840,
      date: now,
      external_id: null,
      driver_statement_number: null,
      carrier_statement_number: null,
      created_by: null,
      version: 1,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

beforeAll(async () => {
  const fixture = moneyFixture();
  const prairie = fixture.Tenants.find((x: any) => x.Id === 'tn_prairie');
  // A sub_kc load hauled by the carrier, for carrier records in sub_kc.
  prairie.Loads.push({
    Id: 'lod_kc_carrier',
    LoadNumber: 'L-KC-CAR',
    SubsidiaryId: 'sub_kc',
    Trips: [
      {
        Id: 'trp_kc_carrier',
        TripNumber: 'T-KC-CAR',
        CarrierId: 'car_redriver',
        Stops: [
          { Id: 'stp_kc_car_1', $type: 'appointment', StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: '2026-11-20T15:00:00Z' },
          { Id: 'stp_kc_car_2', $type: 'appointment', StopType: 'Delivery', ScheduleType: 'APPT', AppointmentDate: '2026-11-21T15:00:00Z' },
        ],
      },
    ],
  });
  t = await startTestApp({ fixture });
  for (const family of families) for (const where of ['kc', 'dal', 'harbor'] as const) await seed(family, where);
});
afterAll(async () => {
  await t?.close();
});

describeAuthCases(() => t, { method: 'GET', path: `${api}/accessorials/accessorial-types`, scope: 'accessorial:read' });

for (const family of families) {
  describeAuthCases(() => t, { method: 'POST', path: `${api}/${family.path}`, scope: 'accessorial:create', body: bodyFor(family), okStatus: 201 });
  describeAuthCases(() => t, {
    method: 'GET',
    path: `${api}/${family.path}/${idOf(family, 'kc')}`,
    scope: 'accessorial:read',
    otherTenantPath: `${api}/${family.path}/${idOf(family, 'harbor')}`,
    missingPath: `${api}/${family.path}/acc_nowhere`,
    otherSubsidiary: { as: 'sub_kc-all', path: `${api}/${family.path}/${idOf(family, 'dal')}` },
  });
  // The shared cases send no If-Match: reaching the precondition check (428) proves that
  // authentication and scope passed; the isolation cases are 404 before it.
  describeAuthCases(() => t, {
    method: 'PATCH',
    path: `${api}/${family.path}/${idOf(family, 'kc')}`,
    scope: 'accessorial:update',
    body: { Description: 'x' },
    okStatus: 428,
    otherTenantPath: `${api}/${family.path}/${idOf(family, 'harbor')}`,
    missingPath: `${api}/${family.path}/acc_nowhere`,
    otherSubsidiary: { as: 'sub_kc-all', path: `${api}/${family.path}/${idOf(family, 'dal')}` },
  });
}

const post = (path: string, body: unknown, as = 'prairie-integration') => t.api(`${api}/${path}`, { method: 'POST', as, body });
const patch = (path: string, body: unknown, ifMatch?: string, as = 'prairie-integration') =>
  t.api(`${api}/${path}`, { method: 'PATCH', as, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
const countByKey = async (key: string) => (await t.db.selectFrom('accessorials').select('id').where('external_id', '=', key).execute()).length;
let keys = 0;
const freshKey = () => `acc-key-${++keys}`;

describe.each(families)('POST /$path', (family) => {
  it('creates the record with Amount = Quantity × Rate, exact, with Location and ETag', async () => {
    const response = await post(family.path, bodyFor(family, 'dal', { Quantity: 3.5, Rate: family.type === 'Accessorial' ? 45.5 : -45.5 }));
    expect(response.status).toBe(201);
    const sign = family.type === 'Accessorial' ? 1 : -1;
    expect(response.body).toEqual({
      Id: expect.stringMatching(/^acc_/),
      Type: family.type,
      AppliesTo: family.party,
      AccessorialTypeId: family.typeId,
      AccessorialTypeName: family.typeId === 'acc_lumper' ? 'Lumper' : 'Detention',
      DriverId: family.party === 'Driver' ? family.dal.party : null,
      CustomerId: family.party === 'Customer' ? family.dal.party : null,
      CarrierId: family.party === 'Carrier' ? family.dal.party : null,
      TripId: family.dal.trip,
      Description: family.typeId === 'acc_lumper' ? 'Lumper' : 'Detention',
      Quantity: 3.5,
      Rate: { Amount: sign * 45.5, Currency: 840 },
      Amount: { Amount: sign * 159.25, Currency: 840 },
      Date: '2026-11-20T10:00:00.000Z',
      ExternalId: null,
      SettlementStatementNumber: null,
      CreatedBy: 'prairie-integration',
      CreatedAt: '2026-11-22T12:00:00.000Z',
      UpdatedAt: '2026-11-22T12:00:00.000Z',
    });
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/${family.path}/${response.body.Id}`);
    expect(response.headers.get('etag')).toBe(`"${response.body.Id}.1"`);
    const row = await t.db.selectFrom('accessorials').selectAll().where('id', '=', response.body.Id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ subsidiary_id: 'sub_dal', amount: sign * 15925, rate: sign * 4550, quantity_hundredths: 350 });
    expect((await t.api(`${api}/${family.path}/${response.body.Id}`, { as: 'sub_kc-all' })).status).toBe(404);
    expect((await t.api(`${api}/${family.path}/${response.body.Id}`, { as: 'sub_dal-all' })).status).toBe(200);
  });

  it('refuses a rate of the wrong sign, more than 2 decimals, or an inexact amount', async () => {
    const wrongSign = await post(family.path, bodyFor(family, 'kc', { Rate: -rateOf(family) }));
    expect(wrongSign.status).toBe(400);
    expect(Object.keys(wrongSign.body.Errors)).toEqual(['Rate']);
    const zero = await post(family.path, bodyFor(family, 'kc', { Rate: 0 }));
    expect(zero.status).toBe(400);
    const decimals = await post(family.path, bodyFor(family, 'kc', { Rate: rateOf(family) + 0.001 }));
    expect(decimals.status).toBe(400);
    expect(Object.keys(decimals.body.Errors)).toEqual(['Rate']);
    const inexact = await post(family.path, bodyFor(family, 'kc', { Quantity: 0.5, Rate: family.type === 'Accessorial' ? 0.01 : -0.01 }));
    expect(inexact.status).toBe(400);
    expect(Object.keys(inexact.body.Errors)).toEqual(['Quantity']);
  });

  it("answers another tenant's, another subsidiary's and a missing party with identical 404s", async () => {
    const missing = await post(family.path, bodyFor(family, 'kc', { [family.partyField]: 'nobody' }));
    const otherTenant = await post(family.path, bodyFor(family, 'kc', { [family.partyField]: family.harbor.party }));
    expect(missing.status).toBe(404);
    expect(otherTenant.text).toBe(missing.text);
    if (family.party !== 'Carrier') {
      const otherSubsidiary = await post(family.path, bodyFor(family, 'dal'), 'sub_kc-all');
      expect(otherSubsidiary.status).toBe(404);
      expect(otherSubsidiary.text).toBe(missing.text);
    } else {
      // Carriers are tenant-wide: the subsidiary boundary is the trip's.
      const otherSubsidiaryTrip = await post(family.path, bodyFor(family, 'dal'), 'sub_kc-all');
      expect(otherSubsidiaryTrip.status).toBe(404);
    }
  });

  it('replays the first record for the same ExternalId and refuses changed values', async () => {
    const key = freshKey();
    const first = await post(family.path, bodyFor(family, 'kc', { ExternalId: key, Description: 'First' }));
    const replay = await post(family.path, bodyFor(family, 'kc', { ExternalId: key, Description: 'Second', Date: '2026-11-20T04:00:00-06:00' }));
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const changed = await post(family.path, bodyFor(family, 'kc', { ExternalId: key, Quantity: 4 }));
    expect(changed.status).toBe(409);
    expect(changed.body.Type).toBe(`${t.apiUrl}/errors/Conflict/IdempotencyKeyReuse`);
    expect(changed.body.ConflictingFields).toEqual(['Quantity']);
    expect(await countByKey(key)).toBe(1);
  });
});

describe('accessorial and credit creates: rules beyond one family', () => {
  it('defaults Quantity to 1 and Description to the type name', async () => {
    const { Quantity: _q, ...body } = bodyFor(families[0]!);
    const response = await post('accessorials/driver', body);
    expect(response.body).toMatchObject({ Quantity: 1, Amount: { Amount: 50, Currency: 840 }, Description: 'Detention' });
  });

  it('keeps 0.1 + 0.2 exact', async () => {
    const a = await post('accessorials/customer', bodyFor(families[1]!, 'kc', { Quantity: 1, Rate: 0.1 }));
    const b = await post('accessorials/customer', bodyFor(families[1]!, 'kc', { Quantity: 1, Rate: 0.2 }));
    const c = await post('accessorials/customer', bodyFor(families[1]!, 'kc', { Quantity: 3, Rate: 0.1 }));
    expect(c.body.Amount).toEqual({ Amount: 0.3, Currency: 840 });
    const rows = await t.db.selectFrom('accessorials').select('amount').where('id', 'in', [a.body.Id, b.body.Id]).execute();
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(30);
  });

  it('checks the accessorial type: unknown or foreign 404, retired or not for this party 422 naming it', async () => {
    const body = bodyFor(families[0]!);
    expect((await post('accessorials/driver', { ...body, AccessorialTypeId: 'acc_nowhere' })).status).toBe(404);
    expect((await post('accessorials/driver', { ...body, AccessorialTypeId: 'acc_harbor_chassis' })).status).toBe(404);
    const retired = await post('accessorials/driver', { ...body, AccessorialTypeId: 'acc_layover_old' });
    expect(retired.status).toBe(422);
    expect(retired.body.Type).toMatch(/\/errors\/Unprocessable/);
    expect(Object.keys(retired.body.Errors)).toEqual(['AccessorialTypeId']);
    const notForDrivers = await post('accessorials/driver', { ...body, AccessorialTypeId: 'acc_lumper' });
    expect(notForDrivers.status).toBe(422);
    expect(Object.keys(notForDrivers.body.Errors)).toEqual(['AccessorialTypeId']);
  });

  it("requires the carrier's trip on carrier records", async () => {
    const { TripId: _trip, ...noTrip } = bodyFor(families[2]!);
    const missing = await post('accessorials/carrier', noTrip);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.Errors)).toEqual(['TripId']);
    const notHauled = await post('accessorials/carrier', { ...noTrip, TripId: 'trp_1001_a' });
    expect(notHauled.status).toBe(422);
    expect(Object.keys(notHauled.body.Errors)).toEqual(['TripId']);
    const created = await post('accessorials/carrier', bodyFor(families[2]!, 'dal'));
    expect(created.status).toBe(201);
    const row = await t.db.selectFrom('accessorials').select('subsidiary_id').where('id', '=', created.body.Id).executeTakeFirstOrThrow();
    expect(row.subsidiary_id).toBe('sub_dal');
  });

  it('keeps idempotency keys per route family', async () => {
    const key = freshKey();
    const accessorial = await post('accessorials/customer', bodyFor(families[1]!, 'kc', { ExternalId: key }));
    const credit = await post('credits/customer', bodyFor(families[3]!, 'kc', { ExternalId: key }));
    expect([accessorial.status, credit.status]).toEqual([201, 201]);
    expect(credit.headers.get('idempotent-replayed')).toBeNull();
    expect(await countByKey(key)).toBe(2);
  });

  it('makes exactly one record from 50 parallel identical creates, and every caller gets it', async () => {
    const key = freshKey();
    const body = bodyFor(families[2]!, 'dal', { ExternalId: key });
    const responses = await Promise.all(Array.from({ length: 50 }, () => post('accessorials/carrier', body)));
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(201));
    expect(new Set(responses.map((r) => r.body.Id)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(49);
    expect(await countByKey(key)).toBe(1);
  });
});

describe('503 when the write cannot be confirmed', () => {
  type Execute = (fn: (trx: unknown) => Promise<unknown>) => Promise<unknown>;
  /** Replaces the app's transaction runner for the next request; `fault` decides what goes wrong. */
  function injectCommitFault(fault: (execute: Execute, fn: (trx: unknown) => Promise<unknown>) => Promise<unknown>) {
    const db = t.db as unknown as { transaction: () => { execute: Execute } };
    db.transaction = () => {
      const builder = Kysely.prototype.transaction.call(t.db) as unknown as { execute: Execute };
      return { execute: (fn) => fault(builder.execute.bind(builder), fn) };
    };
    return () => {
      delete (db as { transaction?: unknown }).transaction;
    };
  }

  it('answers 503 when the commit is not acknowledged; the identical retry returns the record without duplicating', async () => {
    const key = freshKey();
    const body = bodyFor(families[0]!, 'kc', { ExternalId: key });
    // The commit reaches the database but its answer is lost (a dropped connection).
    const restore = injectCommitFault(async (execute, fn) => {
      await execute(fn);
      throw new Error('Connection terminated unexpectedly');
    });
    let failed;
    try {
      failed = await post('accessorials/driver', body);
    } finally {
      restore();
    }
    expect(failed.status).toBe(503);
    expect(failed.body.Type).toBe(`${t.apiUrl}/errors/WriteNotConfirmed`);
    expect(failed.body.Detail).toMatch(/may exist/);
    expect(failed.body.Detail).toMatch(/same ExternalId/);
    expect(failed.text).not.toMatch(/Connection terminated/);
    expect(await countByKey(key)).toBe(1);

    const retry = await post('accessorials/driver', body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await countByKey(key)).toBe(1);
  });

  it('answers 503 when the commit fails; the retry then creates the record once', async () => {
    const key = freshKey();
    const body = bodyFor(families[3]!, 'kc', { ExternalId: key });
    const restore = injectCommitFault((execute, fn) =>
      execute(async (trx) => {
        await fn(trx);
        throw new Error('could not serialize access');
      }),
    );
    let failed;
    try {
      failed = await post('credits/customer', body);
    } finally {
      restore();
    }
    expect(failed.status).toBe(503);
    expect(await countByKey(key)).toBe(0);

    const retry = await post('credits/customer', body);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('credits/customer', body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.Id).toBe(retry.body.Id);
    expect(await countByKey(key)).toBe(1);
  });
});

describe('GET /{accessorials|credits}/{party}/{id}', () => {
  it('returns the record with its ETag', async () => {
    const response = await t.api(`${api}/credits/carrier/${idOf(families[4]!, 'kc')}`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${idOf(families[4]!, 'kc')}.1"`);
    expect(response.body).toMatchObject({ Type: 'Credit', AppliesTo: 'Carrier', Rate: { Amount: -50, Currency: 840 }, TripId: 'trp_kc_carrier' });
  });

  it('answers an id addressed through another family with 404', async () => {
    const driverAccessorial = idOf(families[0]!, 'kc');
    for (const path of ['accessorials/customer', 'accessorials/carrier', 'credits/customer', 'credits/carrier', 'credits/driver']) {
      const response = await t.api(`${api}/${path}/${driverAccessorial}`, { as: 'prairie-integration' });
      expect(response.status, path).toBe(404);
    }
    const customerCredit = idOf(families[3]!, 'kc');
    expect((await t.api(`${api}/accessorials/customer/${customerCredit}`, { as: 'prairie-integration' })).status).toBe(404);
    expect((await patch(`accessorials/customer/${customerCredit}`, { Description: 'x' }, '*')).status).toBe(404);
  });
});

describe('PATCH /{accessorials|credits}/{party}/{id}', () => {
  it('merges the sent fields, recomputes Amount and moves the ETag', async () => {
    const created = await post('accessorials/driver', bodyFor(families[0]!));
    t.clock.advance(1000);
    const response = await patch(`accessorials/driver/${created.body.Id}`, { Quantity: 2.25, Description: 'Waited' }, created.headers.get('etag')!);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...created.body,
      Quantity: 2.25,
      Description: 'Waited',
      Amount: { Amount: 112.5, Currency: 840 },
      UpdatedAt: '2026-11-22T12:00:01.000Z',
    });
    expect(response.headers.get('etag')).toBe(`"${created.body.Id}.2"`);
  });

  it('requires If-Match (428), refuses a stale one (412) and accepts *', async () => {
    const created = await post('credits/carrier', bodyFor(families[4]!, 'dal'));
    const path = `credits/carrier/${created.body.Id}`;
    expect((await patch(path, { Rate: -10 })).status).toBe(428);
    expect((await patch(path, { Rate: -10 }, `"${created.body.Id}.7"`)).status).toBe(412);
    expect((await patch(path, { Rate: -10 }, `W/${created.headers.get('etag')}`)).status).toBe(412);
    const ok = await patch(path, { Rate: -10 }, '*');
    expect(ok.status).toBe(200);
    expect(ok.body.Amount).toEqual({ Amount: -30, Currency: 840 });
    expect((await patch(path, { Rate: -11 }, created.headers.get('etag')!)).status).toBe(412);
  });

  it('validates like the create: sign per family, at least one field, retired types', async () => {
    const created = await post('credits/customer', bodyFor(families[3]!));
    const path = `credits/customer/${created.body.Id}`;
    const sign = await patch(path, { Rate: 10 }, '*');
    expect(sign.status).toBe(400);
    expect(Object.keys(sign.body.Errors)).toEqual(['Rate']);
    const empty = await patch(path, {}, '*');
    expect(empty.status).toBe(400);
    const retired = await patch(`accessorials/driver/${idOf(families[0]!, 'kc')}`, { AccessorialTypeId: 'acc_layover_old' }, '*');
    expect(retired.status).toBe(422);
    expect(Object.keys(retired.body.Errors)).toEqual(['AccessorialTypeId']);
  });

  it('refuses a record on a driver settlement statement with 409', async () => {
    const created = await post('accessorials/driver', bodyFor(families[0]!));
    await t.db.updateTable('accessorials').set({ driver_statement_number: 80001 }).where('id', '=', created.body.Id).execute();
    const response = await patch(`accessorials/driver/${created.body.Id}`, { Description: 'x' }, '*');
    expect(response.status).toBe(409);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
    expect(response.body.Detail).toMatch(/correcting credit or deduction/);
    const read = await t.api(`${api}/accessorials/driver/${created.body.Id}`, { as: 'prairie-integration' });
    expect(read.body.SettlementStatementNumber).toBe(80001);
  });

  it('refuses a record on a processed carrier statement with 409, but not one on a deleted statement', async () => {
    const created = await post('accessorials/carrier', bodyFor(families[2]!, 'dal'));
    await t.db.updateTable('accessorials').set({ carrier_statement_number: 70001 }).where('id', '=', created.body.Id).execute();
    const response = await patch(`accessorials/carrier/${created.body.Id}`, { Description: 'x' }, '*');
    expect(response.status).toBe(409);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/Conflict/SettledRecord`);
    await t.db.updateTable('accessorials').set({ carrier_statement_number: 70003 }).where('id', '=', created.body.Id).execute();
    expect((await patch(`accessorials/carrier/${created.body.Id}`, { Description: 'x' }, '*')).status).toBe(200);
  });

  it('needs accessorial:update', async () => {
    const response = await patch(`accessorials/driver/${idOf(families[0]!, 'kc')}`, { Description: 'x' }, '*', 'harbor-integration');
    expect(response.status).toBe(403);
  });
});

describe('GET /accessorials/accessorial-types', () => {
  it("lists the tenant's current types by name", async () => {
    const response = await t.api(`${api}/accessorials/accessorial-types`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      Items: [
        { Id: 'acc_detention', Name: 'Detention', AppliesTo: ['Driver', 'Customer', 'Carrier'], IsDeleted: false },
        { Id: 'acc_lumper', Name: 'Lumper', AppliesTo: ['Customer', 'Carrier'], IsDeleted: false },
      ],
      Page: 0,
      PageSize: 50,
      Total: 2,
      NextCursor: null,
    });
  });

  it('adds soft-deleted types with includeDeleted=true', async () => {
    const response = await t.api(`${api}/accessorials/accessorial-types?includeDeleted=true`, { as: 'prairie-integration' });
    expect(response.body.Items.map((x: any) => [x.Id, x.IsDeleted])).toEqual([
      ['acc_detention', false],
      ['acc_layover_old', true],
      ['acc_lumper', false],
    ]);
    const off = await t.api(`${api}/accessorials/accessorial-types?includeDeleted=false`, { as: 'prairie-integration' });
    expect(off.body.Total).toBe(2);
  });

  it('shows tenant-wide types to subsidiary-bound clients and only their own tenant', async () => {
    expect((await t.api(`${api}/accessorials/accessorial-types`, { as: 'sub_dal-all' })).body.Total).toBe(2);
    const harbor = await t.api(`${api}/accessorials/accessorial-types`, { as: 'harbor-integration' });
    expect(harbor.body.Items.map((x: any) => x.Id)).toEqual(['acc_harbor_chassis']);
  });

  it('refuses includeDeleted other than true or false, and pages', async () => {
    expect((await t.api(`${api}/accessorials/accessorial-types?includeDeleted=yes`, { as: 'prairie-integration' })).status).toBe(400);
    const page = await t.api(`${api}/accessorials/accessorial-types?includeDeleted=true&Page=1&PageSize=2`, { as: 'prairie-integration' });
    expect(page.body).toMatchObject({ Items: [{ Id: 'acc_lumper' }], Page: 1, PageSize: 2, Total: 3 });
  });
});

describe('OpenAPI document', () => {
  it('describes the money routes and their shapes', async () => {
    const doc = (await t.api('/openapi.json')).body;
    for (const path of [
      '/api/p/v{version}/accessorials/driver',
      '/api/p/v{version}/credits/carrier/{id}',
      '/api/p/v{version}/accessorials/accessorial-types',
      '/api/p/v{version}/credits/driver/{deductionId}',
      '/api/p/v{version}/deductions/{id}',
      '/api/p/v{version}/carrier-settlement-statements/{number}',
    ]) {
      expect(doc.paths, path).toHaveProperty([path]);
    }
    expect(doc.components.schemas).toHaveProperty('Accessorial');
    expect(doc.components.schemas).toHaveProperty('Deduction');
    expect(doc.components.schemas).toHaveProperty('CarrierSettlementStatement');
    const create = doc.paths['/api/p/v{version}/accessorials/carrier'].post;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['201', '409', '503']));
    expect(create.security).toEqual([{ oauth2: ['accessorial:create'] }, { bearerAuth: [] }]);
    expect(Object.keys(create.responses['201'].headers)).toEqual(expect.arrayContaining(['ETag', 'Location', 'Idempotent-Replayed']));
    const update = doc.paths['/api/p/v{version}/credits/customer/{id}'].patch;
    expect(Object.keys(update.responses)).toEqual(expect.arrayContaining(['200', '409', '412', '428']));
    expect(update.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'If-Match', required: true }));
    expect(update.responses['200'].headers).toHaveProperty('ETag');
  });
});
