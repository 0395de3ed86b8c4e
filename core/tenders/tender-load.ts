import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/create-db.js';
import type { TNewLoad } from '../loads/new-load.schemas.js';
import { getLocation } from '../locations/location.repository.js';
import { fromMinorUnits } from '../shared/money.js';
import { newRecordId } from '../shared/record-id.js';
import type { Scope } from '../shared/scope.js';
import type { TNewStop } from '../trips/new-trip.schemas.js';
import type { TenderRow } from './tender.repository.js';
import type { TTenderStop } from './tender.schemas.js';

/** A LoadNumber for an accepted tender: new per tenant in practice, and checked by checkNewLoad. */
export const newLoadNumber = () => `TL-${randomUUID().slice(0, 8).toUpperCase()}`;

/**
 * The load an accepted tender becomes, in the shape every new load is built from
 * (`buildLoadRows`, shared with the fixture loader and the load creates), with the tender's Equipment: one Planned trip with
 * the tender's stops, its references (Origin Integration: they came from the shipper's system)
 * and one LineHaul line item of the Rate. A stop with a LocationId and no Coordinates takes the
 * location's time zone; stop times, ETAs and statuses follow the builders' defaults.
 */
export async function loadOfTender(db: Db, scope: Scope, tender: TenderRow, loadNumber: string): Promise<TNewLoad> {
  const stops: TTenderStop[] = JSON.parse(tender.stops_json);
  const references: Array<{ Name: string; Value: string }> = JSON.parse(tender.references_json);
  const loadStops: TNewStop[] = [];
  for (const stop of stops) {
    const location = stop.LocationId && !stop.Coordinates ? await getLocation(db, scope, stop.LocationId) : undefined;
    loadStops.push({
      Id: newRecordId('stp'),
      $type: stop.ScheduleType === 'APPT' ? 'appointment' : 'delivery_window',
      StopType: stop.StopType,
      ScheduleType: stop.ScheduleType,
      AppointmentDate: stop.AppointmentDate,
      StopWindow: stop.StopWindow && stop.StopWindow.Begin && stop.StopWindow.End ? { Begin: stop.StopWindow.Begin, End: stop.StopWindow.End } : null,
      LoadingType: stop.LoadingType,
      TimeZone: location?.TimeZone ?? null,
      Address: stop.Address,
      Coordinates: stop.Coordinates,
      CompanyId: stop.LocationId,
    });
  }
  return {
    Id: newRecordId('lod'),
    LoadNumber: loadNumber,
    SubsidiaryId: tender.subsidiary_id,
    CustomerId: tender.customer_id,
    Equipment: tender.equipment,
    Trips: [
      {
        Id: newRecordId('trp'),
        TripNumber: `${loadNumber}-1`,
        Status: 'Planned',
        Stops: loadStops,
        References: references.map((reference) => ({ Id: newRecordId('ref'), Name: reference.Name, Value: reference.Value, Origin: 'Integration' })),
        LineItems: [{ Description: 'Line haul', Type: 'LineHaul', Amount: { Amount: fromMinorUnits(Number(tender.rate_amount)), Currency: tender.rate_currency } }],
      },
    ],
  };
}
