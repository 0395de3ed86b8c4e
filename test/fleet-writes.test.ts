import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialectOf } from '../db/create-db.js';
import { createCaller } from '../core/router.js';
import { startTestApp, testFixture, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { bareTenant, loadInto, problemsOf } from './support/master-data-fixture.js';

/**
 * Creating and patching drivers, trucks and trailers (docs/api-rules.md#drivers-trucks-and-trailers,
 * docs/api-rules.md#external-ids): the rules every kind shares run once per kind; VINs, numbers,
 * HireDate and trailer Type have their own cases.
 */

let t: TestApp;
beforeAll(async () => {
  const fixture = testFixture();
  const prairie = fixture.Tenants.find((tenant: { Id: string }) => tenant.Id === 'tn_prairie');
  const harbor = fixture.Tenants.find((tenant: { Id: string }) => tenant.Id === 'tn_harbor');
  // Another tenant's trailer, for the isolation cases.
  harbor.Trailers.push({ Id: 'trl_h9', TrailerNumber: 'H9', SubsidiaryId: 'sub_harbor_main' });
  // Assets only on a Delivered trip: they may be retired.
  prairie.Drivers.push({ Id: 'drv_done', FirstName: 'Dee', LastName: 'Done', Type: 'COMPANY', SubsidiaryId: 'sub_kc' });
  prairie.Trucks.push({ Id: 'trk_done', TruckNumber: 'DONE-1', SubsidiaryId: 'sub_kc' });
  prairie.Trailers.push({ Id: 'trl_done', TrailerNumber: 'DONE-2', SubsidiaryId: 'sub_kc' });
  const delivered = prairie.Loads.flatMap((load: any) => load.Trips).find((trip: any) => trip.Id === 'trp_1990_a');
  Object.assign(delivered, { DriverId: 'drv_done', TruckId: 'trk_done', TrailerId: 'trl_done' });
  t = await startTestApp({ fixture });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const KC = 'sub_kc-all';

interface Kind {
  plural: 'drivers' | 'trucks' | 'trailers';
  event: string;
  scopes: { create: string; update: string };
  /** A valid create body, different on every call. */
  body: () => Record<string, unknown>;
  /** Every writable field of the kind set, as the GET reads them back. */
  full: () => Record<string, unknown>;
  required: string;
  /** A nullable field and a value for it. */
  nullable: [string, unknown];
  /** On an InTransit trip (fixture). */
  busy: string;
  /** Only on a Delivered trip. */
  done: string;
  /** Another subsidiary's (sub_dal), another tenant's. */
  dal: string;
  other: string;
  number?: string;
  ownerOperator: boolean;
}

let serial = 0;
const next = () => `${++serial}`;

const KINDS: Kind[] = [
  {
    plural: 'drivers',
    event: 'driver',
    scopes: { create: 'driver:create', update: 'driver:update' },
    body: () => ({ FirstName: `Test${next()}`, LastName: 'Driver', Type: 'COMPANY' }),
    full: () => ({
      FirstName: 'Rosa',
      LastName: `Diaz${next()}`,
      Type: 'OWNER_OPERATOR',
      Phone: '+1 785 555 0142',
      Email: 'rosa.diaz@example.com',
      OwnerOperatorId: 'oo_mesa',
      LicenseNumber: 'K01-234-567',
      LicenseState: 'KS',
      HireDate: '2024-03-18',
      SubsidiaryId: 'sub_dal',
    }),
    required: 'LastName',
    nullable: ['Phone', '+1 316 555 0100'],
    busy: 'drv_ana',
    done: 'drv_done',
    dal: 'drv_ben',
    other: 'drv_hal',
    ownerOperator: true,
  },
  {
    plural: 'trucks',
    event: 'truck',
    scopes: { create: 'truck:create', update: 'truck:update' },
    body: () => ({ TruckNumber: `T-${next()}` }),
    full: () => ({
      TruckNumber: `FULL-${next()}`,
      Vin: '1FUJGLDR5CLBP8834',
      Make: 'Freightliner',
      Model: 'Cascadia',
      Year: 2022,
      LicensePlate: 'KS 4411',
      LicenseState: 'KS',
      OwnerOperatorId: 'oo_mesa',
      SubsidiaryId: 'sub_dal',
    }),
    required: 'TruckNumber',
    nullable: ['Make', 'Volvo'],
    busy: 'trk_101',
    done: 'trk_done',
    dal: 'trk_202',
    other: 'trk_h1',
    number: 'TruckNumber',
    ownerOperator: true,
  },
  {
    plural: 'trailers',
    event: 'trailer',
    scopes: { create: 'trailer:create', update: 'trailer:update' },
    body: () => ({ TrailerNumber: `TR-${next()}` }),
    full: () => ({
      TrailerNumber: `FULL-${next()}`,
      Type: 'Reefer',
      CompanyOwnedAsset: false,
      Vin: '1JJV532D8KL123456',
      LicensePlate: 'TX 88A',
      LicenseState: 'TX',
      SubsidiaryId: 'sub_dal',
    }),
    required: 'TrailerNumber',
    nullable: ['LicensePlate', 'KS 100'],
    busy: 'trl_5301',
    done: 'trl_done',
    dal: 'trl_5302',
    other: 'trl_h9',
    number: 'TrailerNumber',
    ownerOperator: false,
  },
];

const errorFields = (response: ApiResponse) => Object.keys(response.body?.Errors ?? {});
const eventsOf = async (type: string, id: string) => {
  const rows = await t.db.selectFrom('outbox').select(['type', 'subsidiary_id', 'payload']).where('type', '=', type).execute();
  return rows.map((row) => ({ ...row, data: JSON.parse(String(row.payload)) })).filter((row) => row.data.Id === id);
};

/** Runs a request that must be refused and asserts it left the database exactly as it was. */
async function refused(request: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const kind = dialectOf(t.db) === 'postgres' ? 'postgres' : 'sqlite';
  const before = await snapshotDatabase(t.db, kind);
  const response = await request();
  expect(response.status, response.text).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}

for (const kind of KINDS) {
  const path = `${base}/${kind.plural}`;
  const create = (body: unknown, as = ALL, headers: Record<string, string> = {}) => t.api(path, { method: 'POST', as, body, headers });
  const get = (id: string, as = ALL) => t.api(`${path}/${encodeURIComponent(id)}`, { as });
  const patch = (id: string, body: unknown, ifMatch: string | undefined, as = ALL) =>
    t.api(`${path}/${encodeURIComponent(id)}`, { method: 'PATCH', as, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
  const created = async (body: Record<string, unknown> = kind.body(), as = ALL) => {
    const response = await create(body, as);
    expect(response.status, response.text).toBe(201);
    return { id: response.body.Id as string, etag: response.headers.get('etag')!, body: response.body };
  };

  describeAuthCases(() => t, { method: 'POST', path, scope: kind.scopes.create, body: kind.body(), okStatus: 201 });
  // The shared cases send no If-Match: reaching the precondition check (428) proves that
  // authentication and scope passed; the isolation cases are 404 before it.
  describeAuthCases(() => t, {
    method: 'PATCH',
    path: `${path}/${kind.busy}`,
    scope: kind.scopes.update,
    body: { [kind.nullable[0]]: kind.nullable[1] },
    okStatus: 428,
    otherTenantPath: `${path}/${kind.other}`,
    missingPath: `${path}/nowhere`,
    otherSubsidiary: { as: KC, path: `${path}/${kind.dal}` },
  });

  describe(`POST /${kind.plural}`, () => {
    it('answers 201 with the record as its GET reads it, Location and ETag; Active, no ExternalIds by default', async () => {
      const body = kind.body();
      const response = await create(body);
      expect(response.status, response.text).toBe(201);
      const id = response.body.Id as string;
      expect(response.headers.get('location')).toBe(`${path}/${id}`);
      expect(response.headers.get('etag')).toBe(`"${id}.1"`);
      expect(response.body).toMatchObject({ ...body, Status: 'Active', ExternalIds: {}, SubsidiaryId: null, CreatedAt: '2026-11-22T12:00:00.000Z' });
      const read = await get(id);
      expect(read.body).toEqual(response.body);
      expect(read.headers.get('etag')).toBe(`"${id}.1"`);
    });

    it(`stores every field, and emits ${kind.event}.created routed by the subsidiary`, async () => {
      const body = { ...kind.full(), ExternalIds: { tms: `FULL-${next()}` }, Status: 'Inactive' };
      const { id, body: answer } = await created(body);
      expect(answer).toMatchObject(body);
      expect((await get(id)).body).toEqual(answer);
      const events = await eventsOf(`${kind.event}.created`, id);
      expect(events).toEqual([expect.objectContaining({ subsidiary_id: 'sub_dal', data: answer })]);
    });

    it('routes the created event of a record without a subsidiary to every subscription (subsidiary null)', async () => {
      const { id } = await created();
      expect((await eventsOf(`${kind.event}.created`, id)).map((event) => event.subsidiary_id)).toEqual([null]);
    });

    it("creates a subsidiary-bound client's record in its own subsidiary; naming another or an unknown one is 404", async () => {
      const { body } = await created(kind.body(), KC);
      expect(body.SubsidiaryId).toBe('sub_kc');
      expect((await created({ ...kind.body(), SubsidiaryId: 'sub_kc' }, KC)).body.SubsidiaryId).toBe('sub_kc');
      const other = await refused(() => create({ ...kind.body(), SubsidiaryId: 'sub_dal' }, KC));
      expect(other.status).toBe(404);
      expect(other.body.Detail).toMatch(/Subsidiary/);
      const unknown = await refused(() => create({ ...kind.body(), SubsidiaryId: 'sub_nowhere' }));
      expect(unknown.status).toBe(404);
      const harbor = await refused(() => create({ ...kind.body(), SubsidiaryId: 'sub_harbor_main' }));
      expect(harbor.status).toBe(404);
    });

    it('refuses unknown properties, a missing required field and a wrong Status with 400, changing nothing', async () => {
      const unknown = await refused(() => create({ ...kind.body(), Colour: 'red' }));
      expect(unknown.status).toBe(400);
      const missing = await refused(() => create({ ...kind.body(), [kind.required]: undefined }));
      expect(missing.status).toBe(400);
      expect(errorFields(missing)).toContain(kind.required);
      const blank = await refused(() => create({ ...kind.body(), [kind.required]: '   ' }));
      expect(errorFields(blank)).toContain(kind.required);
      const status = await refused(() => create({ ...kind.body(), Status: 'Retired' }));
      expect(errorFields(status)).toContain('Status');
    });

    if (kind.ownerOperator) {
      it('refuses an OwnerOperatorId the caller cannot see with 404 naming it', async () => {
        const unknown = await refused(() => create({ ...kind.body(), OwnerOperatorId: 'oo_nowhere' }));
        expect(unknown.status).toBe(404);
        expect(unknown.body.Detail).toMatch(/OwnerOperator/);
        // oo_mesa is sub_dal's: a sub_kc client cannot name it.
        expect((await refused(() => create({ ...kind.body(), OwnerOperatorId: 'oo_mesa' }, KC))).status).toBe(404);
      });
    } else {
      it('has no OwnerOperatorId (400 as an unknown property)', async () => {
        expect((await refused(() => create({ ...kind.body(), OwnerOperatorId: 'oo_mesa' }))).status).toBe(400);
      });
    }

    it('refuses an ExternalIds pair another record of the kind holds with 409 naming the pair; other kinds may hold it', async () => {
      const pair = { shared: `P-${next()}` };
      await created({ ...kind.body(), ExternalIds: pair });
      const duplicate = await refused(() => create({ ...kind.body(), ExternalIds: { own: `Q-${next()}`, ...pair } }));
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
      expect(duplicate.body.Detail).toContain(`shared:${pair.shared}`);
      const otherKind = KINDS.find((other) => other !== kind)!;
      const elsewhere = await t.api(`${base}/${otherKind.plural}`, { method: 'POST', as: ALL, body: { ...otherKind.body(), ExternalIds: pair } });
      expect(elsewhere.status).toBe(201);
    });

    it('refuses more than 10 ExternalIds and a malformed source or id with 400', async () => {
      const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, 'x']));
      expect(errorFields(await refused(() => create({ ...kind.body(), ExternalIds: eleven })))).toContain('ExternalIds');
      expect((await refused(() => create({ ...kind.body(), ExternalIds: { 'bad source': 'x' } }))).status).toBe(400);
      expect((await refused(() => create({ ...kind.body(), ExternalIds: { tms: 'has space' } }))).status).toBe(400);
    });

    it('takes a 50-character source and a 128-character id; 51 or 129 are 400 naming ExternalIds, on create and on PATCH', async () => {
      // docs/api-rules.md#external-ids: a source is 1 to 50 characters, an id 1 to 128.
      const source = 's'.repeat(50);
      const idOf = (length: number) => `${next()}-`.padEnd(length, 'x');
      const longest = idOf(128);
      const { id, etag } = await created({ ...kind.body(), ExternalIds: { [source]: longest } });
      expect((await get(id)).body.ExternalIds).toEqual({ [source]: longest });
      const tooLong = [{ [`${source}s`]: idOf(10) }, { [source]: idOf(129) }];
      for (const ExternalIds of tooLong) {
        const label = `${Object.keys(ExternalIds)[0]!.length}/${Object.values(ExternalIds)[0]!.length}`;
        expect(errorFields(await refused(() => create({ ...kind.body(), ExternalIds }))).some((field) => field.startsWith('ExternalIds')), label).toBe(true);
        expect(errorFields(await refused(() => patch(id, { ExternalIds }, etag))).some((field) => field.startsWith('ExternalIds')), label).toBe(true);
      }
      const replaced = idOf(128);
      const patched = await patch(id, { ExternalIds: { [source]: replaced } }, etag);
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.ExternalIds).toEqual({ [source]: replaced });
    });

    it('replays a create sent again with the same Idempotency-Key', async () => {
      const body = kind.body();
      const key = `fleet-${kind.plural}-${next()}`;
      const first = await create(body, ALL, { 'Idempotency-Key': key });
      expect(first.status).toBe(201);
      const again = await create(body, ALL, { 'Idempotency-Key': key });
      expect(again.status).toBe(201);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.Id).toBe(first.body.Id);
    });
  });

  describe(`GET /${kind.plural} and POST /${kind.plural}/search filters`, () => {
    it('ExternalId=source:id finds the record holding the pair, in scope only', async () => {
      const value = `F-${next()}`;
      const { id } = await created({ ...kind.body(), SubsidiaryId: 'sub_dal', ExternalIds: { finder: value } });
      const listed = await t.api(`${path}?ExternalId=${encodeURIComponent(`finder:${value}`)}`, { as: ALL });
      expect(listed.status).toBe(200);
      expect(listed.body.Items.map((item: { Id: string }) => item.Id)).toEqual([id]);
      expect(listed.body.Total).toBe(1);
      const searched = await t.api(`${path}/search`, { method: 'POST', as: ALL, body: { ExternalId: `finder:${value}` } });
      expect(searched.body.Items.map((item: { Id: string }) => item.Id)).toEqual([id]);
      const otherScope = await t.api(`${path}?ExternalId=${encodeURIComponent(`finder:${value}`)}`, { as: KC });
      expect(otherScope.body).toMatchObject({ Items: [], Total: 0 });
      const none = await t.api(`${path}?ExternalId=finder:nothing`, { as: ALL });
      expect(none.body).toMatchObject({ Items: [], Total: 0 });
      expect(errorFields(await t.api(`${path}?ExternalId=no-colon`, { as: ALL }))).toContain('ExternalId');
    });

    it('Status (GET) and Statuses (search) select Active or Inactive records', async () => {
      const { id } = await created({ ...kind.body(), Status: 'Inactive' });
      const inactive = await t.api(`${path}?Status=Inactive&PageSize=100`, { as: ALL });
      const inactiveIds = inactive.body.Items.map((item: { Id: string; Status: string }) => item.Id);
      expect(inactiveIds).toContain(id);
      expect(inactive.body.Items.every((item: { Status: string }) => item.Status === 'Inactive')).toBe(true);
      const active = await t.api(`${path}/search`, { method: 'POST', as: ALL, body: { Statuses: ['Active'], PageSize: 100 } });
      expect(active.body.Items.map((item: { Id: string }) => item.Id)).not.toContain(id);
      expect(active.body.Items.map((item: { Id: string }) => item.Id)).toContain(kind.busy);
      const both = await t.api(`${path}?Status=Active,Inactive&PageSize=100`, { as: ALL });
      expect(both.body.Total).toBe(inactive.body.Total + active.body.Total);
      expect((await t.api(`${path}/search`, { method: 'POST', as: ALL, body: { Statuses: [] } })).status).toBe(400);
      expect((await t.api(`${path}?Status=Retired`, { as: ALL })).status).toBe(400);
    });
  });

  describe(`PATCH /${kind.plural}/{id}`, () => {
    it(`merges the patch: a new ETag, other fields unchanged, ${kind.event}.changed with the diff`, async () => {
      const { id, etag, body: before } = await created({ ...kind.full(), SubsidiaryId: 'sub_kc' });
      const [field, value] = kind.nullable;
      t.clock.set('2026-11-22T12:30:00Z');
      const response = await patch(id, { [field]: value }, etag);
      t.clock.set('2026-11-22T12:00:00Z');
      expect(response.status, response.text).toBe(200);
      expect(response.headers.get('etag')).toBe(`"${id}.2"`);
      expect(response.body).toEqual({ ...before, [field]: value, UpdatedAt: '2026-11-22T12:30:00.000Z' });
      expect((await get(id)).body).toEqual(response.body);
      const events = await eventsOf(`${kind.event}.changed`, id);
      expect(events).toHaveLength(1);
      expect(events[0]!.subsidiary_id).toBe('sub_kc');
      expect(events[0]!.data.diff.changes).toEqual([{ Field: field, From: before[field], To: value }]);
    });

    it('clears a nullable field with null; null on a required field or an empty patch is 400', async () => {
      const [field, value] = kind.nullable;
      const { id, etag } = await created({ ...kind.body(), [field]: value });
      const cleared = await patch(id, { [field]: null }, etag);
      expect(cleared.status, cleared.text).toBe(200);
      expect(cleared.body[field]).toBeNull();
      const etag2 = cleared.headers.get('etag')!;
      expect(errorFields(await refused(() => patch(id, { [kind.required]: null }, etag2)))).toContain(kind.required);
      expect(errorFields(await refused(() => patch(id, { Status: null }, etag2)))).toContain('Status');
      expect((await refused(() => patch(id, {}, etag2))).status).toBe(400);
      expect((await refused(() => patch(id, { Colour: 'red' }, etag2))).status).toBe(400);
    });

    it('needs If-Match: 428 without, 412 when stale, * matches; a missing record is 404', async () => {
      const { id, etag } = await created();
      const body = { [kind.nullable[0]]: kind.nullable[1] };
      const without = await refused(() => patch(id, body, undefined));
      expect(without.status).toBe(428);
      const stale = await refused(() => patch(id, body, `"${id}.9"`));
      expect(stale.status).toBe(412);
      expect((await refused(() => patch('nowhere', body, etag))).status).toBe(404);
      const star = await patch(id, body, '*');
      expect(star.status).toBe(200);
      expect(star.headers.get('etag')).toBe(`"${id}.2"`);
    });

    it('a patch that changes nothing keeps the ETag and emits nothing', async () => {
      const [field, value] = kind.nullable;
      const { id, etag, body } = await created({ ...kind.body(), [field]: value, ExternalIds: { same: `S-${next()}` } });
      const response = await patch(id, { [field]: value, ExternalIds: body.ExternalIds, Status: 'Active' }, etag);
      expect(response.status).toBe(200);
      expect(response.headers.get('etag')).toBe(etag);
      expect(response.body).toEqual(body);
      expect(await eventsOf(`${kind.event}.changed`, id)).toEqual([]);
    });

    it('merges ExternalIds key by key: null removes a source and releases its pair', async () => {
      const keep = `K-${next()}`;
      const drop = `D-${next()}`;
      const { id, etag } = await created({ ...kind.body(), ExternalIds: { keep, drop } });
      const response = await patch(id, { ExternalIds: { drop: null, added: 'A-1' } }, etag);
      expect(response.status, response.text).toBe(200);
      expect(response.body.ExternalIds).toEqual({ added: 'A-1', keep });
      const changes = (await eventsOf(`${kind.event}.changed`, id))[0]!.data.diff.changes;
      expect(changes).toEqual(
        expect.arrayContaining([
          { Field: 'ExternalIds.drop', From: drop, To: null },
          { Field: 'ExternalIds.added', From: null, To: 'A-1' },
        ]),
      );
      // The released pair is free for another record; the kept one is not.
      expect((await create({ ...kind.body(), ExternalIds: { drop } })).status).toBe(201);
      expect((await refused(() => create({ ...kind.body(), ExternalIds: { keep } }))).status).toBe(409);
    });

    it('refuses a pair another record holds (409 naming it) and a merge past 10 entries (400)', async () => {
      const taken = `T-${next()}`;
      await created({ ...kind.body(), ExternalIds: { taken } });
      const { id, etag } = await created({ ...kind.body(), ExternalIds: Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`s${i}`, `v${next()}`])) });
      const duplicate = await refused(() => patch(id, { ExternalIds: { taken } }, etag));
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
      expect(duplicate.body.Detail).toContain(`taken:${taken}`);
      const tooMany = await refused(() => patch(id, { ExternalIds: { a: '1', b: '2' } }, etag));
      expect(errorFields(tooMany)).toContain('ExternalIds');
    });

    it('retires a record with Status Inactive, and activates it again', async () => {
      const { id, etag } = await created();
      const retired = await patch(id, { Status: 'Inactive' }, etag);
      expect(retired.status, retired.text).toBe(200);
      expect(retired.body.Status).toBe('Inactive');
      expect((await eventsOf(`${kind.event}.changed`, id))[0]!.data.diff.changes).toEqual([{ Field: 'Status', From: 'Active', To: 'Inactive' }]);
      const again = await patch(id, { Status: 'Active' }, retired.headers.get('etag')!);
      expect(again.body.Status).toBe('Active');
    });

    it('refuses to retire a record on a trip neither Delivered nor Cancelled (409 Conflict/InUse); a Delivered trip does not hold it', async () => {
      const busy = await get(kind.busy);
      const inUse = await refused(() => patch(kind.busy, { Status: 'Inactive' }, busy.headers.get('etag')!));
      expect(inUse.status).toBe(409);
      expect(inUse.body.Type).toMatch(/\/errors\/Conflict\/InUse$/);
      // Other fields of a busy record may still change.
      const [field, value] = kind.nullable;
      expect((await patch(kind.busy, { [field]: value }, busy.headers.get('etag')!)).status).toBe(200);
      const done = await get(kind.done);
      const retired = await patch(kind.done, { Status: 'Inactive' }, done.headers.get('etag')!);
      expect(retired.status, retired.text).toBe(200);
      expect(retired.body.Status).toBe('Inactive');
    });

    it('moves a record between subsidiaries (tenant-wide client), announcing it to both; a bound client cannot move it', async () => {
      const { id, etag } = await created({ ...kind.body(), SubsidiaryId: 'sub_kc' });
      const refusedMove = await refused(() => patch(id, { SubsidiaryId: 'sub_dal' }, etag, KC));
      expect(refusedMove.status).toBe(404);
      expect((await refused(() => patch(id, { SubsidiaryId: null }, etag, KC))).status).toBe(404);
      expect((await refused(() => patch(id, { SubsidiaryId: 'sub_nowhere' }, etag))).status).toBe(404);
      const moved = await patch(id, { SubsidiaryId: 'sub_dal' }, etag);
      expect(moved.status, moved.text).toBe(200);
      expect(moved.body.SubsidiaryId).toBe('sub_dal');
      const routes = (await eventsOf(`${kind.event}.changed`, id)).map((event) => event.subsidiary_id).sort();
      expect(routes).toEqual(['sub_dal', 'sub_kc']);
      expect((await get(id, KC)).status).toBe(404);
    });

    if (kind.ownerOperator) {
      it('refuses an OwnerOperatorId the caller cannot see (404) and clears it with null', async () => {
        const { id, etag } = await created({ ...kind.body(), OwnerOperatorId: 'oo_mesa' });
        expect((await refused(() => patch(id, { OwnerOperatorId: 'oo_nowhere' }, etag))).status).toBe(404);
        const cleared = await patch(id, { OwnerOperatorId: null }, etag);
        expect(cleared.body.OwnerOperatorId).toBeNull();
      });
    }

    it('of two patches with the same If-Match, one wins and the other is 412', async () => {
      const { id, etag } = await created();
      const [first, second] = await Promise.all([
        patch(id, { [kind.nullable[0]]: kind.nullable[1] }, etag),
        patch(id, { Status: 'Inactive' }, etag),
      ]);
      expect([first.status, second.status].sort()).toEqual([200, 412]);
      expect((await get(id)).headers.get('etag')).toBe(`"${id}.2"`);
      expect(await eventsOf(`${kind.event}.changed`, id)).toHaveLength(1);
    });
  });
}

for (const kind of KINDS.filter((candidate) => candidate.number)) {
  const path = `${base}/${kind.plural}`;
  const field = kind.number!;
  const create = (body: unknown) => t.api(path, { method: 'POST', as: ALL, body });

  describe(`${field} is unique per tenant`, () => {
    it('a taken number is 409 Conflict/Duplicate naming the field, on create and on patch', async () => {
      const number = `U-${next()}`;
      expect((await create({ [field]: number })).status).toBe(201);
      const duplicate = await refused(() => create({ [field]: number }));
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.Type).toMatch(/\/errors\/Conflict\/Duplicate$/);
      expect(duplicate.body.Detail).toContain(field);
      expect(duplicate.body.Field).toBe(field);
      const other = await create({ [field]: `U-${next()}` });
      const patched = await refused(() =>
        t.api(`${path}/${other.body.Id}`, { method: 'PATCH', as: ALL, body: { [field]: number }, headers: { 'If-Match': other.headers.get('etag')! } }),
      );
      expect(patched.status).toBe(409);
      expect(patched.body.Field).toBe(field);
    });

    it('another tenant may use the same number', async () => {
      const number = `X-${next()}`;
      expect((await create({ [field]: number })).status).toBe(201);
      expect((await t.api(path, { method: 'POST', as: 'tn_harbor-all', body: { [field]: number } })).status).toBe(201);
    });

    it('of two concurrent creates of one number, one is 201 and the other 409', async () => {
      const number = `C-${next()}`;
      const answers = await Promise.all([create({ [field]: number }), create({ [field]: number })]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
      const listed = await t.api(`${path}?PageSize=100`, { as: ALL });
      expect(listed.body.Items.filter((item: Record<string, unknown>) => item[field] === number)).toHaveLength(1);
    });
  });
}

describe('VINs (trucks and trailers)', () => {
  it('hold on PATCH too: a bad Vin is 400 naming Vin and changes nothing, a good one is stored', async () => {
    for (const plural of ['trucks', 'trailers']) {
      const number = plural === 'trucks' ? 'TruckNumber' : 'TrailerNumber';
      const made = await t.api(`${base}/${plural}`, { method: 'POST', as: ALL, body: { [number]: `VP-${next()}` } });
      expect(made.status, made.text).toBe(201);
      const url = `${base}/${plural}/${made.body.Id}`;
      const patch = (Vin: string, etag: string) => t.api(url, { method: 'PATCH', as: ALL, body: { Vin }, headers: { 'If-Match': etag } });
      const etag = made.headers.get('etag')!;
      for (const bad of ['1FUJGLDR5CLBP883', '1FUJGLDR5CLBP883I', '1fujgldr5clbp8834']) {
        const response = await refused(() => patch(bad, etag));
        expect(response.status, bad).toBe(400);
        expect(errorFields(response), bad).toContain('Vin');
      }
      const good = await patch('1FUJGLDR5CLBP8834', etag);
      expect(good.status, good.text).toBe(200);
      expect(good.body.Vin).toBe('1FUJGLDR5CLBP8834');
      expect((await t.api(url, { as: ALL })).body.Vin).toBe('1FUJGLDR5CLBP8834');
    }
  });

  it('accept 17 upper-case characters without I, O or Q', async () => {
    for (const plural of ['trucks', 'trailers']) {
      const number = plural === 'trucks' ? 'TruckNumber' : 'TrailerNumber';
      const create = (Vin: string) => t.api(`${base}/${plural}`, { method: 'POST', as: ALL, body: { [number]: `V-${next()}`, Vin } });
      expect((await create('1FUJGLDR5CLBP8834')).status).toBe(201);
      for (const bad of ['1FUJGLDR5CLBP883', '1FUJGLDR5CLBP88345', '1FUJGLDR5CLBP883I', '1FUJGLDR5CLBP883O', '1FUJGLDR5CLBP883Q', '1fujgldr5clbp8834']) {
        const response = await refused(() => create(bad));
        expect(errorFields(response), bad).toContain('Vin');
      }
    }
  });
});

describe('truck Year', () => {
  it('is a whole year from 1900 to 2100', async () => {
    const create = (Year: unknown) => t.api(`${base}/trucks`, { method: 'POST', as: ALL, body: { TruckNumber: `Y-${next()}`, Year } });
    expect((await create(1900)).body.Year).toBe(1900);
    expect((await create(2100)).status).toBe(201);
    for (const bad of [1899, 2101, 2022.5, '2022']) expect(errorFields(await refused(() => create(bad))), String(bad)).toContain('Year');
  });
});

describe('driver HireDate, Email and Type', () => {
  const create = (extra: Record<string, unknown>) =>
    t.api(`${base}/drivers`, { method: 'POST', as: ALL, body: { FirstName: 'Hire', LastName: `Date${next()}`, Type: 'COMPANY', ...extra } });

  it('HireDate is a real date written yyyy-MM-dd, in and out', async () => {
    const response = await create({ HireDate: '2024-02-29' });
    expect(response.status).toBe(201);
    expect(response.body.HireDate).toBe('2024-02-29');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-03-18T00:00:00Z', '18/03/2024', '2024-3-18']) {
      expect(errorFields(await refused(() => create({ HireDate: bad }))), bad).toContain('HireDate');
    }
  });

  it('Email must look like an address; Type must be one of the driver types', async () => {
    expect((await create({ Email: 'a@b.example' })).status).toBe(201);
    expect(errorFields(await refused(() => create({ Email: 'not an email' })))).toContain('Email');
    expect(errorFields(await refused(() => create({ Type: 'DRIVER' })))).toContain('Type');
  });
});

describe('trailer Type and CompanyOwnedAsset', () => {
  it('Type is one of the trailer types; CompanyOwnedAsset null stays the unset flag', async () => {
    const create = (extra: Record<string, unknown>) => t.api(`${base}/trailers`, { method: 'POST', as: ALL, body: { TrailerNumber: `TT-${next()}`, ...extra } });
    for (const type of ['DryVan', 'Reefer', 'Flatbed', 'StepDeck', 'Tanker', 'Container', 'Other']) {
      expect((await create({ Type: type })).body.Type).toBe(type);
    }
    expect(errorFields(await refused(() => create({ Type: 'Boxcar' })))).toContain('Type');
    const owned = await create({ CompanyOwnedAsset: true });
    expect(owned.body.CompanyOwnedAsset).toBe(true);
    const unset = await t.api(`${base}/trailers/${owned.body.Id}`, {
      method: 'PATCH',
      as: ALL,
      body: { CompanyOwnedAsset: null },
      headers: { 'If-Match': owned.headers.get('etag')! },
    });
    expect(unset.body.CompanyOwnedAsset).toBeNull();
    const listed = await t.api(`${base}/trailers?CompanyOwnedAsset=null&PageSize=100`, { as: ALL });
    expect(listed.body.Items.map((item: { Id: string }) => item.Id)).toContain(owned.body.Id);
  });
});

describe('internal apps', () => {
  it('call the same procedures in-process with the same input as REST', async () => {
    const caller = createCaller({
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal', Scopes: ['truck:create', 'truck:update', 'truck:read'] },
    });
    const truck = await caller.assets.createTruck({ TruckNumber: `IN-${next()}`, Make: 'Kenworth' });
    expect(truck).toMatchObject({ Make: 'Kenworth', Status: 'Active' });
    const withIfMatch = createCaller({
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal', Scopes: ['truck:update'] },
      request: { ifMatch: `"${truck.Id}.1"` },
    });
    expect(await withIfMatch.assets.updateTruck({ id: truck.Id, Model: 'T680' })).toMatchObject({ Make: 'Kenworth', Model: 'T680' });
    await expect(caller.assets.createDriver({ FirstName: 'No', LastName: 'Scope', Type: 'COMPANY' })).rejects.toMatchObject({ appCode: 'FORBIDDEN' });
  });
});

describe('fixtures', () => {
  it('load the new fields, ExternalIds (their pairs claimed), Status and timestamps of drivers, trucks and trailers', async () => {
    await loadInto(t, {
      Tenants: [
        bareTenant('tn_fx_ok', {
          Drivers: [
            {
              Id: 'drv_fx',
              FirstName: 'Fay',
              LastName: 'Fixture',
              Type: 'COMPANY',
              HireDate: '2023-06-01',
              Email: 'fay@example.com',
              ExternalIds: { payroll: 'E-7' },
              Status: 'Inactive',
              CreatedAt: '2026-01-05T08:00:00Z',
            },
          ],
          Trucks: [{ Id: 'trk_fx', TruckNumber: '900', Vin: '1FUJGLDR5CLBP8834', Year: 2019, ExternalIds: { samsara: '281' } }],
          Trailers: [{ Id: 'trl_fx', TrailerNumber: '900', Type: 'Flatbed' }],
        }),
      ],
    });
    const driver = await t.db.selectFrom('drivers').selectAll().where('id', '=', 'drv_fx').executeTakeFirstOrThrow();
    expect(driver).toMatchObject({ hire_date: '2023-06-01', email: 'fay@example.com', status: 'Inactive', external_ids: '{"payroll":"E-7"}', created_at: '2026-01-05T08:00:00.000Z' });
    const truck = await t.db.selectFrom('trucks').selectAll().where('id', '=', 'trk_fx').executeTakeFirstOrThrow();
    expect(truck).toMatchObject({ vin: '1FUJGLDR5CLBP8834', status: 'Active', external_ids: '{"samsara":"281"}' });
    expect(Number(truck.year)).toBe(2019);
    const pairs = await t.db.selectFrom('external_ids').select(['kind', 'source', 'value', 'record_id']).where('tenant_id', '=', 'tn_fx_ok').orderBy('kind').execute();
    expect(pairs).toEqual([
      { kind: 'drivers', source: 'payroll', value: 'E-7', record_id: 'drv_fx' },
      { kind: 'trucks', source: 'samsara', value: '281', record_id: 'trk_fx' },
    ]);
  });

  it('refuse a repeated TruckNumber or TrailerNumber, a repeated ExternalIds pair of one kind, and what the API refuses', async () => {
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fx_bad', {
          Drivers: [
            { Id: 'drv_fx1', FirstName: 'A', LastName: 'B', Type: 'COMPANY', ExternalIds: { hr: '1' } },
            { Id: 'drv_fx2', FirstName: 'C', LastName: 'D', Type: 'COMPANY', ExternalIds: { hr: '1' }, HireDate: '2023-02-30' },
          ],
          Trucks: [
            { Id: 'trk_fx1', TruckNumber: '7', ExternalIds: { hr: '1' } },
            { Id: 'trk_fx2', TruckNumber: '7', Vin: 'SHORT' },
          ],
          Trailers: [
            { Id: 'trl_fx1', TrailerNumber: '8', Type: 'Boxcar' },
            { Id: 'trl_fx2', TrailerNumber: '8' },
          ],
        }),
      ],
    });
    const at = (path: string) => problems.filter((line) => line.startsWith(`Tenants[0].${path}`));
    expect(at('Drivers[1].ExternalIds.hr')).toHaveLength(1);
    expect(at('Drivers[1].HireDate')).toHaveLength(1);
    expect(at('Trucks[1].TruckNumber')).toHaveLength(1);
    expect(at('Trucks[1].Vin')).toHaveLength(1);
    expect(at('Trailers[1].TrailerNumber')).toHaveLength(1);
    expect(at('Trailers[0].Type')).toHaveLength(1);
    // The same pair on a truck is another kind's: no problem.
    expect(at('Trucks[0].ExternalIds')).toEqual([]);
    expect(await t.db.selectFrom('tenants').select('id').where('id', '=', 'tn_fx_bad').execute()).toEqual([]);
  });
});
