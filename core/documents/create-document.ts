import { validationError } from '../errors.js';
import { appendEvent } from '../events/outbox.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure, type Context, type Principal } from '../trpc.js';
import { linkIssuerFor } from './document-links.js';
import { loadOf, ownerInput, readOwnerInput, requireOwner, type DocumentOwner, type DocumentOwnerDescription, type DocumentOwnerKind } from './document-owners.js';
import { writeDocumentContent, type ContentSource } from './document-content.js';
import { documentRow } from './document-rows.js';
import { insertDocument, toDocument } from './document.repository.js';
import { ZDocument, ZInternalUploadFields, type TDocument } from './document.schemas.js';
import { postProofOfDelivery } from './proof-of-delivery.js';
import { CARRIER_DOCUMENT_TYPES, INVOICE_FAMILY_TYPES, LOAD_DOCUMENT_TYPES, recognizeDocumentType, type DocumentTypeFamily } from './document-types.js';

/** Largest file accepted, decoded. Internal uploads travel base64 in one tRPC request. */
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;

/**
 * A file to store: its bytes are read inside the write, piece by piece, so a staged upload is
 * never held in memory whole.
 */
export interface Upload {
  AttachmentType: string;
  FileName: string;
  /** Guessed from the file name when absent. */
  ContentType?: string | undefined;
  /** The byte count `openContent` yields. */
  Size: number;
  openContent: () => ContentSource;
}

interface Base64Upload {
  AttachmentType: string;
  FileName: string;
  ContentBase64: string;
  ContentType?: string | undefined;
}

/** An internal (tRPC) upload, its file as base64. */
export function uploadFromBase64(input: Base64Upload): Upload {
  const content = Buffer.from(input.ContentBase64, 'base64');
  return {
    AttachmentType: input.AttachmentType,
    FileName: input.FileName,
    ContentType: input.ContentType,
    Size: content.length,
    openContent: () => [content],
  };
}

/**
 * Stores an uploaded file as a document of a load, a trip or a carrier, and announces it in the
 * same transaction: `document.created` and `load.changed` (the load's document list changed)
 * for load and trip documents, `carrier.document.created` (tenant-wide) for carrier documents;
 * a Proof of Delivery goes to the customer's visibility integration as a type change to it does.
 * Internal apps may store invoice-family documents; only the public type change refuses them.
 */
export async function createDocument(
  ctx: Context & { principal: Principal },
  owner: DocumentOwner,
  upload: Upload,
): Promise<TDocument> {
  const allowed: DocumentTypeFamily[] = owner.kind === 'carrier' ? ['carrier'] : ['load', 'invoice'];
  const known = recognizeDocumentType(upload.AttachmentType);
  if (!known || !allowed.includes(known.family)) {
    const types = owner.kind === 'carrier' ? CARRIER_DOCUMENT_TYPES : [...LOAD_DOCUMENT_TYPES, ...INVOICE_FAMILY_TYPES];
    throw validationError('AttachmentType', `must be one of: ${types.join(', ')}`);
  }

  const now = formatStoredDateTime(ctx.clock.now());
  const load = owner.kind === 'carrier' ? null : loadOf(owner);
  const tenantId = owner.kind === 'carrier' ? owner.carrier.tenantId : loadOf(owner).tenantId;
  const subsidiaryId = load?.subsidiaryId ?? null;

  if (upload.Size > MAX_DOCUMENT_BYTES) {
    throw validationError('ContentBase64', `The file may be at most ${MAX_DOCUMENT_BYTES} bytes.`);
  }

  return ctx.db.transaction().execute(async (trx) => {
    // Uploaded now, by the caller; the fixture path builds the same row from the same shape.
    const newRow = documentRow(
      {
        id: newRecordId('doc'),
        AttachmentType: known.type,
        FileName: upload.FileName,
        ContentType: upload.ContentType,
        UploadedBy: ctx.principal.ClientId,
      },
      { tenantId, now },
      {
        parentType: owner.kind === 'load' ? 'Load' : owner.kind === 'trip' ? 'Trip' : 'Carrier',
        parentId: owner.kind === 'load' ? owner.load.loadNumber : owner.kind === 'trip' ? owner.trip.id : owner.carrier.id,
        subsidiaryId,
        loadId: load?.id,
        tripId: owner.kind === 'trip' ? owner.trip.id : undefined,
        carrierId: owner.kind === 'carrier' ? owner.carrier.id : undefined,
      },
      upload.Size,
    );
    const row = await insertDocument(trx, newRow);
    const written = await writeDocumentContent(trx, { id: row.id, tenantId }, upload.openContent());
    // A staged file that changed under the write would store something else than was checked.
    if (written !== upload.Size) throw new Error(`upload of ${upload.Size} bytes yielded ${written}`);
    const document = toDocument(row, linkIssuerFor(ctx));

    if (load) {
      await appendEvent(trx, ctx.clock, {
        tenantId,
        subsidiaryId,
        type: 'document.created',
        data: { ...document, LoadNumber: load.loadNumber },
      });
      await appendEvent(trx, ctx.clock, {
        tenantId,
        subsidiaryId,
        type: 'load.changed',
        data: {
          LoadNumber: load.loadNumber,
          Status: load.status,
          diff: { changes: [{ Field: `Documents[${row.id}]`, From: null, To: known.type }] },
        },
      });
      await postProofOfDelivery(trx, ctx.clock, scopeOf(ctx.principal), load, document);
    } else {
      // Carriers have no subsidiary: the event goes to every subscription of the tenant (docs/api-rules.md#events).
      await appendEvent(trx, ctx.clock, {
        tenantId,
        subsidiaryId: null,
        type: 'carrier.document.created',
        data: { ...document, CarrierId: row.carrier_id },
      });
    }
    return document;
  });
}

/**
 * Internal (tRPC only, no `openapi` meta): uploads a file, as base64, as a document of the
 * owner the first field names (a trip's also shows in its load's list).
 */
export function createDocumentProcedure<K extends DocumentOwnerKind, F extends string>(owner: DocumentOwnerDescription<K, string, F>) {
  return authedProcedure
    .meta({ scopes: owner.createScopes })
    .input(ownerInput(owner.createField, owner.ZPathParam, { ...ZInternalUploadFields, AttachmentType: owner.ZCreateType }))
    .output(ZDocument)
    .mutation(async ({ ctx, input }) => {
      const { ownerId, fields } = readOwnerInput<Base64Upload>(input, owner.createField);
      const found = await requireOwner(ctx.db, scopeOf(ctx.principal), owner, ownerId);
      return createDocument(ctx, found, uploadFromBase64(fields));
    });
}
