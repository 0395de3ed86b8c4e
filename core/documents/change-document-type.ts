import { AppError, notFound, validationError } from '../errors.js';
import { appendEvent } from '../events/outbox.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure, type Context, type Principal } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import { loadOf, ownDocuments, ownerInput, readOwnerInput, requireOwner, type DocumentOwnerDescription, type LoadDocumentOwner } from './document-owners.js';
import { findDocument, lockDocument, toDocument, updateDocumentType } from './document.repository.js';
import { ZDocument, ZDocumentId, ZDocumentTypeInput, type TDocument } from './document.schemas.js';
import { isInvoiceFamily, LOAD_DOCUMENT_TYPES, recognizeDocumentType } from './document-types.js';
import { postProofOfDelivery } from './proof-of-delivery.js';

export interface DocumentTypeChangeRequest {
  /** The load or trip whose own document the route addresses. */
  owner: LoadDocumentOwner;
  documentId: string;
  requestedType: string;
}

/**
 * docs/api-rules.md#documents and its trip twin: the document keeps its id, file and links; an actual change is
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
  const load = loadOf(request.owner);
  const scope = scopeOf(ctx.principal);

  return ctx.db.transaction().execute(async (trx) => {
    if (!(await lockDocument(trx, scope, request.documentId))) throw notFound('Document');
    const row = await findDocument(trx, scope, ownDocuments(request.owner), request.documentId);
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

const CHANGES: Record<LoadDocumentOwner['kind'], { summary: string; description: string }> = {
  // docs/api-rules.md#documents.
  load: {
    summary: "Change the type of a load's own document",
    description:
      'The id, the file and issued download links stay; the change is kept in the document history. ' +
      "A trip's document, another load's or a deleted one is 404 (change trip documents through the trip route). " +
      'Invoice-family types, as the target or as the current type, are 422 `Unprocessable/ProtectedDocumentType`. ' +
      "Every call with Proof of Delivery posts the document to the customer's visibility integration.",
  },
  // The trip twin of 4.1 (docs/api-rules.md#documents): the trip's own documents, the same rules.
  trip: {
    summary: "Change the type of a trip's document",
    description:
      "The rules of the load document route: allowed load types only, invoice-family 422, another trip's or a " +
      "deleted document 404, history kept, Proof of Delivery posted to the load customer's visibility integration.",
  },
};

export function changeDocumentTypeProcedure<K extends LoadDocumentOwner['kind'], P extends string>(owner: DocumentOwnerDescription<K, P>) {
  return authedProcedure
    .meta({
      openapi: {
        method: 'PATCH',
        path: `${owner.documentsPath}/{documentId}`,
        tags: ['Documents'],
        ...CHANGES[owner.kind],
        protect: true,
        errorResponses: [422],
      },
      scopes: [owner.updateScope],
      bodyLimit: 8192,
    })
    .input(ownerInput(owner.pathParam, owner.ZPathParam, { documentId: ZDocumentId, DocumentType: ZDocumentTypeInput }))
    .output(ZDocument)
    .mutation(async ({ ctx, input }) => {
      const { ownerId, fields } = readOwnerInput<{ documentId: string; DocumentType: string }>(input, owner.pathParam);
      const found = await requireOwner(ctx.db, scopeOf(ctx.principal), owner, ownerId);
      return changeDocumentType(ctx, { owner: found, documentId: fields.documentId, requestedType: fields.DocumentType });
    });
}
