import type { AssetKind } from '../assets/position-asset.repository.js';
import { AppError } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import type { TAddress } from '../shared/place.schemas.js';
import { scopeOf } from '../shared/scope.js';
import type { Context } from '../trpc.js';
import { heldRecordedAt, toAssetLocation } from './position.repository.js';
import { positionWriterFor } from './position-writer.js';
import type { TAssetLocation, TRecordLocationInput } from './position.schemas.js';
import { formatAddress, resolveAddress } from './reverse-geocode.js';

/** What an accepted reading does besides being held, for both position routes' descriptions. */
export const POSITION_EFFECTS =
  'An accepted reading attaches to a trip (TripId, else the asset\'s Dispatched or InTransit trip whose next Open stop is nearest), ' +
  'refreshes its Live ETAs on the HosEta plan, shares tracking.location with the load\'s customer, and watches the trip\'s ' +
  'geofences: readings inside the fence of the trip\'s next Open stop for 2 minutes or more ' +
  'record its arrival (ArrivedAt: the first of them), and a reading beyond the depart radius of an Arrived stop records its ' +
  'departure, with ArrivalSource/DepartureSource Geofence and the events, status moves and shares of the stop routes, committed ' +
  'with the reading. A geofence never overwrites a recorded arrival or departure, and watches only Dispatched and InTransit trips.';

/** Positions submitted through this API (2.4 Source). */
export const PUBLIC_API_SOURCE = 'PublicApi';
const MAX_AHEAD_MS = 5 * 60 * 1000;

/** 422 FutureRecordedAt for a reading more than 5 minutes ahead of the server clock (docs/api-rules.md#rate-limits); undefined otherwise. */
function futureRecordedAt(recordedAt: string, now: number): AppError | undefined {
  if (Date.parse(recordedAt) <= now + MAX_AHEAD_MS) return undefined;
  return new AppError('UNPROCESSABLE', 'RecordedAt is more than 5 minutes ahead of the server clock.', {
    subtype: 'FutureRecordedAt',
  });
}

export function assertNotAhead(recordedAt: string, now: number): void {
  const error = futureRecordedAt(recordedAt, now);
  if (error) throw error;
}

function givenAddress(address: NonNullable<TRecordLocationInput['Address']>): TAddress {
  return {
    Street: address.Street ?? null,
    City: address.City ?? null,
    State: address.State ?? null,
    ZipCode: address.ZipCode ?? null,
    Country: address.Country ?? null,
  };
}

/**
 * Records one position (4.7), for both the untyped and the typed path. Checks in the API's
 * order: asset and trip lookups (404), then RecordedAt ahead of the clock (422), then ordering
 * against the held position (409). The held row, the history row and the Live ETAs commit
 * together (in a group commit shared with other readings, core/visibility/position-writer.ts),
 * so a stale or failed reading leaves no trace and fires no second tracking update.
 */
export async function recordPosition(
  ctx: Pick<Context, 'db' | 'clock'> & { principal: NonNullable<Context['principal']> },
  input: TRecordLocationInput,
  kind?: AssetKind,
): Promise<TAssetLocation> {
  const scope = scopeOf(ctx.principal);
  const latitude = Number(input.Coordinates.Latitude);
  const longitude = Number(input.Coordinates.Longitude);
  const now = ctx.clock.now().getTime();
  const receivedAt = formatStoredDateTime(now);
  const recordedAt = input.RecordedAt ?? receivedAt;

  const address = input.Address ? givenAddress(input.Address) : resolveAddress(latitude, longitude);
  const odometer = input.Odometer ? input.Odometer : null;
  const { row, held } = await positionWriterFor(ctx.db).record({
    scope,
    assetId: input.assetId,
    kind,
    tripId: input.TripId,
    point: { latitude, longitude },
    recordedAt: Date.parse(recordedAt),
    clock: ctx.clock,
    reading: {
      tenant_id: scope.tenantId,
      source: PUBLIC_API_SOURCE,
      latitude: input.Coordinates.Latitude,
      longitude: input.Coordinates.Longitude,
      street: address?.Street ?? null,
      city: address?.City ?? null,
      state: address?.State ?? null,
      zip_code: address?.ZipCode ?? null,
      country: address?.Country ?? null,
      formatted_address: formatAddress(address),
      recorded_at: recordedAt,
      received_at: receivedAt,
      odometer,
      odometer_reading_at: odometer === null ? null : (input.OdometerReadingAt ?? null),
    },
    // Refused only once the asset and the trip are known (their 404s come first).
    refusal: futureRecordedAt(recordedAt, now),
  });
  if (!held) {
    const current = await heldRecordedAt(ctx.db, scope, row.asset_id, PUBLIC_API_SOURCE);
    throw new AppError('CONFLICT', 'A position with a newer or equal RecordedAt is already held for this asset; the reading was discarded.', {
      subtype: 'StaleLocation',
      extensions: { CurrentRecordedAt: current ?? null },
    });
  }
  return toAssetLocation(row);
}
