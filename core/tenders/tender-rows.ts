import type { TenderRow } from './tender.repository.js';
import type { TTenderStop, TTenderStopInput } from './tender.schemas.js';

/** A stop as stored and shown: every field present, null when not given. */
export function storedStop(stop: TTenderStopInput): TTenderStop {
  return {
    StopType: stop.StopType,
    ScheduleType: stop.ScheduleType,
    AppointmentDate: stop.ScheduleType === 'APPT' ? stop.AppointmentDate : null,
    StopWindow: stop.ScheduleType === 'FCFS' ? { Begin: stop.StopWindow.Begin, End: stop.StopWindow.End } : null,
    LoadingType: stop.LoadingType ?? null,
    Address: { Street: stop.Address.Street, City: stop.Address.City, State: stop.Address.State, ZipCode: stop.Address.ZipCode, Country: stop.Address.Country ?? null },
    Coordinates: stop.Coordinates ? { Latitude: stop.Coordinates.Latitude, Longitude: stop.Coordinates.Longitude } : null,
    LocationId: stop.LocationId ?? null,
  };
}

/** A tender as POST /tenders receives it or a fixture states it, after validation (stored date-times, minor units). */
export interface TenderValues {
  id: string;
  tenantId: string;
  /** The customer's. */
  subsidiaryId: string | null;
  customerId: string;
  externalId: string;
  status: string;
  receivedAt: string;
  respondBy: string | null;
  respondedAt: string | null;
  rejectionReason: string | null;
  load: { id: string; loadNumber: string } | null;
  rateMinor: number;
  currency: number;
  equipment: string | null;
  references: ReadonlyArray<{ Name: string; Value: string }>;
  stops: readonly TTenderStopInput[];
  createdAt: string;
  updatedAt: string;
}

/** The row of one tender; POST /tenders and the fixture loader both store tenders through it. */
export function tenderRow(values: TenderValues): TenderRow {
  return {
    id: values.id,
    tenant_id: values.tenantId,
    subsidiary_id: values.subsidiaryId,
    customer_id: values.customerId,
    external_id: values.externalId,
    status: values.status,
    received_at: values.receivedAt,
    respond_by: values.respondBy,
    responded_at: values.respondedAt,
    rejection_reason: values.rejectionReason,
    load_id: values.load?.id ?? null,
    load_number: values.load?.loadNumber ?? null,
    rate_amount: values.rateMinor,
    rate_currency: values.currency,
    equipment: values.equipment,
    references_json: JSON.stringify(values.references.map(({ Name, Value }) => ({ Name, Value }))),
    stops_json: JSON.stringify(values.stops.map(storedStop)),
    version: 1,
    created_at: values.createdAt,
    updated_at: values.updatedAt,
  };
}
