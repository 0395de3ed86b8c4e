import type { DeliveryEta } from './tracking-page.js';
import type { RouteStop } from './tracking-page.repository.js';

/**
 * The delivery ETA the page states (docs/api-rules.md#tracking-links: Live, else Planned, else Manual), of the
 * route's last Delivery stop, measured against its appointment or, for a window, the window's
 * end: arriving inside a window is on time.
 */
export function deliveryEta(stops: readonly RouteStop[]): DeliveryEta | null {
  const delivery = stops.findLast((stop) => stop.StopType === 'Delivery');
  if (!delivery) return null;
  const { live, planned, manual } = delivery.eta;
  const [at, source] = live ? [live, 'Live' as const] : planned ? [planned, 'Planned' as const] : manual ? [manual, 'Manual' as const] : [null, null];
  if (at === null || source === null) return null;
  const target = delivery.AppointmentDate ?? delivery.StopWindow?.End ?? null;
  const targetKind = delivery.AppointmentDate ? 'Appointment' : target ? 'Window' : null;
  const minutesLate = target === null ? null : Math.round((Date.parse(at) - Date.parse(target)) / 60_000);
  return { At: at, Source: source, StopSequence: delivery.Sequence, Target: target, TargetKind: targetKind, MinutesLate: minutesLate };
}
