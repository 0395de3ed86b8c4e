import { z } from 'zod';
import { AppError, notFound } from '../errors.js';
import { appendEvent } from '../events/outbox.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure, type Context, type Principal } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import {
  loadOf,
  ownDocuments,
  ownerInput,
  readOwnerInput,
  requireOwner,
  type DocumentOwner,
  type DocumentOwnerDescription,
  type DocumentOwnerKind,
} from './document-owners.js';
import { findDocument, markDocumentDeleted, toDocument } from './document.repository.js';
import { ZDocumentId } from './document.schemas.js';
import { isInvoiceFamily } from './document-types.js';

/**
 * Soft-deletes one of the owner's own documents (docs/api-rules.md#document-uploads):
 * afterwards it reads as 404, appears in no list, and its download links find no file.
 * Invoice-family documents are protected (422). The last state is announced in the same
 * transaction: `document.deleted` and `load.changed` for a load's or trip's,
 * `carrier.document.deleted` (tenant-wide) for a carrier's. Documents have no ETag, so there
 * is no If-Match; a concurrent second delete finds nothing (404).
 */
export async function deleteDocument(ctx: Context & { principal: Principal }, owner: DocumentOwner, documentId: string): Promise<void> {
  const scope = scopeOf(ctx.principal);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await findDocument(trx, scope, ownDocuments(owner), documentId);
    if (!row) throw notFound('Document');
    if (isInvoiceFamily(row.attachment_type)) {
      throw new AppError('UNPROCESSABLE', 'Invoice-family documents cannot be deleted through the API.', { subtype: 'ProtectedDocumentType' });
    }
    const at = formatStoredDateTime(ctx.clock.now());
    if (!(await markDocumentDeleted(trx, scope, row, at))) throw notFound('Document');
    // The last state, without a link: the file is gone with the document.
    const document = { ...toDocument(row, linkIssuerFor(ctx)), DownloadUrl: null, ExpiresAt: null };

    if (owner.kind === 'carrier') {
      await appendEvent(trx, ctx.clock, {
        tenantId: row.tenant_id,
        subsidiaryId: null,
        type: 'carrier.document.deleted',
        data: { ...document, CarrierId: owner.carrier.id },
      });
    } else {
      const load = loadOf(owner);
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
    }
  });
}

const DELETES: Record<DocumentOwnerKind, { summary: string; description: string }> = {
  load: {
    summary: "Delete a load's own document",
    description:
      'Soft delete: the document then reads as 404 and appears in no list; its download links stop working. ' +
      'Documents have no ETag: no If-Match. A trip\'s document (delete it through the trip route), another load\'s or a deleted one is 404. ' +
      'Invoice-family documents are 422 `Unprocessable/ProtectedDocumentType`.',
  },
  trip: {
    summary: "Delete a trip's document",
    description:
      'Soft delete: the document then reads as 404 and appears in no list (the trip\'s nor its load\'s); its download links stop working. ' +
      'Documents have no ETag: no If-Match. Another trip\'s or a deleted document is 404. ' +
      'Invoice-family documents are 422 `Unprocessable/ProtectedDocumentType`.',
  },
  carrier: {
    summary: "Delete a carrier's document",
    description:
      'Soft delete: the document then reads as 404 and appears in no list; its download links stop working. ' +
      'Documents have no ETag: no If-Match. Another carrier\'s or a deleted document is 404. ' +
      'Invoice-family documents are 422 `Unprocessable/ProtectedDocumentType`.',
  },
};

export function deleteDocumentProcedure<K extends DocumentOwnerKind, P extends string>(owner: DocumentOwnerDescription<K, P>) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'DELETE',
        path: `${owner.documentsPath}/{documentId}`,
        tags: [owner.tag],
        ...DELETES[owner.kind],
        protect: true,
        errorResponses: [422],
      },
      scopes: [owner.updateScope],
      successStatus: 204,
    })
    .input(ownerInput(owner.pathParam, owner.ZPathParam, { documentId: ZDocumentId }))
    .output(z.void())
    .mutation(async ({ ctx, input }) => {
      const { ownerId, fields } = readOwnerInput<{ documentId: string }>(input, owner.pathParam);
      const found = await requireOwner(ctx.db, scopeOf(ctx.principal), owner, ownerId);
      await deleteDocument(ctx, found, fields.documentId);
    });
}
