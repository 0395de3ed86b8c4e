/**
 * The 214 of a stop's arrival or departure (docs/edi.md#outbound-214), in the trip write that
 * records it: manual (the stop routes) or by geofence, since both go through core/trips'
 * stop-visit.ts, which hands every recorded or corrected time here (core/router.ts). A corrected
 * time sends a new 214 with the same status and the new time; a cleared one sends nothing.
 */
import type { StopWrite } from '../../trips/stop-write.js';
import { findPartnerTrip } from './edi-links.repository.js';
import { statusCodeOfVisit } from './map-214.js';
import { exchanges } from './partner-sets.js';
import { send214 } from './status-214.js';

export async function send214OfVisit(write: StopWrite, visit: { kind: 'Arrival' | 'Departure'; at: string }): Promise<void> {
  const code = statusCodeOfVisit(write.stop.stop_type, visit.kind);
  if (!code) return;
  const link = await findPartnerTrip(write.trx, write.before.meta);
  if (!link || !exchanges(link.partner, '214')) return;
  const { stop } = write;
  await send214(write.trx, write.clock, link, {
    code,
    at: visit.at,
    place: { city: stop.address_city, state: stop.address_state, country: stop.address_country },
  });
}
