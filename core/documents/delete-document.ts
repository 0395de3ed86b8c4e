import { AppError, notFound } from '../errors.js';
import { appendEvent } from '../events/outbox.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import type { Context, Principal } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import { findDocument, markDocumentDeleted, toDocument, type DocumentOwnerFilter, type LoadOwner } from './document.repository.js';
import { isInvoiceFamily } from './document-types.js';

export type DocumentDeleteRequest =
  | { load: LoadOwner; owner: Extract<DocumentOwnerFilter, { kind: 'load' } | { kind: 'trip' }>; documentId: string }
  | { carrierId: string; owner: Extract<DocumentOwnerFilter, { kind: 'carrier' }>; documentId: string };

/**
 * Soft-deletes a document (RESOURCES "Document uploads and deletes"): afterwards it reads as
 * 404, appears in no list, and its download links find no file. Invoice-family documents are
 * protected (422). The last state is announced in the same transaction: `document.deleted` and
 * `load.changed` for a load's or trip's, `carrier.document.deleted` (tenant-wide) for a carrier's.
 * Documents have no ETag, so there is no If-Match; a concurrent second delete finds nothing (404).
 */
export async function deleteDocument(ctx: Context & { principal: Principal }, request: DocumentDeleteRequest): Promise<void> {
  const scope = scopeOf(ctx.principal);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findDocument(trx, scope, request.owner, request.documentId);
    if (!row) throw notFound('Document');
    if (isInvoiceFamily(row.attachment_type)) {
      throw new AppError('UNPROCESSABLE', 'Invoice-family documents cannot be deleted through the API.', { subtype: 'ProtectedDocumentType' });
    }
    const at = formatStoredDateTime(ctx.clock.now());
    if (!(await markDocumentDeleted(trx, scope, row, at))) throw notFound('Document');
    // The last state, without a link: the file is gone with the document.
    const document = { ...toDocument(row, linkIssuerFor(ctx)), DownloadUrl: null, ExpiresAt: null };

    if ('load' in request) {
      const { load } = request;
      await appendEvent(trx, ctx.clock, {
        tenantId: load.tenantId,
        subsidiaryId: load.subsidiaryId,
        type: 'document.deleted',
        data: { ...document, LoadNumber: load.loadNumber },
      });
      await appendEvent(trx, ctx.clock, {
        tenantId: load.tenantId,
        subsidiaryId: load.subsidiaryId,
        type: 'load.changed',
        data: {
          LoadNumber: load.loadNumber,
          Status: load.status,
          diff: { changes: [{ Field: `Documents[${row.id}]`, From: row.attachment_type, To: null }] },
        },
      });
    } else {
      await appendEvent(trx, ctx.clock, {
        tenantId: row.tenant_id,
        subsidiaryId: null,
        type: 'carrier.document.deleted',
        data: { ...document, CarrierId: request.carrierId },
      });
    }
  });
}
