import type { z } from 'zod';
import type { Db } from '../../db/create-db.js';
import type { Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { findDrivers, findTrailers, findTrucks, toDriver, toTrailer, toTruck, type AssetRow, type AssetTable } from './asset.repository.js';
import {
  ZCreateDriverInput,
  ZCreateTrailerInput,
  ZCreateTruckInput,
  ZDriver,
  ZDriverPage,
  ZFindDriversInput,
  ZListAssetsInput,
  ZListTrailersInput,
  ZPatchDriverInput,
  ZPatchTrailerInput,
  ZPatchTruckInput,
  ZSearchDriversInput,
  ZSearchTrailersInput,
  ZSearchTrucksInput,
  ZTrailer,
  ZTrailerPage,
  ZTruck,
  ZTruckPage,
} from './asset.schemas.js';

/** A column of the kind's table written from one field of its create and patch bodies. */
export interface AssetColumn {
  column: string;
  /** The stored value of the field's value, when it is not the value itself. */
  store?: (value: unknown) => unknown;
}

/**
 * One kind of fleet asset, as its procedures need it: its REST collection and tag, its scopes,
 * its schemas, its table and how its fields map to columns. `T` is the asset; `L` and `S` are
 * the filters the GET list (query parameters) and the POST search (body) parse to, which the one
 * `find` reads alike.
 */
export interface AssetKind<T = unknown, L extends TPageRequest = TPageRequest, S extends TPageRequest = TPageRequest, LIn = unknown, SIn = unknown> {
  /** One, as in its 404 (`Driver`). */
  noun: string;
  /** Several, as in the summaries (`drivers`). */
  plural: string;
  tag: string;
  /** The collection's REST path; one asset is `/{id}` below it, the search `/search`. */
  path: `/${string}`;
  readScope: string;
  createScope: string;
  updateScope: string;
  /** The events' prefix: `driver.created`, `driver.changed`. */
  event: 'driver' | 'truck' | 'trailer';
  /** New ids are `<idPrefix>_<uuid>`. */
  idPrefix: string;
  table: AssetTable;
  /** The column of a trip naming an asset of the kind (retiring one on an open trip is refused). */
  tripColumn: 'driver_id' | 'truck_id' | 'trailer_id';
  /** The kind's own writable fields (all but SubsidiaryId, ExternalIds and Status) and their columns. */
  columns: Record<string, AssetColumn>;
  /** The field unique per tenant, if the kind has one. */
  number?: { field: string; column: string };
  /** Whether the kind names an owner-operator (OwnerOperatorId). */
  ownerOperator: boolean;
  ZAsset: z.ZodType<T>;
  ZPage: z.ZodType<{ Items: T[]; Page: number; PageSize: number; Total: number; NextCursor: string | null }>;
  ZListInput: z.ZodType<L, LIn>;
  /** The list's and the search's filters explained, for the kinds that have any. */
  listDescription?: string;
  ZSearchInput: z.ZodType<S, SIn>;
  searchDescription?: string;
  ZCreateInput: z.ZodType<Record<string, unknown> & { version: string }>;
  ZPatchInput: z.ZodType<Record<string, unknown> & { version: string; id: string }>;
  /** What the create's description adds about the kind's own fields. */
  fieldRules: string;
  toAsset(row: AssetRow): T;
  find(db: Db, scope: Scope, filter: L | S): Promise<PageOf<T>>;
}

/** Infers a kind's types from its schemas. */
function assetKind<T, L extends TPageRequest, S extends TPageRequest, LIn, SIn>(kind: AssetKind<T, L, S, LIn, SIn>) {
  return kind;
}

const same = (column: string): AssetColumn => ({ column });

const LIST_FILTERS =
  'Status: Active or Inactive (repeat or separate with commas); ExternalId: source:id, the record holding that pair.';
const SEARCH_FILTERS = 'Statuses: a list of Active, Inactive; ExternalId: source:id, the record holding that pair.';

export const driverKind = assetKind({
  noun: 'Driver',
  plural: 'drivers',
  tag: 'Drivers',
  path: '/api/p/v{version}/drivers',
  readScope: 'driver:read',
  createScope: 'driver:create',
  updateScope: 'driver:update',
  event: 'driver',
  idPrefix: 'drv',
  table: 'drivers',
  tripColumn: 'driver_id',
  columns: {
    FirstName: same('first_name'),
    LastName: same('last_name'),
    Type: same('type'),
    Phone: same('phone'),
    Email: same('email'),
    OwnerOperatorId: same('owner_operator_id'),
    LicenseNumber: same('license_number'),
    LicenseState: same('license_state'),
    HireDate: same('hire_date'),
  },
  ownerOperator: true,
  ZAsset: ZDriver,
  ZPage: ZDriverPage,
  ZListInput: ZFindDriversInput,
  listDescription: LIST_FILTERS,
  ZSearchInput: ZSearchDriversInput,
  searchDescription: `Type: a list of COMPANY, OWNER_OPERATOR, CONTRACTOR, EXTERNAL; omitted means every type. ${SEARCH_FILTERS}`,
  ZCreateInput: ZCreateDriverInput,
  ZPatchInput: ZPatchDriverInput,
  fieldRules: 'FirstName, LastName and Type are required; HireDate is a plain date (yyyy-MM-dd). OwnerOperatorId must name an owner-operator the caller can see (404 otherwise).',
  toAsset: (row) => toDriver(row as AssetRow<'drivers'>),
  find: findDrivers,
});

export const truckKind = assetKind({
  noun: 'Truck',
  plural: 'trucks',
  tag: 'Trucks',
  path: '/api/p/v{version}/trucks',
  readScope: 'truck:read',
  createScope: 'truck:create',
  updateScope: 'truck:update',
  event: 'truck',
  idPrefix: 'trk',
  table: 'trucks',
  tripColumn: 'truck_id',
  columns: {
    TruckNumber: same('truck_number'),
    Vin: same('vin'),
    Make: same('make'),
    Model: same('model'),
    Year: same('year'),
    LicensePlate: same('license_plate'),
    LicenseState: same('license_state'),
    OwnerOperatorId: same('owner_operator_id'),
  },
  number: { field: 'TruckNumber', column: 'truck_number' },
  ownerOperator: true,
  ZAsset: ZTruck,
  ZPage: ZTruckPage,
  ZListInput: ZListAssetsInput,
  listDescription: LIST_FILTERS,
  ZSearchInput: ZSearchTrucksInput,
  searchDescription: SEARCH_FILTERS,
  ZCreateInput: ZCreateTruckInput,
  ZPatchInput: ZPatchTruckInput,
  fieldRules:
    'TruckNumber is required and unique per tenant (409 Conflict/Duplicate naming TruckNumber). OwnerOperatorId must name an ' +
    'owner-operator the caller can see (404 otherwise).',
  toAsset: (row) => toTruck(row as AssetRow<'trucks'>),
  find: findTrucks,
});

/** Both the list and the search parse CompanyOwnedAsset to true, false, null (the unset flag) or absent. */
export const trailerKind = assetKind({
  noun: 'Trailer',
  plural: 'trailers',
  tag: 'Trailers',
  path: '/api/p/v{version}/trailers',
  readScope: 'trailer:read',
  createScope: 'trailer:create',
  updateScope: 'trailer:update',
  event: 'trailer',
  idPrefix: 'trl',
  table: 'trailers',
  tripColumn: 'trailer_id',
  columns: {
    TrailerNumber: same('trailer_number'),
    Type: same('type'),
    // A nullable boolean stored 0/1: null stays null, the unset flag, which is not false.
    CompanyOwnedAsset: { column: 'company_owned_asset', store: (value) => (value === null ? null : value ? 1 : 0) },
    Vin: same('vin'),
    LicensePlate: same('license_plate'),
    LicenseState: same('license_state'),
  },
  number: { field: 'TrailerNumber', column: 'trailer_number' },
  ownerOperator: false,
  ZAsset: ZTrailer,
  ZPage: ZTrailerPage,
  ZListInput: ZListTrailersInput,
  listDescription: `Query CompanyOwnedAsset=true, false or null (the unset flag, not false); omit it for every trailer. ${LIST_FILTERS}`,
  ZSearchInput: ZSearchTrailersInput,
  searchDescription: `CompanyOwnedAsset true, false or null (the unset flag, its own value); omit it for every trailer. ${SEARCH_FILTERS}`,
  ZCreateInput: ZCreateTrailerInput,
  ZPatchInput: ZPatchTrailerInput,
  fieldRules: 'TrailerNumber is required and unique per tenant (409 Conflict/Duplicate naming TrailerNumber).',
  toAsset: (row) => toTrailer(row as AssetRow<'trailers'>),
  find: findTrailers,
});
