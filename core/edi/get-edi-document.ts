import { notFound } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { getDocumentRow, toEdiDocument } from './document.repository.js';
import { ZEdiDocument, ZEdiDocumentIdInput } from './document.schemas.js';

export const getEdiDocument = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/edi/documents/{id}',
      tags: ['EDI'],
      summary: 'Get an EDI document',
      description: "One interchange of the mailbox with its X12 text and parsed Json. Another subsidiary's document is a 404 to a subsidiary-bound client.",
      protect: true,
    },
    scopes: ['edi:read'],
  })
  .input(ZEdiDocumentIdInput)
  .output(ZEdiDocument)
  .query(async ({ ctx, input }) => {
    const row = await getDocumentRow(ctx.db, scopeOf(ctx.principal), input.id);
    if (!row) throw notFound('EDI document');
    return toEdiDocument(row);
  });
