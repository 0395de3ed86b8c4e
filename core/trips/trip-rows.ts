import tzLookup from '@photostructure/tz-lookup';
import { toStoredDateTimeOrNull } from '../shared/datetime.js';
import { newRecordId } from '../shared/record-id.js';
import { spellTimeZone } from '../shared/time-zone.js';
import { DEFAULT_CURRENCY, toMinorUnits } from '../shared/money.js';
import { flag, type Row } from '../shared/row-set.js';
import { deriveStopStatus } from '../shared/statuses.js';
import type { TNewLineItem, TNewReference, TNewStop, TNewTrip } from './new-trip.schemas.js';

/** What the trip, stop, reference and line item rows take from where they are created. */
/** The reference definitions the references of new trips or stops name, once each: what `referenceRow` looks up. */
export function definitionIdsOf(records: readonly { References?: readonly { ReferenceId?: string | null }[] | null; Stops?: readonly { References?: readonly { ReferenceId?: string | null }[] | null }[] }[]): string[] {
  const references = records.flatMap((record) => [...(record.References ?? []), ...(record.Stops ?? []).flatMap((stop) => stop.References ?? [])]);
  return [...new Set(references.flatMap((reference) => (reference.ReferenceId ? [reference.ReferenceId] : [])))];
}

export interface TripRowsContext {
  tenantId: string;
  /** Stored date-time of the write. */
  now: string;
  /** The tenant's reference definitions by id: a catalog-backed reference takes its Type. */
  referenceDefinitions: Map<string, { Type: string }>;
}

/** A trip's row; it takes its subsidiary and load from the load it belongs to. */
export function tripRow(
  trip: TNewTrip,
  load: { Id: string; SubsidiaryId?: string | null },
  sequence: number,
  ctx: TripRowsContext,
): Row<'trips'> {
  return {
    id: trip.Id,
    tenant_id: ctx.tenantId,
    subsidiary_id: load.SubsidiaryId ?? null,
    load_id: load.Id,
    sequence,
    trip_number: trip.TripNumber,
    status: trip.Status ?? 'Planned',
    driver_id: trip.DriverId ?? null,
    truck_id: trip.TruckId ?? null,
    trailer_id: trip.TrailerId ?? null,
    carrier_id: trip.CarrierId ?? null,
    version: 1,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
}

/** The stop's IANA zone: as given (canonical spelling), else from its coordinates, else UTC. */
function stopTimeZone(stop: TNewStop): string {
  if (stop.TimeZone) return spellTimeZone(stop.TimeZone);
  if (stop.Coordinates) return tzLookup(Number(stop.Coordinates.Latitude), Number(stop.Coordinates.Longitude));
  return 'UTC';
}

export function stopRow(stop: TNewStop, trip: Pick<TNewTrip, 'Id'>, sequence: number, ctx: TripRowsContext): Row<'stops'> {
  const appointmentDate = toStoredDateTimeOrNull(stop.AppointmentDate);
  const windowBegin = toStoredDateTimeOrNull(stop.StopWindow?.Begin);
  const arrivedAt = toStoredDateTimeOrNull(stop.ArrivedAt);
  const departedAt = toStoredDateTimeOrNull(stop.DepartedAt);
  // docs/api-rules.md#positions-and-etas: Manual ETA defaults to the appointment (APPT) or the window's Begin (FCFS).
  const defaultManual = stop.ScheduleType === 'APPT' ? appointmentDate : windowBegin;
  // An explicit `Eta: null` means "no estimate"; an absent Eta or Manual gets the default.
  const eta = stop.Eta;
  const manual = eta === null ? null : eta?.Manual === undefined ? defaultManual : toStoredDateTimeOrNull(eta.Manual);
  return {
    id: stop.Id,
    tenant_id: ctx.tenantId,
    trip_id: trip.Id,
    sequence,
    stop_kind: stop.$type,
    stop_type: stop.StopType,
    schedule_type: stop.ScheduleType,
    appointment_requested: flag(stop.AppointmentRequested),
    appointment_confirmed: flag(stop.AppointmentConfirmed),
    appointment_date: appointmentDate,
    window_begin: windowBegin,
    window_end: toStoredDateTimeOrNull(stop.StopWindow?.End),
    loading_type: stop.LoadingType ?? null,
    // Times without a status imply one, so a fixture cannot load an arrived stop as Open.
    status: stop.Status ?? deriveStopStatus({ arrivedAt, departedAt }),
    time_zone: stopTimeZone(stop),
    address_street: stop.Address?.Street ?? null,
    address_city: stop.Address?.City ?? null,
    address_state: stop.Address?.State ?? null,
    address_zip_code: stop.Address?.ZipCode ?? null,
    address_country: stop.Address?.Country ?? null,
    latitude: stop.Coordinates?.Latitude ?? null,
    longitude: stop.Coordinates?.Longitude ?? null,
    company_id: stop.CompanyId ?? null,
    company_number: stop.CompanyNumber ?? null,
    company_name: stop.CompanyName ?? null,
    location_id: stop.LocationId ?? null,
    arrived_at: arrivedAt,
    departed_at: departedAt,
    // A stop created arrived (seeded, built from a tender) was received with it.
    arrival_received_at: arrivedAt === null ? null : ctx.now,
    departure_received_at: departedAt === null ? null : ctx.now,
    // docs/api-rules.md#geofences: data entered by people, unless it says a geofence recorded the time.
    arrival_source: arrivedAt === null ? null : (stop.ArrivalSource ?? 'Manual'),
    departure_source: departedAt === null ? null : (stop.DepartureSource ?? 'Manual'),
    geofence_entered_at: null,
    eta_planned: eta ? toStoredDateTimeOrNull(eta.Planned) : null,
    eta_live: eta ? toStoredDateTimeOrNull(eta.Live) : null,
    eta_manual: manual,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
}

/** A reference of a trip (`stopId` null) or of one of its stops. */
export function referenceRow(
  reference: TNewReference,
  tripId: string,
  stopId: string | null,
  ctx: TripRowsContext,
): Row<'trip_references'> {
  const definitionId = reference.ReferenceId ?? null;
  const definition = definitionId === null ? undefined : ctx.referenceDefinitions.get(definitionId);
  return {
    id: reference.Id,
    tenant_id: ctx.tenantId,
    trip_id: tripId,
    stop_id: stopId,
    reference_definition_id: definitionId,
    name: reference.Name,
    value: reference.Value,
    // Like API writes (docs/api-rules.md#trip-references): the definition's type, Text without one.
    type: reference.Type ?? definition?.Type ?? 'Text',
    access: reference.Access ?? 'Internal',
    // Fixture data stands for records entered in the product, not through an integration.
    origin: reference.Origin ?? 'Manual',
    created_at: ctx.now,
    updated_at: ctx.now,
  };
}

export function lineItemRow(item: TNewLineItem, tripId: string, sequence: number, ctx: TripRowsContext): Row<'trip_line_items'> {
  const rates = item.RatePolicies;
  return {
    id: newRecordId('tli'),
    tenant_id: ctx.tenantId,
    trip_id: tripId,
    sequence,
    description: item.Description,
    type: item.Type,
    amount: toMinorUnits(item.Amount.Amount),
    currency: item.Amount.Currency ?? DEFAULT_CURRENCY,
    hourly_pay_rate: rates?.HourlyPayRate == null ? null : toMinorUnits(rates.HourlyPayRate),
    hourly_rest_breaks_rate: rates?.HourlyRestBreaksRate == null ? null : toMinorUnits(rates.HourlyRestBreaksRate),
    created_at: ctx.now,
  };
}
