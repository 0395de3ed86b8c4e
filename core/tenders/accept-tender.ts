import { buildLoadRows, insertNewLoadRows } from '../loads/load-rows.js';
import { checkNewLoad } from '../loads/new-load-checks.js';
import { listReferenceDefinitionTypes } from '../reference-definitions/reference-definition.repository.js';
import { ZEtagHeader } from '../shared/record-headers.js';
import { authedProcedure } from '../trpc.js';
import { appendTenderEvent } from './tender-events.js';
import { loadOfTender, newLoadNumber } from './tender-load.js';
import { invalidState, moveTenderWith } from './tender-moves.js';
import { linkTenderLoad, moveTender, toTender } from './tender.repository.js';
import { ZAcceptTenderInput, ZTender } from './tender.schemas.js';
import { appendLoadCreated } from '../loads/load-events.js';

export const acceptTender = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/tenders/{id}/accept',
      tags: ['Tenders'],
      summary: 'Accept a tender',
      description:
        'No body (or `{}`). Only a Pending tender can be accepted (an Expired one, or one another dispatcher answered first, ' +
        'is a 409 Conflict/InvalidState). In the same transaction it creates a Planned load of the customer with a new ' +
        'LoadNumber and one trip with the tender\'s stops, references (Origin Integration) and a LineHaul line item of the ' +
        'Rate; the answer is the tender with that LoadNumber (the load reads at GET /loads/{loadNumber}). Emits ' +
        'tender.accepted, load.created and trip.created. A tender that came from an EDI partner\'s 204 sends the partner a 990 ' +
        '(B1 `A`, N9 CN with the LoadNumber) in the same transaction when the partner is Active and exchanges 990 (docs/edi.md).',
      protect: true,
      responseHeaders: ZEtagHeader,
      errorResponses: [409],
    },
    scopes: ['tender:update'],
  })
  .input(ZAcceptTenderInput)
  .output(ZTender)
  .mutation(({ ctx, input }) =>
    moveTenderWith(ctx, input.id, 'accepted', async ({ trx, scope, row, status, now }) => {
      if (status !== 'Pending') throw invalidState(status, 'accepted');
      const loadNumber = newLoadNumber();
      // The conditional update comes first: it takes the tender's row lock, so a concurrent
      // answer waits here and finds the tender moved, before any load is written.
      const accepted = await moveTender(trx, row, 'Pending', now, { status: 'Accepted', responded_at: now, load_number: loadNumber });
      if (!accepted) return undefined;

      // The tender is in the caller's scope, and its load is in the tender's subsidiary.
      const tenantScope = { tenantId: scope.tenantId, subsidiaryId: null };
      const load = await loadOfTender(trx, tenantScope, accepted, loadNumber);
      await checkNewLoad(trx, tenantScope, load);
      const rows = buildLoadRows(load, { tenantId: scope.tenantId, now, referenceDefinitions: await listReferenceDefinitionTypes(trx, tenantScope) });
      const created = await insertNewLoadRows(trx, rows);
      await linkTenderLoad(trx, accepted.id, load.Id);

      // The same events as POST /loads: the load, then each of its trips.
      await appendLoadCreated(trx, ctx.clock, created);
      const answered = { ...accepted, load_id: load.Id };
      await appendTenderEvent(trx, ctx.clock, { tenantId: scope.tenantId, type: 'tender.accepted', tender: toTender(answered, now) });
      return answered;
    }),
  );
