import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { DocumentsTable } from '../../db/tables/documents.js';
import { newRecordId } from '../shared/record-id.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { readDocumentContent } from './document-content.js';
import type { DownloadLink } from './download-link.js';
import type { TDocument, TDocumentTypeChange } from './document.schemas.js';

/** A document's metadata (its bytes are in `document_chunks`, which only the file route reads). */
export type DocumentRow = Selectable<DocumentsTable>;

const METADATA_COLUMNS = [
  'id',
  'tenant_id',
  'subsidiary_id',
  'parent_type',
  'parent_id',
  'load_id',
  'trip_id',
  'carrier_id',
  'attachment_type',
  'attachment_path',
  'file_name',
  'content_type',
  'attachment_size',
  'uploaded_at',
  'uploaded_by',
  'is_deleted',
  'created_at',
  'updated_at',
] as const satisfies ReadonlyArray<keyof DocumentRow>;

/** Issues a fresh signed link to one document's file. */
export type LinkIssuer = (documentId: string) => DownloadLink;

/** The one row → API mapper. A document without stored bytes has no link. */
export function toDocument(row: DocumentRow, issueLink: LinkIssuer): TDocument {
  const link = row.attachment_size === null ? null : issueLink(row.id);
  return {
    id: row.id,
    AttachmentPath: row.attachment_path,
    AttachmentType: row.attachment_type,
    AttachmentSize: row.attachment_size === null ? null : Number(row.attachment_size),
    UploadedAt: row.uploaded_at,
    ParentId: row.parent_id,
    ParentType: row.parent_type,
    UploadedBy: row.uploaded_by,
    DownloadUrl: link?.DownloadUrl ?? null,
    ExpiresAt: link?.ExpiresAt ?? null,
  };
}

/** The load a document route names, with what its writes need (visibility customer, routing). */
export interface LoadOwner {
  id: string;
  loadNumber: string;
  tenantId: string;
  subsidiaryId: string | null;
  customerId: string | null;
  status: string;
}

export interface TripOwner {
  id: string;
  tenantId: string;
  subsidiaryId: string | null;
  load: LoadOwner;
}

export interface CarrierOwner {
  id: string;
  tenantId: string;
}

const loadColumns = [
  'loads.id as load_id',
  'loads.load_number',
  'loads.tenant_id',
  'loads.subsidiary_id',
  'loads.customer_id',
  'loads.status as load_status',
] as const;

function toLoadOwner(row: {
  load_id: string;
  load_number: string;
  tenant_id: string;
  subsidiary_id: string | null;
  customer_id: string | null;
  load_status: string;
}): LoadOwner {
  return {
    id: row.load_id,
    loadNumber: row.load_number,
    tenantId: row.tenant_id,
    subsidiaryId: row.subsidiary_id,
    customerId: row.customer_id,
    status: row.load_status,
  };
}

export async function findLoadOwner(db: Db, scope: Scope, loadNumber: string): Promise<LoadOwner | undefined> {
  const row = await db
    .selectFrom('loads')
    .select(loadColumns)
    .where(inScope('loads', scope))
    .where('loads.load_number', '=', loadNumber)
    .executeTakeFirst();
  return row && toLoadOwner(row);
}

export async function findTripOwner(db: Db, scope: Scope, tripId: string): Promise<TripOwner | undefined> {
  const row = await db
    .selectFrom('trips')
    .innerJoin('loads', 'loads.id', 'trips.load_id')
    .select([...loadColumns, 'trips.id as trip_id', 'trips.subsidiary_id as trip_subsidiary_id'])
    .where(inScope('trips', scope))
    .where('trips.id', '=', tripId)
    .executeTakeFirst();
  return row && { id: row.trip_id, tenantId: row.tenant_id, subsidiaryId: row.trip_subsidiary_id, load: toLoadOwner(row) };
}

/** Carriers belong to the tenant: no subsidiary filter. */
export async function findCarrierOwner(db: Db, scope: Scope, carrierId: string): Promise<CarrierOwner | undefined> {
  const row = await db
    .selectFrom('carriers')
    .select(['id', 'tenant_id'])
    .where(inScope('carriers', scope, { subsidiaryColumn: null }))
    .where('id', '=', carrierId)
    .executeTakeFirst();
  return row && { id: row.id, tenantId: row.tenant_id };
}

/** Which documents a list or lookup covers; a load's list includes its trips' documents. */
export type DocumentOwnerFilter =
  | { kind: 'load-list'; loadId: string }
  | { kind: 'load'; loadId: string }
  | { kind: 'trip'; tripId: string }
  | { kind: 'carrier'; carrierId: string };

function ownedBy(filter: DocumentOwnerFilter) {
  return (qb: ReturnType<typeof baseQuery>) => {
    switch (filter.kind) {
      case 'load-list':
        return qb.where('documents.load_id', '=', filter.loadId).where('documents.parent_type', 'in', ['Load', 'Trip']);
      case 'load':
        return qb.where('documents.load_id', '=', filter.loadId).where('documents.parent_type', '=', 'Load');
      case 'trip':
        return qb.where('documents.trip_id', '=', filter.tripId).where('documents.parent_type', '=', 'Trip');
      case 'carrier':
        return qb.where('documents.carrier_id', '=', filter.carrierId).where('documents.parent_type', '=', 'Carrier');
    }
  };
}

function baseQuery(db: Db, scope: Scope, filter: DocumentOwnerFilter) {
  // Carrier documents have no subsidiary; every client of the tenant sees them.
  const subsidiaryColumn = filter.kind === 'carrier' ? null : 'subsidiary_id';
  return db
    .selectFrom('documents')
    .select(METADATA_COLUMNS.map((column) => `documents.${column}` as const))
    .where(inScope('documents', scope, { subsidiaryColumn }))
    .where('documents.is_deleted', '=', 0);
}

/** Live documents of an owner: the load's own first, then its trips', each in upload order. */
export async function listDocuments(db: Db, scope: Scope, filter: DocumentOwnerFilter): Promise<DocumentRow[]> {
  return baseQuery(db, scope, filter)
    .$call(ownedBy(filter))
    .orderBy('documents.parent_type')
    .orderBy(sql`coalesce(documents.uploaded_at, documents.created_at)`)
    .orderBy('documents.id')
    .execute();
}

/** One live document of an owner; anything else (another owner's, deleted, missing) is undefined. */
export async function findDocument(db: Db, scope: Scope, filter: DocumentOwnerFilter, documentId: string): Promise<DocumentRow | undefined> {
  return baseQuery(db, scope, filter).$call(ownedBy(filter)).where('documents.id', '=', documentId).executeTakeFirst();
}

/**
 * Takes the document row's write lock for the rest of the transaction (a no-op update: on
 * Postgres it locks the row, SQLite serialises writers anyway), so concurrent type changes
 * read each other's result and number their history entries without gaps or clashes. Only a
 * load's or trip's document in the caller's scope (their subsidiary is on the row); false when
 * there is none to lock.
 */
export async function lockDocument(trx: Db, scope: Scope, documentId: string): Promise<boolean> {
  const result = await trx
    .updateTable('documents')
    .set({ updated_at: sql`updated_at` })
    .where(inScope('documents', scope))
    .where('id', '=', documentId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Changes the type of a document in the caller's scope and records it; undefined (nothing written) when it is not. */
export async function updateDocumentType(
  trx: Db,
  scope: Scope,
  row: DocumentRow,
  change: { to: string; at: string; by: string | null },
): Promise<DocumentRow | undefined> {
  const updated = await trx
    .updateTable('documents')
    .set({ attachment_type: change.to, updated_at: change.at })
    .where(inScope('documents', scope))
    .where('id', '=', row.id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return undefined;
  const last = await trx
    .selectFrom('document_type_changes')
    .select((eb) => eb.fn.max('sequence').as('sequence'))
    .where('document_id', '=', row.id)
    .executeTakeFirst();
  await trx
    .insertInto('document_type_changes')
    .values({
      id: newRecordId('dtc'),
      tenant_id: row.tenant_id,
      document_id: row.id,
      sequence: Number(last?.sequence ?? 0) + 1,
      from_type: row.attachment_type,
      to_type: change.to,
      changed_at: change.at,
      changed_by: change.by,
    })
    .execute();
  return { ...row, attachment_type: change.to, updated_at: change.at };
}

/** Oldest first: `sequence` is unique per document, the id only makes that plain to the pager. */
export const TYPE_CHANGE_ORDER = thenById('document-history', { column: 'sequence', type: 'integer' });

/**
 * A document's type changes, when the caller may see the document: the history rows carry only
 * the tenant, so the subsidiary rule is the document's own.
 */
export async function findTypeChanges(db: Db, scope: Scope, documentId: string, request: TPageRequest): Promise<PageOf<TDocumentTypeChange>> {
  const document = db.selectFrom('documents').select('id').where(inScope('documents', scope)).where('id', '=', documentId);
  const query = db
    .selectFrom('document_type_changes')
    .where(inScope('document_type_changes', scope, { subsidiaryColumn: null }))
    .where('document_id', '=', documentId)
    .where((eb) => eb.exists(document));
  const page = await selectPage(db, query, { table: 'document_type_changes', order: TYPE_CHANGE_ORDER, page: request });
  return {
    ...page,
    items: page.items.map((row) => ({ From: row.from_type, To: row.to_type, ChangedAt: row.changed_at, ChangedBy: row.changed_by })),
  };
}

export async function insertDocument(trx: Db, row: Insertable<DocumentsTable>): Promise<DocumentRow> {
  await trx.insertInto('documents').values(row).execute();
  return row as DocumentRow;
}

/**
 * The load's customer, when it has a visibility integration. Tenant-wide: the post goes to the
 * customer the load names, which need not be in the caller's subsidiary (a fixture may link a
 * subsidiary's load to a tenant-wide customer), and the caller is never shown the customer.
 */
export async function findVisibilityCustomer(db: Db, scope: Scope, customerId: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('customers')
    .select('id')
    .where(inScope('customers', scope, { subsidiaryColumn: null }))
    .where('id', '=', customerId)
    .where('visibility_url', 'is not', null)
    .executeTakeFirst();
}

export interface StoredFile {
  fileName: string;
  contentType: string;
  size: number;
  /** The bytes, read piece by piece as they are consumed (nothing is read until then). */
  content: AsyncIterable<Buffer>;
}

/**
 * The file behind a download link. Not scoped by tenant: the link itself is the credential,
 * and document ids are unique across the database. Deleted documents have no file.
 */
export async function findStoredFile(db: Db, documentId: string): Promise<StoredFile | undefined> {
  const row = await db
    .selectFrom('documents')
    .select(['attachment_path', 'content_type', 'attachment_size'])
    .where('id', '=', documentId)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  if (!row || row.attachment_size === null) return undefined;
  const size = Number(row.attachment_size);
  return { fileName: row.attachment_path, contentType: row.content_type, size, content: readDocumentContent(db, documentId, size) };
}

/** Soft-deletes a live document in the caller's scope; false (nothing written) when there is none. */
export async function markDocumentDeleted(trx: Db, scope: Scope, row: DocumentRow, at: string): Promise<boolean> {
  const subsidiaryColumn = row.parent_type === 'Carrier' ? null : 'subsidiary_id';
  const result = await trx
    .updateTable('documents')
    .set({ is_deleted: 1, updated_at: at })
    .where(inScope('documents', scope, { subsidiaryColumn }))
    .where('id', '=', row.id)
    .where('is_deleted', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
