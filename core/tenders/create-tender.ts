import { findCustomerRef } from '../customers/customer.repository.js';
import { notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZIdempotentCreatedHeaders } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { receiveTender } from './receive-tender.js';
import { tenderEtag, toTender } from './tender.repository.js';
import { ZCreateTenderInput, ZTender } from './tender.schemas.js';
import { withHeaders } from '../answer-headers.js';

export const createTender = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/tenders',
      tags: ['Tenders'],
      summary: 'Receive a tender',
      description:
        'A shipper offers a load: Status Pending, SubsidiaryId the customer\'s. Stops: at least two, the first a Pickup and ' +
        'the last a Delivery; an APPT stop carries AppointmentDate, an FCFS stop a StopWindow. CustomerId and every ' +
        'LocationId must exist (404). (CustomerId, ExternalId) is an idempotency key: a retry with the same values answers ' +
        'the first tender with `Idempotent-Replayed: true`, other values are 409 Conflict/IdempotencyKeyReuse. Emits tender.received.',
      protect: true,
      responseHeaders: ZIdempotentCreatedHeaders,
      errorResponses: [409],
    },
    scopes: ['tender:create'],
    successStatus: 201,
  })
  .input(ZCreateTenderInput)
  .output(ZTender)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const customer = await findCustomerRef(ctx.db, scope, input.CustomerId);
    if (!customer) throw notFound('Customer');
    const { version, ExternalId, CustomerId: _customerId, ...terms } = input;
    const { row, replayed } = await ctx.db.transaction().execute((trx) => receiveTender(trx, ctx.clock, { scope, customer, externalId: ExternalId, terms }));
    return withHeaders(toTender(row, formatStoredDateTime(ctx.clock.now())), {
      etag: tenderEtag(row),
      location: `/api/p/v${version}/tenders/${encodeURIComponent(row.id)}`,
      replayed,
    });
  });
