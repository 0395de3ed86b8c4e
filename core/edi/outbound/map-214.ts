/**
 * The 214 (shipment status) of one status of a load tendered by a partner
 * (docs/edi.md#outbound-214): B10 (our LoadNumber, the shipper's shipment id, our SCAC), the
 * tender's references as L11 with their received qualifiers, then one LX loop: AT7 (status,
 * reason `NS` normal, date, time, `UT`), MS1 (where: city, state, country) and MS2 (our SCAC and
 * the truck) when known.
 */
import { formatX12Date, formatX12Time } from '../x12/index.js';
import { element, segment } from './elements.js';
import type { ReceivedReference } from './reference-qualifiers.js';

/**
 * AT7-01 Shipment Status Codes we send: `X3` arrived at pickup, `AF` departed pickup, `X1`
 * arrived at delivery, `CD` departed delivery, `X6` en route, `AG` estimated delivery.
 */
export type ShipmentStatusCode = 'X3' | 'AF' | 'X1' | 'CD' | 'X6' | 'AG';

export interface StatusPlace {
  city: string | null;
  state: string | null;
  country: string | null;
}

export interface ShipmentStatus {
  scac: string;
  loadNumber: string;
  shipmentId: string;
  references: readonly ReceivedReference[];
  code: ShipmentStatusCode;
  /** When it happened (for `AG`: the estimated delivery). */
  at: Date;
  place: StatusPlace | null;
  /** The trip's truck; MS2 only when there is one. */
  truckNumber: string | null;
}

export function statusCodeOfVisit(stopType: string, visit: 'Arrival' | 'Departure'): ShipmentStatusCode | null {
  if (stopType === 'Pickup') return visit === 'Arrival' ? 'X3' : 'AF';
  if (stopType === 'Delivery') return visit === 'Arrival' ? 'X1' : 'CD';
  return null; // a waypoint is no shipment status in 004010
}

/**
 * MS1 (element 19 City Name 2-30, 156 State 2, 26 Country 2-3): only with a city and a
 * two-letter state or province, since MS1-01 requires MS1-02 and a partial place would be
 * rejected by the shipper's translator; the country when it is a code.
 */
function ms1(place: StatusPlace | null): string[] | null {
  const city = element(place?.city, 30);
  const state = element(place?.state, 2).toUpperCase();
  if (city.length < 2 || !/^[A-Z]{2}$/.test(state) || element(place?.state, 3).length !== 2) return null;
  const country = element(place?.country, 3).toUpperCase();
  return segment('MS1', city, state, /^[A-Z]{2,3}$/.test(country) ? country : '');
}

export function map214(status: ShipmentStatus): string[][] {
  const body = [segment('B10', element(status.loadNumber, 30), element(status.shipmentId, 30), element(status.scac, 4))];
  for (const reference of status.references) {
    const value = element(reference.value, 30);
    if (value) body.push(segment('L11', value, reference.qualifier));
  }
  body.push(segment('LX', '1'));
  body.push(segment('AT7', status.code, 'NS', '', '', formatX12Date(status.at), formatX12Time(status.at), 'UT'));
  const place = ms1(status.place);
  if (place) body.push(place);
  const truck = element(status.truckNumber, 10);
  if (truck) body.push(segment('MS2', element(status.scac, 4), truck));
  return body;
}
