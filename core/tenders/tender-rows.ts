import type { StoredTenderStop, TenderRow } from './tender.repository.js';
import type { TTenderStopInput } from './tender.schemas.js';

/**
 * A stop as stored: every field of the API's stop present, null when not given, except
 * CompanyName and References, kept only when given, so a tender stored before stops had them
 * (and its idempotency fingerprint) reads and compares as before. `shownStop` (tender.repository.ts) completes them.
 */
export function storedStop(stop: TTenderStopInput): StoredTenderStop {
  return {
    StopType: stop.StopType,
    ScheduleType: stop.ScheduleType,
    AppointmentDate: stop.ScheduleType === 'APPT' ? stop.AppointmentDate : null,
    StopWindow: stop.ScheduleType === 'FCFS' ? { Begin: stop.StopWindow.Begin, End: stop.StopWindow.End } : null,
    LoadingType: stop.LoadingType ?? null,
    Address: { Street: stop.Address.Street, City: stop.Address.City, State: stop.Address.State, ZipCode: stop.Address.ZipCode, Country: stop.Address.Country ?? null },
    Coordinates: stop.Coordinates ? { Latitude: stop.Coordinates.Latitude, Longitude: stop.Coordinates.Longitude } : null,
    LocationId: stop.LocationId ?? null,
    ...(stop.CompanyName ? { CompanyName: stop.CompanyName } : {}),
    ...(stop.References?.length ? { References: stop.References.map(({ Name, Value }) => ({ Name, Value })) } : {}),
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
  /** The EDI trading partner whose 204 the tender came from; null for the API and fixtures. */
  ediPartnerId?: string | null;
  createdAt: string;
  updatedAt: string;
}

export type TermValues = Pick<TenderValues, 'respondBy' | 'rateMinor' | 'currency' | 'equipment' | 'references' | 'stops'>;

/** The columns of what a sender states (a 204 change replaces exactly these). */
export function termColumns(values: TermValues): Pick<TenderRow, 'respond_by' | 'rate_amount' | 'rate_currency' | 'equipment' | 'references_json' | 'stops_json'> {
  return {
    respond_by: values.respondBy,
    rate_amount: values.rateMinor,
    rate_currency: values.currency,
    equipment: values.equipment,
    references_json: JSON.stringify(values.references.map(({ Name, Value }) => ({ Name, Value }))),
    stops_json: JSON.stringify(values.stops.map(storedStop)),
  };
}

/** The row of one tender; POST /tenders, an EDI 204 and the fixture loader all store tenders through it. */
export function tenderRow(values: TenderValues): TenderRow {
  return {
    ...termColumns(values),
    id: values.id,
    tenant_id: values.tenantId,
    subsidiary_id: values.subsidiaryId,
    customer_id: values.customerId,
    external_id: values.externalId,
    status: values.status,
    received_at: values.receivedAt,
    responded_at: values.respondedAt,
    rejection_reason: values.rejectionReason,
    load_id: values.load?.id ?? null,
    load_number: values.load?.loadNumber ?? null,
    edi_partner_id: values.ediPartnerId ?? null,
    version: 1,
    created_at: values.createdAt,
    updated_at: values.updatedAt,
  };
}
