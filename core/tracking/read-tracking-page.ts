import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { AppError } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { deliveryEta } from './delivery-eta.js';
import { findTrackingLink } from './tracking-link.repository.js';
import type { TrackingPage } from './tracking-page.js';
import { findLastPosition, findPublicNotes, findPublicReferences, findRouteStops, findRouteTrips, getLoadRow } from './tracking-page.repository.js';
import { trackingTokenHash } from './tracking-token.js';

const NOT_FOUND_MESSAGE = 'No tracking page exists at this link.';

/**
 * The page behind a tracking token: 404 for a token never issued or revoked (and for a load
 * since deleted), 410 for a genuine link past its 30 days. The link itself is the credential:
 * the load is read in the link's tenant, with every subsidiary.
 */
export async function readTrackingPage(deps: { db: Db; clock: Clock }, token: string): Promise<TrackingPage> {
  const hash = trackingTokenHash(token);
  const link = hash === null ? undefined : await findTrackingLink(deps.db, hash);
  if (!link || link.revoked_at !== null) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
  const now = deps.clock.now();
  if (now.getTime() >= Date.parse(link.expires_at)) {
    throw new AppError('GONE', 'This tracking link has expired; ask the sender for a new one.');
  }
  const load = await getLoadRow(deps.db, { tenantId: link.tenant_id, subsidiaryId: null }, { loadId: link.load_id });
  if (!load) throw new AppError('NOT_FOUND', NOT_FOUND_MESSAGE);
  const trips = await findRouteTrips(deps.db, load.tenant_id, load.id);
  const tripIds = trips.map((trip) => trip.id);
  const [stops, references, notes, lastPosition] = await Promise.all([
    findRouteStops(deps.db, load.tenant_id, tripIds),
    findPublicReferences(deps.db, load.tenant_id, tripIds),
    findPublicNotes(deps.db, load.tenant_id, load.id),
    findLastPosition(deps.db, load.tenant_id, trips),
  ]);
  return {
    LoadNumber: load.load_number,
    Status: load.status,
    References: references,
    Notes: notes,
    Stops: stops.map(({ eta: _eta, ...stop }) => stop),
    DeliveryEta: deliveryEta(stops),
    LastPosition: lastPosition,
    ExpiresAt: link.expires_at,
    GeneratedAt: formatStoredDateTime(now),
  };
}
