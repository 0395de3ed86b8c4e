import type { z } from 'zod';
import type { Db } from '../../db/create-db.js';
import type { Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { findDrivers, findTrailers, findTrucks, getDriver, getTrailer, getTruck } from './asset.repository.js';
import {
  ZDriver,
  ZDriverPage,
  ZFindDriversInput,
  ZListAssetsInput,
  ZListTrailersInput,
  ZSearchDriversInput,
  ZSearchTrailersInput,
  ZSearchTrucksInput,
  ZTrailer,
  ZTrailerPage,
  ZTruck,
  ZTruckPage,
} from './asset.schemas.js';

/**
 * One kind of fleet asset, as its procedures need it: its REST collection and tag, its scope,
 * its schemas and its repository reads. `T` is the asset; `L` and `S` are the filters the GET
 * list (query parameters) and the POST search (body) parse to, which the one `find` reads alike.
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
  ZAsset: z.ZodType<T>;
  ZPage: z.ZodType<{ Items: T[]; Page: number; PageSize: number; Total: number; NextCursor: string | null }>;
  ZListInput: z.ZodType<L, LIn>;
  /** The list's and the search's filters explained, for the kinds that have any. */
  listDescription?: string;
  ZSearchInput: z.ZodType<S, SIn>;
  searchDescription?: string;
  get(db: Db, scope: Scope, id: string): Promise<T | undefined>;
  find(db: Db, scope: Scope, filter: L | S): Promise<PageOf<T>>;
}

/** Infers a kind's types from its schemas. */
function assetKind<T, L extends TPageRequest, S extends TPageRequest, LIn, SIn>(kind: AssetKind<T, L, S, LIn, SIn>) {
  return kind;
}

export const driverKind = assetKind({
  noun: 'Driver',
  plural: 'drivers',
  tag: 'Drivers',
  path: '/api/p/v{version}/drivers',
  readScope: 'driver:read',
  ZAsset: ZDriver,
  ZPage: ZDriverPage,
  ZListInput: ZFindDriversInput,
  ZSearchInput: ZSearchDriversInput,
  searchDescription: 'Type: a list of COMPANY, OWNER_OPERATOR, CONTRACTOR, EXTERNAL; omitted means every type.',
  get: getDriver,
  find: findDrivers,
});

export const truckKind = assetKind({
  noun: 'Truck',
  plural: 'trucks',
  tag: 'Trucks',
  path: '/api/p/v{version}/trucks',
  readScope: 'truck:read',
  ZAsset: ZTruck,
  ZPage: ZTruckPage,
  ZListInput: ZListAssetsInput,
  ZSearchInput: ZSearchTrucksInput,
  get: getTruck,
  find: findTrucks,
});

/** Both the list and the search parse CompanyOwnedAsset to true, false, null (the unset flag) or absent. */
export const trailerKind = assetKind({
  noun: 'Trailer',
  plural: 'trailers',
  tag: 'Trailers',
  path: '/api/p/v{version}/trailers',
  readScope: 'trailer:read',
  ZAsset: ZTrailer,
  ZPage: ZTrailerPage,
  ZListInput: ZListTrailersInput,
  listDescription: 'Query CompanyOwnedAsset=true, false or null (the unset flag, not false); omit it for every trailer.',
  ZSearchInput: ZSearchTrailersInput,
  searchDescription: 'CompanyOwnedAsset true, false or null (the unset flag, its own value); omit it for every trailer.',
  get: getTrailer,
  find: findTrailers,
});
