import type { z } from 'zod';
import type { Db } from '../../db/create-db.js';
import { notFound } from '../errors.js';
import { ZPathId, input } from '../shared/schemas.js';
import type { Scope } from '../shared/scope.js';
import {
  findCarrierOwner,
  findLoadOwner,
  findTripOwner,
  type CarrierOwner,
  type DocumentOwnerFilter,
  type LoadOwner,
  type TripOwner,
} from './document.repository.js';
import { ZCarrierDocumentTypeInput, ZDocumentTypeInput, ZInternalUploadFields } from './document.schemas.js';
import { CARRIER_DOCUMENT_TYPES, LOAD_DOCUMENT_TYPES } from './document-types.js';

export type DocumentOwnerKind = 'load' | 'trip' | 'carrier';

/** A document's owner as found in the caller's scope, with what the writes need of it. */
export type DocumentOwner = { kind: 'load'; load: LoadOwner } | { kind: 'trip'; trip: TripOwner } | { kind: 'carrier'; carrier: CarrierOwner };

/** The owners whose documents belong to a load (directly or through a trip): events, types, history. */
export type LoadDocumentOwner = Extract<DocumentOwner, { kind: 'load' | 'trip' }>;

/**
 * One kind of document owner, as every document operation needs it: how REST paths and the
 * internal create name it, how it is found in the caller's scope, the scopes that guard it and
 * the document types it takes. Each operation builds its procedure for an owner from this.
 */
export interface DocumentOwnerDescription<K extends DocumentOwnerKind = DocumentOwnerKind, P extends string = string, F extends string = string> {
  kind: K;
  /** The path parameter naming the owner (`/loads/{loadNumber}/documents`), and its schema. */
  pathParam: P;
  ZPathParam: typeof ZPathId;
  /** The body field naming the owner in the internal (tRPC) create. */
  createField: F;
  /** The REST path of the owner's document list; single documents are below it. */
  documentsPath: `/${string}`;
  /** The tag of the owner's own routes (upload, delete); reads and type changes are tagged Documents. */
  tag: string;
  /** The name a missing owner has in its 404. */
  noun: string;
  readScope: string;
  updateScope: string;
  /** The scopes of the internal create, and its `AttachmentType` field. */
  createScopes: string[];
  ZCreateType: typeof ZInternalUploadFields.AttachmentType;
  /** The types a public upload may name, and the `DocumentType` part's schema. */
  uploadTypes: readonly string[];
  ZUploadType: typeof ZDocumentTypeInput;
  find(db: Db, scope: Scope, id: string): Promise<Extract<DocumentOwner, { kind: K }> | undefined>;
}

const ZLoadNumber = ZPathId.meta({ description: 'Unique load number.' });
const ZTripId = ZPathId.meta({ description: 'Trip id (the ParentId of a trip document).' });

export const loadOwner: DocumentOwnerDescription<'load', 'loadNumber', 'LoadNumber'> = {
  kind: 'load',
  pathParam: 'loadNumber',
  ZPathParam: ZLoadNumber,
  createField: 'LoadNumber',
  documentsPath: '/api/p/v{version}/loads/{loadNumber}/documents',
  tag: 'Loads',
  noun: 'Load',
  readScope: 'load:read',
  updateScope: 'load:update',
  createScopes: ['load:update'],
  ZCreateType: ZInternalUploadFields.AttachmentType,
  uploadTypes: LOAD_DOCUMENT_TYPES,
  ZUploadType: ZDocumentTypeInput,
  find: async (db, scope, loadNumber) => {
    const load = await findLoadOwner(db, scope, loadNumber);
    return load && { kind: 'load', load };
  },
};

export const tripOwner: DocumentOwnerDescription<'trip', 'tripId', 'TripId'> = {
  kind: 'trip',
  pathParam: 'tripId',
  ZPathParam: ZTripId,
  createField: 'TripId',
  documentsPath: '/api/p/v{version}/trips/{tripId}/documents',
  tag: 'Trips',
  noun: 'Trip',
  readScope: 'trip:read',
  updateScope: 'trip:update',
  createScopes: ['trip:update'],
  ZCreateType: ZInternalUploadFields.AttachmentType,
  uploadTypes: LOAD_DOCUMENT_TYPES,
  ZUploadType: ZDocumentTypeInput,
  find: async (db, scope, tripId) => {
    const trip = await findTripOwner(db, scope, tripId);
    return trip && { kind: 'trip', trip };
  },
};

/**
 * Carriers belong to the tenant, so a subsidiary-bound client sees them and their documents
 * too. The scope catalog has no carrier write scope for the internal create, so it asks for
 * carrier:read (to see the carrier) and load:update (the write scope of the records carrier
 * paperwork serves).
 */
export const carrierOwner: DocumentOwnerDescription<'carrier', 'carrierId', 'CarrierId'> = {
  kind: 'carrier',
  pathParam: 'carrierId',
  ZPathParam: ZPathId,
  createField: 'CarrierId',
  documentsPath: '/api/p/v{version}/carriers/{carrierId}/documents',
  tag: 'Carriers',
  noun: 'Carrier',
  readScope: 'carrier:read',
  updateScope: 'carrier:update',
  createScopes: ['carrier:read', 'load:update'],
  ZCreateType: ZInternalUploadFields.AttachmentType.meta({ description: `One of: ${CARRIER_DOCUMENT_TYPES.join(', ')}.` }),
  uploadTypes: CARRIER_DOCUMENT_TYPES,
  ZUploadType: ZCarrierDocumentTypeInput,
  find: async (db, scope, carrierId) => {
    const carrier = await findCarrierOwner(db, scope, carrierId);
    return carrier && { kind: 'carrier', carrier };
  },
};

/** An input naming the owner first (its path parameter or create field), then `shape`. */
export function ownerInput<N extends string, S extends z.ZodRawShape>(name: N, ZName: typeof ZPathId, shape: S) {
  return input({ [name]: ZName, ...shape } as { [K in N]: typeof ZPathId } & S);
}

/**
 * A resolver's view of an `ownerInput`: the owner's id, and the other fields as `T`. TypeScript
 * cannot follow an owner's generic field name through tRPC's builder, so the factories read the
 * input through this; the procedures they return still give callers the exact input type.
 */
export function readOwnerInput<T>(input: unknown, name: string): { ownerId: string; fields: T } {
  const fields = input as T & Record<string, string>;
  return { ownerId: fields[name] as string, fields };
}

/** The owner the input names, found in the caller's scope; a 404 naming its kind when there is none. */
export async function requireOwner<K extends DocumentOwnerKind>(
  db: Db,
  scope: Scope,
  owner: DocumentOwnerDescription<K>,
  id: string,
): Promise<Extract<DocumentOwner, { kind: K }>> {
  const found = await owner.find(db, scope, id);
  if (!found) throw notFound(owner.noun);
  return found;
}

/** The load a document of this owner belongs to, directly or through its trip. */
export function loadOf(owner: LoadDocumentOwner): LoadOwner {
  return owner.kind === 'load' ? owner.load : owner.trip.load;
}

/** The owner's own documents: a single document is addressed through the owner it has. */
export function ownDocuments(owner: DocumentOwner): DocumentOwnerFilter {
  switch (owner.kind) {
    case 'load':
      return { kind: 'load', loadId: owner.load.id };
    case 'trip':
      return { kind: 'trip', tripId: owner.trip.id };
    case 'carrier':
      return { kind: 'carrier', carrierId: owner.carrier.id };
  }
}
