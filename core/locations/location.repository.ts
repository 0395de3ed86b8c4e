import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { LocationsTable } from '../../db/tables/master-data.js';
import { etagOf } from '../shared/etag.js';
import { inScope, type Scope } from '../shared/scope.js';
import { updateAtVersion } from '../shared/update-at-version.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { containsText, inDateTimeRange, stringList } from '../shared/master-data-filters.js';
import type { TGeofence } from './geofence.schemas.js';
import { locationTimeZone } from './location-time-zone.js';
import type { TLocation, TLocationFilter } from './location.schemas.js';

export type LocationRow = Selectable<LocationsTable>;

/** Locations belong to the tenant: every client of the tenant sees them. */
const locationsInScope = (scope: Scope) => inScope('locations', scope, { subsidiaryColumn: null });

/** The stored fence: a circle's radius or a polygon's points, never both. */
function geofenceOf(row: Pick<LocationRow, 'geofence_radius_meters' | 'geofence_polygon'>): TGeofence | null {
  if (row.geofence_radius_meters !== null) return { RadiusMeters: row.geofence_radius_meters };
  if (row.geofence_polygon !== null) return { Polygon: JSON.parse(row.geofence_polygon) as Array<[string, string]> };
  return null;
}

/** The columns of a fence. */
export function geofenceColumns(fence: TGeofence | null): Pick<LocationRow, 'geofence_radius_meters' | 'geofence_polygon'> {
  return {
    geofence_radius_meters: fence && 'RadiusMeters' in fence ? fence.RadiusMeters : null,
    geofence_polygon: fence && 'Polygon' in fence ? JSON.stringify(fence.Polygon) : null,
  };
}

/** A new location as a create or a fixture gives it; what it leaves out gets the API's defaults (docs/api-rules.md#locations). */
export interface NewLocation {
  Name: string;
  CompanyNumber?: string | null | undefined;
  Type: string;
  Status?: string | null | undefined;
  PhysicalAddress: { Street: string; City: string; State: string; ZipCode: string; Country?: string | null | undefined };
  Coordinates?: { Latitude: string; Longitude: string } | null | undefined;
  TimeZone?: string | null | undefined;
  Email?: readonly string[] | null | undefined;
  Phone?: readonly string[] | null | undefined;
  ExternalId?: string | null | undefined;
  Geofence?: TGeofence | null | undefined;
  DepartRadiusMeters?: number | null | undefined;
  DetentionFreeMinutes?: number | null | undefined;
}

/** The row of a new location (version 1). */
export function newLocationRow(tenantId: string, id: string, location: NewLocation, times: Pick<LocationRow, 'created_at' | 'updated_at'>): LocationRow {
  const address = location.PhysicalAddress;
  const coordinates = location.Coordinates ?? null;
  return {
    id,
    tenant_id: tenantId,
    name: location.Name,
    company_number: location.CompanyNumber ?? null,
    type: location.Type,
    status: location.Status ?? 'Active',
    address_street: address.Street,
    address_city: address.City,
    address_state: address.State,
    address_zip_code: address.ZipCode,
    address_country: address.Country ?? null,
    latitude: coordinates?.Latitude ?? null,
    longitude: coordinates?.Longitude ?? null,
    time_zone: locationTimeZone(location.TimeZone, coordinates),
    emails: JSON.stringify(location.Email ?? []),
    phones: JSON.stringify(location.Phone ?? []),
    external_id: location.ExternalId ?? null,
    version: 1,
    ...geofenceColumns(location.Geofence ?? null),
    depart_radius_meters: location.DepartRadiusMeters ?? null,
    detention_free_minutes: location.DetentionFreeMinutes ?? null,
    ...times,
  };
}

export const locationEtag = (row: Pick<LocationRow, 'id' | 'version'>) => etagOf(row.id, row.version);

export function toLocation(row: LocationRow): TLocation {
  return {
    Id: row.id,
    Name: row.name,
    CompanyNumber: row.company_number,
    Type: row.type as TLocation['Type'],
    Status: row.status as TLocation['Status'],
    PhysicalAddress: {
      Street: row.address_street,
      City: row.address_city,
      State: row.address_state,
      ZipCode: row.address_zip_code,
      Country: row.address_country,
    },
    Coordinates: row.latitude === null || row.longitude === null ? null : { Latitude: row.latitude, Longitude: row.longitude },
    TimeZone: row.time_zone,
    Email: stringList(row.emails),
    Phone: stringList(row.phones),
    ExternalId: row.external_id,
    Geofence: geofenceOf(row),
    DepartRadiusMeters: row.depart_radius_meters,
    DetentionFreeMinutes: row.detention_free_minutes,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export async function getLocationRow(db: Db, scope: Scope, id: string): Promise<LocationRow | undefined> {
  return db.selectFrom('locations').selectAll().where(locationsInScope(scope)).where('id', '=', id).executeTakeFirst();
}

export async function getLocation(db: Db, scope: Scope, id: string): Promise<TLocation | undefined> {
  const row = await getLocationRow(db, scope, id);
  return row && toLocation(row);
}

export async function insertLocation(trx: Db, row: Insertable<LocationsTable>): Promise<void> {
  await trx.insertInto('locations').values(row).execute();
}

/** Writes `changes` and the next version to the location still at the version read; answers whether it wrote. */
export async function updateLocationAtVersion(trx: Db, scope: Scope, row: LocationRow, changes: Updateable<LocationsTable>): Promise<boolean> {
  return updateAtVersion(trx, 'locations', scope, row, changes);
}

/** Newest UpdatedAt first, the id breaking ties. */
const LOCATION_ORDER = thenById('locations', { column: 'updated_at', type: 'text', desc: true });

export async function findLocations(db: Db, scope: Scope, filter: TLocationFilter): Promise<PageOf<TLocation>> {
  const conditions: Expression<SqlBool>[] = [locationsInScope(scope), ...inDateTimeRange('locations.updated_at', filter.UpdatedAtRange)];
  if (filter.Statuses) conditions.push(sql<SqlBool>`${sql.ref('locations.status')} in (${sql.join(filter.Statuses)})`);
  if (filter.Types) conditions.push(sql<SqlBool>`${sql.ref('locations.type')} in (${sql.join(filter.Types)})`);
  if (filter.LocationIds) conditions.push(sql<SqlBool>`${sql.ref('locations.id')} in (${sql.join(filter.LocationIds)})`);
  if (filter.Name) conditions.push(containsText('locations.name', filter.Name));
  if (filter.CompanyNumber !== undefined) conditions.push(sql<SqlBool>`${sql.ref('locations.company_number')} = ${filter.CompanyNumber}`);
  const query = db.selectFrom('locations').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'locations', order: LOCATION_ORDER, page: filter });
  return { ...page, items: page.items.map(toLocation) };
}

/** What a stop naming a location shows of it. */
export interface LocationName {
  companyNumber: string | null;
  name: string;
}

/** The CompanyNumber and name of the tenant's locations among `ids` (stops show them), by id. */
export async function locationNames(db: Db, tenantId: string, ids: readonly string[]): Promise<Map<string, LocationName>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('locations')
    .select(['id', 'company_number', 'name'])
    .where(locationsInScope({ tenantId, subsidiaryId: null }))
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((row) => [row.id, { companyNumber: row.company_number, name: row.name }]));
}

/** The location's own detention free time (docs/api-rules.md#detention); null when it has none or is not the tenant's. */
export async function locationFreeMinutes(db: Db, tenantId: string, id: string): Promise<number | null> {
  const row = await db
    .selectFrom('locations')
    .select('detention_free_minutes')
    .where(locationsInScope({ tenantId, subsidiaryId: null }))
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.detention_free_minutes ?? null;
}
