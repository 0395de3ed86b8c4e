import { validationError } from '../errors.js';
import { scopeOf } from '../shared/scope.js';
import { answerPage } from '../shared/search-page.js';
import { authedProcedure } from '../trpc.js';
import { findDocuments } from './document.repository.js';
import { ZEdiDocumentPage, ZFindEdiDocumentsInput } from './document.schemas.js';

export const findEdiDocuments = authedProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/api/p/v{version}/edi/documents',
      tags: ['EDI'],
      summary: 'List the EDI mailbox',
      description:
        'Every interchange received (Status Received) and sent (Pending, Delivered, Failed, Acknowledged, Rejected), newest ' +
        'first, each with its X12 text and parsed Json: a partner without an OutboundUrl polls here. ' +
        'Filters combine: PartnerId, Direction, Set (a document holding that set), Status, and CreatedAtStart (inclusive) ' +
        'to CreatedAtEnd (exclusive; not after CreatedAtStart is a 400). A subsidiary-bound client sees only the documents ' +
        "of its subsidiary's partners.",
      protect: true,
    },
    scopes: ['edi:read'],
  })
  .input(ZFindEdiDocumentsInput)
  .output(ZEdiDocumentPage)
  .query(async ({ ctx, input }) => {
    // Both are in stored form, which compares as text.
    if (input.CreatedAtStart !== undefined && input.CreatedAtEnd !== undefined && input.CreatedAtEnd <= input.CreatedAtStart) {
      throw validationError('CreatedAtEnd', 'must be after CreatedAtStart.');
    }
    return answerPage(input, await findDocuments(ctx.db, scopeOf(ctx.principal), input));
  });
