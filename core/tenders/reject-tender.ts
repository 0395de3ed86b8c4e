import { ZEtagHeader } from '../shared/record-headers.js';
import { authedProcedure } from '../trpc.js';
import { appendTenderEvent } from './tender-events.js';
import { invalidState, moveTenderWith } from './tender-moves.js';
import { moveTender, toTender } from './tender.repository.js';
import { ZRejectTenderInput, ZTender } from './tender.schemas.js';

export const rejectTender = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/tenders/{id}/reject',
      tags: ['Tenders'],
      summary: 'Reject a tender',
      description:
        'Reason is required (1 to 200 characters) and becomes RejectionReason. Only a Pending tender can be rejected ' +
        '(otherwise 409 Conflict/InvalidState). Emits tender.rejected. A tender that came from an EDI partner\'s 204 sends the ' +
        'partner a 990 (B1 `D`, the Reason in K1 pieces of 30 characters) in the same transaction when the partner is Active and ' +
        'exchanges 990 (docs/edi.md).',
      protect: true,
      responseHeaders: ZEtagHeader,
      errorResponses: [409],
    },
    scopes: ['tender:update'],
  })
  .input(ZRejectTenderInput)
  .output(ZTender)
  .mutation(({ ctx, input }) =>
    moveTenderWith(ctx, input.id, 'rejected', async ({ trx, scope, row, status, now }) => {
      if (status !== 'Pending') throw invalidState(status, 'rejected');
      const rejected = await moveTender(trx, row, 'Pending', now, { status: 'Rejected', responded_at: now, rejection_reason: input.Reason });
      if (rejected) await appendTenderEvent(trx, ctx.clock, { tenantId: scope.tenantId, type: 'tender.rejected', tender: toTender(rejected, now) });
      return rejected;
    }),
  );
