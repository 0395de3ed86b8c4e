import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteClient } from '../examples/internal-app.js';
import { createCaller } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { startTestApp, type TestApp } from './harness.js';
import type { z } from 'zod';
import type { ZNewLoad } from '../core/loads/new-load.schemas.js';

type TNewLoad = z.input<typeof ZNewLoad>;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const tenantWide: Principal = { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal', Scopes: ['load:update', 'trip:update'] };
const caller = (principal: Principal) => createCaller({ db: t.db, clock: t.clock, config: t.config, principal });

function newLoad(suffix: string, overrides: Partial<TNewLoad> = {}): TNewLoad {
  return {
    Id: `lod_new_${suffix}`,
    LoadNumber: `L-NEW-${suffix}`,
    SubsidiaryId: 'sub_kc',
    CustomerId: 'cus_heartland',
    Trips: [
      {
        Id: `trp_new_${suffix}`,
        TripNumber: `T-NEW-${suffix}`,
        DriverId: 'drv_ana',
        Stops: [
          {
            Id: `stp_new_${suffix}_1`,
            $type: 'appointment',
            StopType: 'Pickup',
            ScheduleType: 'APPT',
            AppointmentDate: '2026-11-25T15:00:00Z',
            Address: { Street: '1 Main St', City: 'Kansas City', State: 'MO', ZipCode: '64105' },
            Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
          },
          {
            Id: `stp_new_${suffix}_2`,
            $type: 'delivery_window',
            StopType: 'Delivery',
            ScheduleType: 'FCFS',
            StopWindow: { Begin: '2026-11-26T14:00:00Z', End: '2026-11-26T20:00:00Z' },
            Address: { Street: '9 Elm St', City: 'Wichita', State: 'KS', ZipCode: '67202' },
          },
        ],
        References: [{ Id: `ref_new_${suffix}`, ReferenceId: 'refdef_po', Name: 'PO Number', Value: 'PO-1' }],
      },
    ],
    ...overrides,
  };
}

describe('loads.importLoad (internal, tRPC only)', () => {
  it('creates a load with the fixture defaults, readable over REST', async () => {
    const load = await caller(tenantWide).loads.importLoad(newLoad('a'));
    expect(load).toMatchObject({ LoadNumber: 'L-NEW-a', Status: 'Planned', SubsidiaryId: 'sub_kc' });
    const trip = await t.api('/api/p/v1.0/trips/trp_new_a', { as: 'prairie-integration' });
    expect(trip.status).toBe(200);
    // Manual ETA defaults from the appointment and the window's Begin; time zone from coordinates.
    expect(trip.body.Stops.map((stop: any) => stop.Eta?.Manual)).toEqual(['2026-11-25T15:00:00.000Z', '2026-11-26T14:00:00.000Z']);
    expect(trip.body.References[0]).toMatchObject({ Name: 'PO Number', Value: 'PO-1', Type: 'Text' });
  });

  it('works over the tRPC client with a bearer token', async () => {
    const client = remoteClient(t.apiUrl, await t.token('tn_prairie-all'));
    const load = await client.loads.importLoad.mutate(newLoad('b'));
    expect(load.LoadNumber).toBe('L-NEW-b');
  });

  it('refuses ids and load numbers that exist, and writes nothing', async () => {
    await expect(caller(tenantWide).loads.importLoad(newLoad('c', { LoadNumber: 'L-1001' }))).rejects.toMatchObject({ appCode: 'CONFLICT' });
    await expect(caller(tenantWide).loads.importLoad(newLoad('d', { Id: 'lod_1001' }))).rejects.toMatchObject({ appCode: 'CONFLICT' });
    const leftover = await t.db.selectFrom('trips').select('id').where('id', 'in', ['trp_new_c', 'trp_new_d']).execute();
    expect(leftover).toEqual([]);
  });

  it("treats another tenant's or subsidiary's records as not found", async () => {
    const harbor = caller({ ...tenantWide, TenantId: 'tn_harbor' });
    await expect(harbor.loads.importLoad(newLoad('e', { SubsidiaryId: 'sub_harbor_main' }))).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    const dallas = caller({ ...tenantWide, SubsidiaryId: 'sub_dal' });
    await expect(dallas.loads.importLoad(newLoad('f'))).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await expect(dallas.loads.importLoad(newLoad('g', { SubsidiaryId: undefined, CustomerId: undefined }))).rejects.toMatchObject({
      appCode: 'NOT_FOUND',
    });
  });

  it('needs load:update and trip:update, and validates the shape', async () => {
    await expect(caller({ ...tenantWide, Scopes: ['load:update'] }).loads.importLoad(newLoad('h'))).rejects.toMatchObject({ appCode: 'FORBIDDEN' });
    await expect(caller(tenantWide).loads.importLoad({ ...newLoad('i'), Colour: 'red' } as never)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('is not exposed over REST', async () => {
    const doc = (await t.api('/openapi.json')).body;
    expect(JSON.stringify(doc)).not.toContain('importLoad');
  });
});
