import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { LocationsTable } from '../../db/tables/master-data.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { containsText, inDateTimeRange, stringList } from '../shared/master-data-filters.js';
import type { TLocation, TLocationFilter } from './location.schemas.js';

/** Locations belong to the tenant: every client of the tenant sees them. */
const locationsInScope = (scope: Scope) => inScope('locations', scope, { subsidiaryColumn: null });

export function toLocation(row: Selectable<LocationsTable>): TLocation {
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
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export async function getLocation(db: Db, scope: Scope, id: string): Promise<TLocation | undefined> {
  const row = await db.selectFrom('locations').selectAll().where(locationsInScope(scope)).where('id', '=', id).executeTakeFirst();
  return row && toLocation(row);
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
