import { toStoredDateTime, toStoredDateTimeOrNull } from '../shared/datetime.js';
import { flag, type Row } from '../shared/row-set.js';
import { chunkRows } from './document-content.js';
import type { TNewDocument } from './new-document.schemas.js';

/** What a document row takes from where it is created. */
export interface DocumentRowContext {
  tenantId: string;
  /** Stored date-time of the write: created/updated, and the upload time when none is given. */
  now: string;
}

/** The record a document belongs to; a carrier's has no subsidiary. */
export interface DocumentOwner {
  parentType: 'Load' | 'Trip' | 'Carrier';
  parentId: string;
  subsidiaryId: string | null;
  loadId?: string;
  tripId?: string;
  carrierId?: string;
}

const CONTENT_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  xml: 'application/xml',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  zip: 'application/zip',
};

function splitExtension(fileName: string): { stem: string; extension: string } {
  const dot = fileName.lastIndexOf('.');
  // A leading dot (".env") starts a name, not an extension.
  return dot > 0 ? { stem: fileName.slice(0, dot), extension: fileName.slice(dot) } : { stem: fileName, extension: '' };
}

export function contentTypeFor(fileName: string): string {
  const { extension } = splitExtension(fileName);
  return CONTENT_TYPES[extension.slice(1).toLowerCase()] ?? 'application/octet-stream';
}

/** The name a file gets at upload: `bol.pdf` uploaded 2026-11-19T08:10:00Z is `bol_20261119081000.pdf`. */
export function attachmentPathFor(fileName: string, uploadedAt: string): string {
  const { stem, extension } = splitExtension(fileName);
  const stamp = toStoredDateTime(uploadedAt).slice(0, 19).replace(/[-:T]/g, '');
  return `${stem}_${stamp}${extension}`;
}

/**
 * A document's row from the API shape of a new document (`ZNewDocument`): the content
 * type from the file name when none is given, the attachment path stamped with the upload
 * time, `size` the file's byte count (null: no file). Absent UploadedAt means "uploaded now";
 * an explicit null is kept (the field is nullable). The bytes are rows of `document_chunks`
 * (`addDocumentRows` for bytes in hand, `writeDocumentContent` for a stream).
 */
export function documentRow(document: TNewDocument, ctx: DocumentRowContext, owner: DocumentOwner, size: number | null): Row<'documents'> {
  const uploadedAt = document.UploadedAt === undefined ? ctx.now : toStoredDateTimeOrNull(document.UploadedAt);
  return {
    id: document.id,
    tenant_id: ctx.tenantId,
    subsidiary_id: owner.subsidiaryId,
    parent_type: owner.parentType,
    parent_id: owner.parentId,
    load_id: owner.loadId ?? null,
    trip_id: owner.tripId ?? null,
    carrier_id: owner.carrierId ?? null,
    attachment_type: document.AttachmentType,
    attachment_path: attachmentPathFor(document.FileName, uploadedAt ?? ctx.now),
    file_name: document.FileName,
    content_type: document.ContentType ?? contentTypeFor(document.FileName),
    attachment_size: size,
    uploaded_at: uploadedAt,
    uploaded_by: document.UploadedBy ?? null,
    is_deleted: flag(document.IsDeleted),
    created_at: ctx.now,
    updated_at: ctx.now,
  };
}

/** Adds a new document's row and its bytes (ContentBase64, when given) in pieces to a row set. */
export function addDocumentRows(
  rows: { documents: Row<'documents'>[]; document_chunks: Row<'document_chunks'>[] },
  document: TNewDocument,
  ctx: DocumentRowContext,
  owner: DocumentOwner,
): void {
  const content = document.ContentBase64 == null ? null : Buffer.from(document.ContentBase64, 'base64');
  rows.documents.push(documentRow(document, ctx, owner, content === null ? null : content.length));
  if (content) rows.document_chunks.push(...chunkRows(document.id, ctx.tenantId, content));
}
