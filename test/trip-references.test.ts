import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { eventsDuring, tripVersion, tripWriteFixture } from './support/trip-write-fixture.js';

let t: TestApp;
beforeAll(async () => {
  const fixture = tripWriteFixture([
    { id: 'trp_auth_ref', status: 'Assigned' },
    { id: 'trp_refs', status: 'Assigned' },
    { id: 'trp_refs2', status: 'Assigned' },
  ]);
  const prairie = fixture.Tenants.find((tenant: any) => tenant.Id === 'tn_prairie');
  prairie.ReferenceDefinitions.push({ Id: 'refdef_load_only', Name: 'Load Only', Type: 'Text', Entities: ['Load'] });
  const trip = (id: string) => prairie.Loads.flatMap((load: any) => load.Trips).find((candidate: any) => candidate.Id === id);
  trip('trp_refs2').References = [
    { Id: 'ref_seal', ReferenceId: 'refdef_seal', Name: 'Seal Number', Value: 'S-1', Type: 'Text', Access: 'Public', Origin: 'Manual' },
    { Id: 'ref_free', Name: 'Dock', Value: '7', Type: 'Text', Access: 'Public', Origin: 'Manual' },
    { Id: 'ref_po', ReferenceId: 'refdef_po', Name: 'PO Number', Value: 'PO-1', Type: 'Text', Access: 'Internal', Origin: 'Manual' },
  ];
  t = await startTestApp({ fixture });
});
afterAll(async () => {
  await t?.close();
});

const refsPath = (trip: string) => `/api/p/v1.0/trips/${trip}/references`;
const refPath = (trip: string, ref: string) => `${refsPath(trip)}/${ref}`;
const create = (trip: string, body: unknown, as = 'prairie-integration') => t.api(refsPath(trip), { method: 'POST', as, body });
const update = (trip: string, ref: string, body: unknown, ifMatch?: string, as = 'prairie-integration') =>
  t.api(refPath(trip, ref), { method: 'PUT', as, body, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });
const getTrip = (trip: string) => t.api(`/api/p/v1.0/trips/${trip}`, { as: 'prairie-integration' });
const etagOf = async (trip: string) => (await getTrip(trip)).headers.get('etag')!;

describeAuthCases(() => t, {
  method: 'POST',
  path: refsPath('trp_auth_ref'),
  scope: 'trip:update',
  body: { Name: 'Note', Value: 'auth' },
  okStatus: 201,
  otherTenantPath: refsPath('trp_h_1'),
  missingPath: refsPath('trp_nowhere'),
  otherSubsidiary: { as: 'sub_kc-all', path: refsPath('trp_2001_a') },
});

// The shared cases send no If-Match, so an authorised call stops at 428: authentication, scope
// and isolation are all checked before it (docs/api-rules.md#order-of-checks). Successes are below.
describeAuthCases(() => t, {
  method: 'PUT',
  path: refPath('trp_refs2', 'ref_free'),
  scope: 'trip:update',
  body: { Name: 'Dock', Value: '8' },
  okStatus: 428,
  otherTenantPath: refPath('trp_h_1', 'ref_free'),
  missingPath: refPath('trp_nowhere', 'ref_free'),
  otherSubsidiary: { as: 'sub_kc-all', path: refPath('trp_2001_a', 'ref_free') },
});

describe('POST /trips/{tripId}/references (4.5)', () => {
  it('creates a free reference: 201, Type Text, Origin Integration, Access Internal, refreshed ETag, trip.changed', async () => {
    const before = await etagOf('trp_refs');
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await create('trp_refs', { Name: 'Dock Door', Value: '12' });
    });
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      Id: expect.stringMatching(/^ref_/),
      ReferenceId: null,
      Name: 'Dock Door',
      Value: '12',
      Type: 'Text',
      Access: 'Internal',
      Origin: 'Integration',
    });
    const etag = response.headers.get('etag');
    expect(etag).not.toBe(before);
    const trip = await getTrip('trp_refs');
    expect(trip.headers.get('etag')).toBe(etag);
    expect(trip.body.References).toContainEqual(response.body);

    expect(events.map((e) => e.type)).toEqual(['trip.changed']);
    expect(events[0]!.subsidiaryId).toBe('sub_kc');
    expect(events[0]!.data.diff.changes).toEqual([{ Field: `References[${response.body.Id}]`, From: null, To: response.body }]);
    expect(events[0]!.data.References).toContainEqual(response.body);
  });

  it('takes the Type of a catalog definition and validates a Date definition as yyyy-MM-dd', async () => {
    const seal = await create('trp_refs', { ReferenceId: 'refdef_seal', Name: 'Seal Number', Value: 'SL-99812' });
    expect(seal.status).toBe(201);
    expect(seal.body).toMatchObject({ ReferenceId: 'refdef_seal', Type: 'Text', Origin: 'Integration', Access: 'Internal' });

    for (const value of ['11/23/2026', '2026-11-23T08:00', '2026-02-30', '2026-1-5']) {
      const bad = await create('trp_refs', { ReferenceId: 'refdef_pickup_date', Name: 'Pickup Date', Value: value });
      expect(bad.status, value).toBe(400);
      expect(Object.keys(bad.body.Errors)).toEqual(['Value']);
    }
    const date = await create('trp_refs', { ReferenceId: 'refdef_pickup_date', Name: 'Pickup Date', Value: '2026-11-23' });
    expect(date.status).toBe(201);
    expect(date.body).toMatchObject({ ReferenceId: 'refdef_pickup_date', Type: 'Date', Value: '2026-11-23' });
  });

  it("is 400 naming Name when it is not the definition's name", async () => {
    const response = await create('trp_refs', { ReferenceId: 'refdef_po', Name: 'PO number', Value: 'PO-1' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['Name']);
  });

  it('enforces the length limits: Name 50, Value 40', async () => {
    const ok = await create('trp_refs', { Name: 'N'.repeat(50), Value: 'V'.repeat(40) });
    expect(ok.status).toBe(201);
    const name = await create('trp_refs', { Name: 'N'.repeat(51), Value: 'v' });
    expect(name.status).toBe(400);
    expect(Object.keys(name.body.Errors)).toEqual(['Name']);
    const value = await create('trp_refs', { Name: 'n', Value: 'V'.repeat(41) });
    expect(value.status).toBe(400);
    expect(Object.keys(value.body.Errors)).toEqual(['Value']);
  });

  it('is 400 for missing fields, empty values and properties the body does not have', async () => {
    const missing = await create('trp_refs', { Name: 'Only a name' });
    expect(missing.status).toBe(400);
    expect(missing.body.Errors).toHaveProperty('Value');
    const empty = await create('trp_refs', { Name: '', Value: 'x' });
    expect(empty.status).toBe(400);
    expect(empty.body.Errors).toHaveProperty('Name');
    const access = await create('trp_refs', { Name: 'n', Value: 'v', Access: 'Public' });
    expect(access.status).toBe(400);
    expect(access.body.Errors).toHaveProperty('Access');
  });

  it('is 404 for a definition that does not exist or is not for trips', async () => {
    for (const ReferenceId of ['refdef_nowhere', 'refdef_load_only']) {
      const response = await create('trp_refs', { ReferenceId, Name: 'Load Only', Value: 'x' });
      expect(response.status, ReferenceId).toBe(404);
      expect(response.body.Type).toMatch(/\/errors\/NotFound$/);
    }
  });

  it('is 409 DuplicateReference for a second value of one definition, and writes nothing', async () => {
    const version = await tripVersion(t, 'trp_1001_a');
    const events = await eventsDuring(t, async () => {
      const response = await create('trp_1001_a', { ReferenceId: 'refdef_po', Name: 'PO Number', Value: 'PO-2' });
      expect(response.status).toBe(409);
      expect(response.body.Type).toMatch(/\/errors\/Conflict\/DuplicateReference$/);
    });
    expect(events).toEqual([]);
    expect(await tripVersion(t, 'trp_1001_a')).toBe(version);
  });

  it('serialises concurrent writes to one trip: one value per definition wins, every write gets its own version', async () => {
    const version = await tripVersion(t, 'trp_refs');
    const same = await Promise.all(
      Array.from({ length: 5 }, () => create('trp_refs', { ReferenceId: 'refdef_po', Name: 'PO Number', Value: 'PO-C' })),
    );
    expect(same.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    expect(await tripVersion(t, 'trp_refs')).toBe(version + 1);
    const different = await Promise.all(Array.from({ length: 4 }, (_, i) => create('trp_refs', { Name: 'Lane', Value: String(i) })));
    expect(different.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(different.map((r) => r.headers.get('etag'))).size).toBe(4);
    expect(await tripVersion(t, 'trp_refs')).toBe(version + 5);
  });

  it('lets a subsidiary-bound client add references to its own trips', async () => {
    const response = await create('trp_2001_a', { Name: 'Gate', Value: 'B' }, 'sub_dal-all');
    expect(response.status).toBe(201);
  });
});

describe('PUT /trips/{tripId}/references/{referenceId} (4.6)', () => {
  it('is 428 without If-Match and 412 with a stale or weak one, changing nothing', async () => {
    const current = await etagOf('trp_refs2');
    const missing = await update('trp_refs2', 'ref_free', { Name: 'Dock', Value: '9' });
    expect(missing.status).toBe(428);
    expect(missing.body.Type).toMatch(/\/errors\/PreconditionRequired$/);
    const stale = await update('trp_refs2', 'ref_free', { Name: 'Dock', Value: '9' }, '"trp_refs2.0"');
    expect(stale.status).toBe(412);
    expect(stale.body.Type).toMatch(/\/errors\/PreconditionFailed$/);
    const weak = await update('trp_refs2', 'ref_free', { Name: 'Dock', Value: '9' }, `W/${current}`);
    expect(weak.status).toBe(412);
    expect(await etagOf('trp_refs2')).toBe(current);
  });

  it('checks the body before If-Match and the reference before If-Match', async () => {
    const body = await update('trp_refs2', 'ref_free', { Name: 'Dock', Value: 'V'.repeat(41) });
    expect(body.status).toBe(400);
    const unknown = await update('trp_refs2', 'ref_nowhere', { Name: 'Dock', Value: '9' });
    expect(unknown.status).toBe(404);
    const otherTrip = await update('trp_refs', 'ref_free', { Name: 'Dock', Value: '9' }, '*');
    expect(otherTrip.status).toBe(404);
  });

  it('updates with the current ETag: Origin Integration, Access Internal, refreshed ETag, trip.changed', async () => {
    const current = await etagOf('trp_refs2');
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await update('trp_refs2', 'ref_free', { Name: 'Dock', Value: '9' }, current);
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      Id: 'ref_free',
      ReferenceId: null,
      Name: 'Dock',
      Value: '9',
      Type: 'Text',
      Access: 'Internal',
      Origin: 'Integration',
    });
    const etag = response.headers.get('etag');
    expect(etag).not.toBe(current);
    expect(await etagOf('trp_refs2')).toBe(etag);
    expect(events.map((e) => e.type)).toEqual(['trip.changed']);
    expect(events[0]!.data.diff.changes).toEqual(
      expect.arrayContaining([
        { Field: 'References[ref_free].Value', From: '7', To: '9' },
        { Field: 'References[ref_free].Access', From: 'Public', To: 'Internal' },
        { Field: 'References[ref_free].Origin', From: 'Manual', To: 'Integration' },
      ]),
    );
  });

  it('takes the ETag bare or as *', async () => {
    const bare = (await etagOf('trp_refs2')).replace(/"/g, '');
    const first = await update('trp_refs2', 'ref_free', { Name: 'Dock', Value: '10' }, bare);
    expect(first.status).toBe(200);
    const star = await update('trp_refs2', 'ref_free', { Name: 'Dock', Value: '11' }, '*');
    expect(star.status).toBe(200);
    expect(star.body.Value).toBe('11');
  });

  it('changes nothing, keeps the ETag and emits nothing when the values are the same', async () => {
    const current = await etagOf('trp_refs2');
    let response: any;
    const events = await eventsDuring(t, async () => {
      response = await update('trp_refs2', 'ref_free', { Name: 'Dock', Value: '11' }, current);
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(current);
    expect(events).toEqual([]);
  });

  it('keeps the definition when ReferenceId is absent and validates against it', async () => {
    const wrongName = await update('trp_refs2', 'ref_seal', { Name: 'Seal', Value: 'S-2' }, '*');
    expect(wrongName.status).toBe(400);
    expect(Object.keys(wrongName.body.Errors)).toEqual(['Name']);
    const ok = await update('trp_refs2', 'ref_seal', { Name: 'Seal Number', Value: 'S-2' }, '*');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ReferenceId: 'refdef_seal', Value: 'S-2' });
  });

  it('moves a reference to a Date definition only with a date value', async () => {
    const bad = await update('trp_refs2', 'ref_seal', { ReferenceId: 'refdef_pickup_date', Name: 'Pickup Date', Value: 'soon' }, '*');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.Errors)).toEqual(['Value']);
    const ok = await update('trp_refs2', 'ref_seal', { ReferenceId: 'refdef_pickup_date', Name: 'Pickup Date', Value: '2026-11-23' }, '*');
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ ReferenceId: 'refdef_pickup_date', Type: 'Date' });
  });

  it('is 409 DuplicateReference when the trip already holds a value for the definition', async () => {
    const response = await update('trp_refs2', 'ref_free', { ReferenceId: 'refdef_po', Name: 'PO Number', Value: 'PO-3' }, '*');
    expect(response.status).toBe(409);
    expect(response.body.Type).toMatch(/\/errors\/Conflict\/DuplicateReference$/);
  });

  it('is 404 for a definition that does not exist or is not for trips', async () => {
    const response = await update('trp_refs2', 'ref_free', { ReferenceId: 'refdef_load_only', Name: 'Load Only', Value: 'x' }, '*');
    expect(response.status).toBe(404);
  });

  it('makes a catalog reference a free one with ReferenceId null', async () => {
    const response = await update('trp_refs2', 'ref_po', { ReferenceId: null, Name: 'Customer PO', Value: 'PO-1' }, '*');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ ReferenceId: null, Name: 'Customer PO', Type: 'Text' });
  });
});
