import { AppError, notFound, validationError } from '../errors.js';
import { appendEvent } from '../events/outbox.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import type { Context, Principal } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import {
  findDocument,
  lockDocument,
  toDocument,
  updateDocumentType,
  type DocumentOwnerFilter,
  type LoadOwner,
} from './document.repository.js';
import type { TDocument } from './document.schemas.js';
import { isInvoiceFamily, LOAD_DOCUMENT_TYPES, recognizeDocumentType } from './document-types.js';
import { postProofOfDelivery } from './proof-of-delivery.js';

export interface DocumentTypeChangeRequest {
  /** The load the document belongs to (directly or through its trip). */
  load: LoadOwner;
  /** Which documents the route may address: the load's own, or one trip's. */
  owner: Extract<DocumentOwnerFilter, { kind: 'load' } | { kind: 'trip' }>;
  documentId: string;
  requestedType: string;
}

/**
 * Spec 4.1 and its trip twin: the document keeps its id, file and links; an actual change is
 * recorded in the history and announced (`document.updated`, `load.changed`); a change to
 * Proof of Delivery is posted to the customer's visibility integration on every call, even
 * when the type was already Proof of Delivery. Everything commits together.
 */
export async function changeDocumentType(ctx: Context & { principal: Principal }, request: DocumentTypeChangeRequest): Promise<TDocument> {
  const known = recognizeDocumentType(request.requestedType);
  // The input schema has already refused these for REST; internal callers get the same answer.
  if (!known || known.family === 'carrier') {
    throw validationError('DocumentType', `must be one of: ${LOAD_DOCUMENT_TYPES.join(', ')}`);
  }
  const { load } = request;
  const scope = scopeOf(ctx.principal);

  return ctx.db.transaction().execute(async (trx) => {
    if (!(await lockDocument(trx, scope, request.documentId))) throw notFound('Document');
    const row = await findDocument(trx, scope, request.owner, request.documentId);
    if (!row) throw notFound('Document');
    if (known.family === 'invoice' || isInvoiceFamily(row.attachment_type)) {
      throw new AppError('UNPROCESSABLE', 'Invoice-family document types cannot be set or changed through the API.', {
        subtype: 'ProtectedDocumentType',
      });
    }

    const issueLink = linkIssuerFor(ctx);
    let current = row;
    if (known.type !== row.attachment_type) {
      const at = formatStoredDateTime(ctx.clock.now());
      const changed = await updateDocumentType(trx, scope, row, { to: known.type, at, by: ctx.principal.ClientId });
      if (!changed) throw notFound('Document');
      current = changed;
      const document = toDocument(current, issueLink);
      const from = row.attachment_type;
      await appendEvent(trx, ctx.clock, {
        tenantId: load.tenantId,
        subsidiaryId: load.subsidiaryId,
        type: 'document.updated',
        data: { ...document, LoadNumber: load.loadNumber, diff: { changes: [{ Field: 'AttachmentType', From: from, To: known.type }] } },
      });
      await appendEvent(trx, ctx.clock, {
        tenantId: load.tenantId,
        subsidiaryId: load.subsidiaryId,
        type: 'load.changed',
        data: {
          LoadNumber: load.loadNumber,
          Status: load.status,
          diff: { changes: [{ Field: `Documents[${row.id}].AttachmentType`, From: from, To: known.type }] },
        },
      });
    }

    const document = toDocument(current, issueLink);
    await postProofOfDelivery(trx, ctx.clock, scope, load, document);
    return document;
  });
}
