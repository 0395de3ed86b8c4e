import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { bareTenant, loadInto, problemsOf } from './support/master-data-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const kind = testDatabaseKind();

const get = (id: string, as = ALL) => t.api(`${base}/locations/${encodeURIComponent(id)}`, { as });
const create = (body: unknown, as = ALL) => t.api(`${base}/locations`, { method: 'POST', as, body });
const patch = (id: string, body: unknown, ifMatch?: string, as = ALL) =>
  t.api(`${base}/locations/${id}`, { method: 'PATCH', as, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } });
const errorsOf = (response: ApiResponse): Record<string, string[]> => response.body?.Errors ?? {};
const eventsOf = (locationId: string, type: string) =>
  t.db
    .selectFrom('outbox')
    .selectAll()
    .where('type', '=', type)
    .execute()
    .then((rows) => rows.filter((row) => JSON.parse(row.payload).Id === locationId));

const address = { Street: '100 Dock Rd', City: 'Wichita', State: 'KS', ZipCode: '67202', Country: 'US' };
const wichita = { Latitude: '37.6872', Longitude: '-97.3301' };
/** A square of about 1 km around Wichita, corners in order. */
const square: Array<[string, string]> = [
  ['37.6900', '-97.3350'],
  ['37.6900', '-97.3250'],
  ['37.6840', '-97.3250'],
  ['37.6840', '-97.3350'],
];

let serial = 0;
const minimal = () => ({ Name: `Test Location ${++serial}`, Type: 'Shipper/Consignee' as const, PhysicalAddress: address });
const fresh = async (extra: Record<string, unknown> = {}) => {
  const response = await create({ ...minimal(), ...extra });
  expect(response.status, response.text).toBe(201);
  return { id: response.body.Id as string, etag: response.headers.get('etag')!, body: response.body };
};

async function expectRefusedUnchanged(status: number, refused: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await snapshotDatabase(t.db, kind);
  const response = await refused();
  expect(response.status, response.text).toBe(status);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}

/** Expects a 400 whose Errors name `field` (exactly), and nothing written. */
async function expectFieldError(field: string, refused: () => Promise<ApiResponse>): Promise<string> {
  const response = await expectRefusedUnchanged(400, refused);
  expect(Object.keys(errorsOf(response)), response.text).toContain(field);
  return errorsOf(response)[field]!.join(' ');
}

describeAuthCases(() => t, { method: 'POST', path: `${base}/locations`, scope: 'location:create', body: minimal(), okStatus: 201 });
describeAuthCases(() => t, {
  method: 'PATCH',
  path: `${base}/locations/loc_okc_yard`,
  scope: 'location:update',
  body: { Name: 'x' },
  okStatus: 428,
  otherTenantPath: `${base}/locations/loc_harbor_pier`,
  missingPath: `${base}/locations/loc_nowhere`,
});

describe('POST /locations', () => {
  it('creates with 201, Location and ETag, the record as GET reads it, defaults for what it leaves out', async () => {
    const body = minimal();
    const response = await create(body);
    expect(response.status, response.text).toBe(201);
    const id: string = response.body.Id;
    expect(response.headers.get('location')).toBe(`/api/p/v1.0/locations/${id}`);
    expect(response.headers.get('etag')).toBe(`"${id}.1"`);
    expect(response.body).toEqual({
      Id: id,
      Name: body.Name,
      CompanyNumber: null,
      Type: 'Shipper/Consignee',
      Status: 'Active',
      PhysicalAddress: address,
      Coordinates: null,
      TimeZone: null,
      Email: [],
      Phone: [],
      ExternalId: null,
      Geofence: null,
      DepartRadiusMeters: null,
      DetentionFreeMinutes: null,
      CreatedAt: '2026-11-22T12:00:00.000Z',
      UpdatedAt: '2026-11-22T12:00:00.000Z',
    });
    const read = await get(id, 'sub_kc-all');
    expect(read.body).toEqual(response.body);
    expect(read.headers.get('etag')).toBe(`"${id}.1"`);
  });

  it('stores every writable field; TimeZone comes from the coordinates when not given', async () => {
    const body = {
      ...minimal(),
      CompanyNumber: 'WIC-1',
      Type: 'Cold Warehouse',
      Status: 'Inactive',
      Coordinates: wichita,
      Email: ['dock@wichita.example'],
      Phone: ['+1 316 555 0100'],
      ExternalId: 'ACME-WIC',
      Geofence: { Polygon: square },
      DepartRadiusMeters: 0,
      DetentionFreeMinutes: 90,
    };
    const response = await create(body);
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ ...body, TimeZone: 'America/Chicago' });
    expect((await get(response.body.Id)).body).toEqual(response.body);
    const zoned = await create({ ...minimal(), Coordinates: wichita, TimeZone: 'America/New_York', Geofence: { RadiusMeters: 300 }, DepartRadiusMeters: 300 });
    expect(zoned.status, zoned.text).toBe(201);
    expect(zoned.body).toMatchObject({ TimeZone: 'America/New_York', Geofence: { RadiusMeters: 300 }, DepartRadiusMeters: 300 });
    // CompanyNumber and ExternalId are the integration's: they need not be unique.
    expect((await create({ ...minimal(), CompanyNumber: 'WIC-1', ExternalId: 'ACME-WIC' })).status).toBe(201);
  });

  it('refuses bad bodies with a 400 naming the field, and writes nothing', async () => {
    for (const [body, field] of [
      [{ Type: 'Terminal', PhysicalAddress: address }, 'Name'],
      [{ Name: 'x', PhysicalAddress: address }, 'Type'],
      [{ Name: 'x', Type: 'Terminal' }, 'PhysicalAddress'],
      [{ ...minimal(), Type: 'Warehouse' }, 'Type'],
      [{ ...minimal(), Status: 'Gone' }, 'Status'],
      [{ ...minimal(), Coordinates: { Latitude: '91', Longitude: '0' } }, 'Coordinates.Latitude'],
      [{ ...minimal(), Coordinates: { Latitude: 39.1, Longitude: '0' } }, 'Coordinates.Latitude'],
      [{ ...minimal(), TimeZone: 'Mars/Olympus' }, 'TimeZone'],
      [{ ...minimal(), TimeZone: 'US/Eastern' }, 'TimeZone'],
      [{ ...minimal(), DepartRadiusMeters: -1 }, 'DepartRadiusMeters'],
      [{ ...minimal(), DepartRadiusMeters: 10_001 }, 'DepartRadiusMeters'],
      [{ ...minimal(), DepartRadiusMeters: 1.5 }, 'DepartRadiusMeters'],
      [{ ...minimal(), DetentionFreeMinutes: -1 }, 'DetentionFreeMinutes'],
      [{ ...minimal(), DetentionFreeMinutes: 1441 }, 'DetentionFreeMinutes'],
      [{ ...minimal(), Id: 'loc_mine' }, 'Id'],
    ] as const) {
      await expectFieldError(field, () => create(body));
    }
  });

  it('takes a circle of 50 to 5,000 whole metres, which needs Coordinates', async () => {
    for (const radius of [50, 5000]) expect((await create({ ...minimal(), Coordinates: wichita, Geofence: { RadiusMeters: radius } })).status).toBe(201);
    for (const radius of [49, 5001, 120.5, '300']) {
      await expectFieldError('Geofence.RadiusMeters', () => create({ ...minimal(), Coordinates: wichita, Geofence: { RadiusMeters: radius } }));
    }
    const message = await expectFieldError('Geofence', () => create({ ...minimal(), Geofence: { RadiusMeters: 300 } }));
    expect(message).toContain('Coordinates');
  });

  it("refuses a DepartRadiusMeters inside a circle's radius; any one beside a polygon", async () => {
    const message = await expectFieldError('DepartRadiusMeters', () =>
      create({ ...minimal(), Coordinates: wichita, Geofence: { RadiusMeters: 500 }, DepartRadiusMeters: 499 }),
    );
    expect(message).toContain('500');
    expect((await create({ ...minimal(), Geofence: { Polygon: square }, DepartRadiusMeters: 10 })).status).toBe(201);
  });

  it('takes exactly one of RadiusMeters and Polygon', async () => {
    await expectFieldError('Geofence', () => create({ ...minimal(), Coordinates: wichita, Geofence: {} }));
    await expectFieldError('Geofence', () => create({ ...minimal(), Coordinates: wichita, Geofence: { RadiusMeters: 300, Polygon: square } }));
    await expectFieldError('Geofence.Center', () => create({ ...minimal(), Coordinates: wichita, Geofence: { Center: wichita } }));
  });

  it('takes polygons of 3 to 100 points of coordinate strings, without Coordinates', async () => {
    const triangle = square.slice(0, 3);
    expect((await create({ ...minimal(), Geofence: { Polygon: triangle } })).body.Geofence).toEqual({ Polygon: triangle });
    // 100 points on a circle: a convex ring.
    const ring = Array.from({ length: 100 }, (_, i): [string, string] => [
      (37.68 + 0.01 * Math.sin((2 * Math.PI * i) / 100)).toFixed(6),
      (-97.33 + 0.01 * Math.cos((2 * Math.PI * i) / 100)).toFixed(6),
    ]);
    expect((await create({ ...minimal(), Geofence: { Polygon: ring } })).status).toBe(201);
    await expectFieldError('Geofence.Polygon', () => create({ ...minimal(), Geofence: { Polygon: square.slice(0, 2) } }));
    await expectFieldError('Geofence.Polygon', () => create({ ...minimal(), Geofence: { Polygon: [...ring, ['37.5', '-97.33']] } }));
    await expectFieldError('Geofence.Polygon[1]', () => create({ ...minimal(), Geofence: { Polygon: [square[0], ['37.69'], square[2]] } }));
    await expectFieldError('Geofence.Polygon[1][0]', () => create({ ...minimal(), Geofence: { Polygon: [square[0], ['95', '-97.3'], square[2]] } }));
    await expectFieldError('Geofence.Polygon[2][1]', () => create({ ...minimal(), Geofence: { Polygon: [square[0], square[1], ['37.68', -97.3]] } }));
  });

  it('refuses a self-intersecting polygon, naming the edges', async () => {
    const [a, b, c, d] = square as [[string, string], [string, string], [string, string], [string, string]];
    for (const [points, edges] of [
      // A bow tie: the edge a→c crosses the edge b→d... as the ring a, b, d, c.
      [[a, b, d, c], 'the edge from point 1 to point 2 meets the edge from point 3 to point 0'],
      // A point on a non-neighbouring edge (touching counts).
      [[a, b, c, ['37.6900', '-97.3300'], d], 'meets'],
      // Repeating the first point to close the ring.
      [[a, b, c, d, a], 'points 0 and 4 are the same'],
      // Collinear points folding back.
      [[['37.0', '-97.0'], ['37.0', '-96.0'], ['37.0', '-96.5']], 'meets'],
      // Exactly collinear with decimals of different lengths: still a fold.
      [[['37', '-97'], ['37.5', '-97.5'], ['37.25', '-97.25']], 'meets'],
    ] as const) {
      const message = await expectFieldError('Geofence.Polygon', () => create({ ...minimal(), Geofence: { Polygon: points } }));
      expect(message, JSON.stringify(points)).toContain(edges);
    }
    // Concave (an L shape) is fine; so is the same ring the other way round.
    const l: Array<[string, string]> = [
      ['0', '0'],
      ['0', '2'],
      ['1', '2'],
      ['1', '1'],
      ['2', '1'],
      ['2', '0'],
    ];
    expect((await create({ ...minimal(), Geofence: { Polygon: l } })).status).toBe(201);
    expect((await create({ ...minimal(), Geofence: { Polygon: [...l].reverse() } })).status).toBe(201);
  });

  it('writes location.created for every subscription of the tenant', async () => {
    const { id, body } = await fresh();
    const events = await eventsOf(id, 'location.created');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: null, kind: 'event' });
    expect(JSON.parse(events[0]!.payload)).toEqual(body);
  });
});

describe('PATCH /locations/{id}', () => {
  it('merges the patch: a new ETag, location.changed with the diff', async () => {
    const { id, etag, body } = await fresh({ Coordinates: wichita, Geofence: { RadiusMeters: 300 } });
    t.clock.advance(60_000);
    const response = await patch(
      id,
      { Name: 'Renamed Dock', Status: 'Disabled', PhysicalAddress: { Street: '200 Dock Rd', City: 'Wichita', State: 'KS', ZipCode: '67202' }, Geofence: { Polygon: square }, DetentionFreeMinutes: 60 },
      etag,
    );
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('etag')).toBe(`"${id}.2"`);
    const expected = {
      ...body,
      Name: 'Renamed Dock',
      Status: 'Disabled',
      PhysicalAddress: { ...address, Street: '200 Dock Rd' },
      Geofence: { Polygon: square },
      DetentionFreeMinutes: 60,
      UpdatedAt: '2026-11-22T12:01:00.000Z',
    };
    expect(response.body).toEqual(expected);
    expect((await get(id)).body).toEqual(expected);
    const [event] = await eventsOf(id, 'location.changed');
    expect(event).toMatchObject({ subsidiary_id: null });
    const data = JSON.parse(event!.payload);
    expect(data.diff.changes).toEqual([
      { Field: 'Name', From: body.Name, To: 'Renamed Dock' },
      { Field: 'Status', From: 'Active', To: 'Disabled' },
      { Field: 'PhysicalAddress.Street', From: '100 Dock Rd', To: '200 Dock Rd' },
      { Field: 'Geofence.RadiusMeters', From: 300, To: null },
      { Field: 'Geofence.Polygon', From: null, To: square },
      { Field: 'DetentionFreeMinutes', From: null, To: 60 },
    ]);
    expect({ ...data, diff: undefined }).toEqual({ ...expected, diff: undefined });
  });

  it('clears nullable fields with null and refuses null on the others', async () => {
    const { id, etag } = await fresh({
      CompanyNumber: 'C-1',
      Coordinates: wichita,
      ExternalId: 'E-1',
      Geofence: { Polygon: square },
      DepartRadiusMeters: 100,
      DetentionFreeMinutes: 30,
    });
    for (const field of ['Name', 'Type', 'Status', 'PhysicalAddress', 'Email', 'Phone']) {
      await expectFieldError(field, () => patch(id, { [field]: null }, etag));
    }
    const cleared = await patch(
      id,
      { CompanyNumber: null, Coordinates: null, TimeZone: null, ExternalId: null, Geofence: null, DepartRadiusMeters: null, DetentionFreeMinutes: null },
      etag,
    );
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({
      CompanyNumber: null,
      Coordinates: null,
      TimeZone: null,
      ExternalId: null,
      Geofence: null,
      DepartRadiusMeters: null,
      DetentionFreeMinutes: null,
    });
  });

  it('moves the TimeZone with new Coordinates unless the patch names one', async () => {
    const { id, etag } = await fresh({ Coordinates: wichita });
    const moved = await patch(id, { Coordinates: { Latitude: '40.7128', Longitude: '-74.0060' } }, etag);
    expect(moved.body.TimeZone).toBe('America/New_York');
    const named = await patch(id, { Coordinates: wichita, TimeZone: 'America/Denver' }, moved.headers.get('etag')!);
    expect(named.body.TimeZone).toBe('America/Denver');
    const kept = await patch(id, { Name: 'Still Denver' }, named.headers.get('etag')!);
    expect(kept.body.TimeZone).toBe('America/Denver');
    const derived = await patch(id, { TimeZone: null }, kept.headers.get('etag')!);
    expect(derived.body.TimeZone).toBe('America/Chicago');
  });

  it('keeps the fence rules on the location as the patch leaves it, naming the field sent', async () => {
    const { id, etag } = await fresh({ Coordinates: wichita, Geofence: { RadiusMeters: 400 }, DepartRadiusMeters: 600 });
    await expectFieldError('Coordinates', () => patch(id, { Coordinates: null }, etag));
    await expectFieldError('DepartRadiusMeters', () => patch(id, { DepartRadiusMeters: 399 }, etag));
    await expectFieldError('Geofence', () => patch(id, { Geofence: { RadiusMeters: 601 } }, etag));
    expect((await patch(id, { Geofence: { RadiusMeters: 600 } }, etag)).status).toBe(200);
    const bare = await fresh();
    await expectFieldError('Geofence', () => patch(bare.id, { Geofence: { RadiusMeters: 300 } }, bare.etag));
    expect((await patch(bare.id, { Geofence: { RadiusMeters: 300 }, Coordinates: wichita }, bare.etag)).status).toBe(200);
  });

  it('validates the patch body like a create', async () => {
    const { id, etag } = await fresh();
    await expectRefusedUnchanged(400, () => patch(id, {}, etag));
    await expectFieldError('Unknown', () => patch(id, { Name: 'x', Unknown: 1 }, etag));
    await expectFieldError('Geofence.Polygon', () => patch(id, { Geofence: { Polygon: [square[0], square[1], square[0]] } }, etag));
    await expectFieldError('DetentionFreeMinutes', () => patch(id, { DetentionFreeMinutes: 2000 }, etag));
  });

  it('needs If-Match (428), refuses a stale one (412), and answers an unknown or foreign location 404 first', async () => {
    const { id, etag } = await fresh();
    const missing = await expectRefusedUnchanged(428, () => patch(id, { Name: 'x' }));
    expect(missing.body.Type).toMatch(/\/errors\/PreconditionRequired$/);
    expect((await patch(id, { Name: 'First' }, etag)).status).toBe(200);
    const stale = await expectRefusedUnchanged(412, () => patch(id, { Name: 'Second' }, etag));
    expect(stale.body.Type).toMatch(/\/errors\/PreconditionFailed$/);
    expect((await patch('loc_nowhere', { Name: 'x' })).status).toBe(404);
    expect((await patch('loc_harbor_pier', { Name: 'x' }, '*')).status).toBe(404);
  });

  it('lets one of two concurrent patches with the same If-Match win, the other 412', async () => {
    const { id, etag } = await fresh();
    const responses = await Promise.all(['One', 'Two'].map((name) => patch(id, { Name: name }, etag)));
    expect(responses.map((response) => response.status).sort()).toEqual([200, 412]);
    expect(await eventsOf(id, 'location.changed')).toHaveLength(1);
  });

  it('changes nothing and emits nothing for a patch that changes nothing', async () => {
    const { id, etag, body } = await fresh({ Coordinates: wichita, Geofence: { Polygon: square } });
    const before = await snapshotDatabase(t.db, kind);
    const response = await patch(id, { Name: body.Name, Coordinates: wichita, Geofence: { Polygon: square }, Email: [] }, etag);
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.body).toEqual(body);
    expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  });

  it('updates a fixture location, whose ETag starts at version 1', async () => {
    const read = await get('loc_okc_yard');
    expect(read.headers.get('etag')).toBe('"loc_okc_yard.1"');
    const response = await patch('loc_okc_yard', { DetentionFreeMinutes: 45 }, '"loc_okc_yard.1"');
    expect(response.status, response.text).toBe(200);
    expect(response.headers.get('etag')).toBe('"loc_okc_yard.2"');
  });
});

describe('location procedures over tRPC', () => {
  const principal = (scopes: string[]): Principal => ({ TenantId: 'tn_prairie', SubsidiaryId: 'sub_kc', ClientId: 'internal', Scopes: scopes });
  const caller = (scopes: string[]) => createCaller({ db: t.db, clock: t.clock, config: t.config, principal: principal(scopes) });

  it('creates and updates with the REST input; the scopes guard them', async () => {
    const created = await caller(['location:create']).locations.createLocation({ ...minimal(), Coordinates: wichita, Geofence: { RadiusMeters: 250 } });
    expect(created).toMatchObject({ Geofence: { RadiusMeters: 250 }, TimeZone: 'America/Chicago' });
    await expect(caller(['location:create']).locations.updateLocation({ id: created.Id, Name: 'x' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    // Internal callers have no If-Match header: 428 like REST without one.
    await expect(caller(['location:update']).locations.updateLocation({ id: created.Id, Name: 'x' })).rejects.toMatchObject({ code: 'PRECONDITION_REQUIRED' });
  });
});

describe('fixture Locations: fence fields', () => {
  it('loads Geofence, DepartRadiusMeters and DetentionFreeMinutes as the API reads them', async () => {
    await loadInto(t, {
      Tenants: [
        bareTenant('tn_fx_loc', {
          Locations: [
            { Id: 'loc_fx_1', Name: 'Fx', Type: 'Terminal', PhysicalAddress: address, Geofence: { Polygon: square }, DepartRadiusMeters: 100, DetentionFreeMinutes: 30 },
          ],
        }),
      ],
    });
    const row = await t.db.selectFrom('locations').selectAll().where('id', '=', 'loc_fx_1').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ geofence_polygon: JSON.stringify(square), geofence_radius_meters: null, depart_radius_meters: 100, detention_free_minutes: 30, version: 1 });
  });

  it('refuses fence fields that break the API rules, at their paths', async () => {
    const problems = await problemsOf(t, {
      Tenants: [
        bareTenant('tn_fx_badloc', {
          Locations: [
            { Id: 'loc_fx_b1', Name: 'Circle', Type: 'Terminal', PhysicalAddress: address, Geofence: { RadiusMeters: 300 } },
            { Id: 'loc_fx_b2', Name: 'Bow tie', Type: 'Terminal', PhysicalAddress: address, Geofence: { Polygon: [square[0], square[1], square[3], square[2]] } },
            { Id: 'loc_fx_b3', Name: 'Free', Type: 'Terminal', PhysicalAddress: address, DetentionFreeMinutes: -5 },
          ],
        }),
      ],
    });
    const text = problems.join('\n');
    expect(text).toContain('Tenants[0].Locations[0].Geofence');
    expect(text).toContain('Tenants[0].Locations[1].Geofence.Polygon: must not intersect itself');
    expect(text).toContain('Tenants[0].Locations[2].DetentionFreeMinutes');
  });
});
