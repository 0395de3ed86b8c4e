import { testFixture, type TestApp } from '../harness.js';

/**
 * The test fixture plus trips of tn_prairie in the states the write tests need, one load per
 * trip so that each test owns its trip and the load's status follows that trip alone.
 */

export interface TripSpec {
  id: string;
  status: string;
  subsidiary?: string;
  driverId?: string;
  /** Pickup (Kansas City, APPT) state. */
  pickup?: { arrivedAt?: string; departedAt?: string; status?: string };
  /** Delivery (Oklahoma City, FCFS window) state. */
  delivery?: { arrivedAt?: string; departedAt?: string; status?: string };
  /** A waypoint (Wichita, FCFS) between them. */
  waypoint?: boolean;
}

export const PICKUP_APPOINTMENT = '2026-11-23T15:00:00Z';
export const WINDOW = { Begin: '2026-11-24T14:00:00Z', End: '2026-11-24T22:00:00Z' };

function tripOf(spec: TripSpec) {
  const stops: any[] = [
    {
      Id: `${spec.id}_p`,
      $type: 'appointment',
      StopType: 'Pickup',
      ScheduleType: 'APPT',
      AppointmentDate: PICKUP_APPOINTMENT,
      TimeZone: 'America/Chicago',
      Address: { Street: '1200 Genessee St', City: 'Kansas City', State: 'MO', ZipCode: '64102', Country: 'US' },
      Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
      ...(spec.pickup?.arrivedAt ? { ArrivedAt: spec.pickup.arrivedAt } : {}),
      ...(spec.pickup?.departedAt ? { DepartedAt: spec.pickup.departedAt } : {}),
      ...(spec.pickup?.status ? { Status: spec.pickup.status } : {}),
    },
  ];
  if (spec.waypoint) {
    stops.push({
      Id: `${spec.id}_w`,
      $type: 'waypoint',
      StopType: 'Waypoint',
      ScheduleType: 'FCFS',
      StopWindow: { Begin: '2026-11-24T02:00:00Z', End: '2026-11-24T06:00:00Z' },
      Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' },
    });
  }
  stops.push({
    Id: `${spec.id}_d`,
    $type: 'delivery_window',
    StopType: 'Delivery',
    ScheduleType: 'FCFS',
    StopWindow: WINDOW,
    TimeZone: 'America/Chicago',
    Address: { Street: '4500 Pioneer Pkwy', City: 'Oklahoma City', State: 'OK', ZipCode: '73108' },
    Coordinates: { Latitude: '35.4676', Longitude: '-97.5164' },
    ...(spec.delivery?.arrivedAt ? { ArrivedAt: spec.delivery.arrivedAt } : {}),
    ...(spec.delivery?.departedAt ? { DepartedAt: spec.delivery.departedAt } : {}),
    ...(spec.delivery?.status ? { Status: spec.delivery.status } : {}),
  });
  return {
    Id: spec.id,
    TripNumber: `T-${spec.id}`,
    Status: spec.status,
    ...(spec.driverId ? { DriverId: spec.driverId } : {}),
    Stops: stops,
  };
}

export function tripWriteFixture(specs: readonly TripSpec[]): any {
  const fixture = testFixture();
  const prairie = fixture.Tenants.find((tenant: any) => tenant.Id === 'tn_prairie');
  for (const spec of specs) {
    prairie.Loads.push({
      Id: `lod_${spec.id}`,
      LoadNumber: `L-${spec.id}`,
      SubsidiaryId: spec.subsidiary ?? 'sub_kc',
      Status: spec.status,
      Trips: [tripOf(spec)],
    });
  }
  return fixture;
}

export interface OutboxEvent {
  type: string;
  subsidiaryId: string | null;
  tenantId: string;
  data: any;
}

/** The events `action` appended to the outbox, in order. */
export async function eventsDuring(t: TestApp, action: () => Promise<unknown>): Promise<OutboxEvent[]> {
  const before = new Set((await t.db.selectFrom('outbox').select('id').execute()).map((row) => row.id));
  await action();
  const rows = await t.db.selectFrom('outbox').selectAll().where('kind', '=', 'event').orderBy('created_at').orderBy('id').execute();
  return rows
    .filter((row) => !before.has(row.id))
    .map((row) => ({ type: row.type, subsidiaryId: row.subsidiary_id, tenantId: row.tenant_id, data: JSON.parse(row.payload) }));
}

/** The trip's version as stored (the ETag's source). */
export async function tripVersion(t: TestApp, tripId: string): Promise<number> {
  const row = await t.db.selectFrom('trips').select('version').where('id', '=', tripId).executeTakeFirstOrThrow();
  return Number(row.version);
}
