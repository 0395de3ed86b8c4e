import { withHeaders } from '../answer-headers.js';
import { findCustomerRef } from '../customers/customer.repository.js';
import { notFound, validationError } from '../errors.js';
import { diffFields } from '../events/field-change.js';
import { replaceExternalIds } from '../external-ids/external-id.repository.js';
import { MAX_EXTERNAL_IDS, mergeExternalIds, parseExternalIds, storeExternalIds } from '../external-ids/external-ids.schemas.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { ZEtagHeader, ZIfMatchRequired } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { loadInvalidState } from './load-cancel.js';
import { appendLoadChanged } from './load-events.js';
import { ZUpdateLoadInput } from './load-write.schemas.js';
import { getLoadRecord, loadEtag, lockLoad, updateLoadFields, type LoadRow } from './load.repository.js';
import { ZLoad } from './load.schemas.js';
import { missingRecord } from './new-load-checks.js';

/** docs/api-rules.md#loads: the customer may change only before the load is dispatched. */
const CUSTOMER_CHANGEABLE = ['Planned', 'Assigned'];

export const updateLoad = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/loads/{loadNumber}',
      tags: ['Loads'],
      summary: 'Update a load',
      description:
        'A JSON merge patch (RFC 7396) of OrderNumber, Equipment (null clears either), ExternalIds (merged key by key: ' +
        `an id sets its source, null removes it; at most ${MAX_EXTERNAL_IDS} entries after the merge, else a 400) and ` +
        'CustomerId (only while the load is Planned or Assigned, else 409 Conflict/InvalidState; a customer the caller ' +
        'cannot see is a 404 naming CustomerId). Send at least one field. If-Match with the ETag of the GET is ' +
        'required (428 without, 412 when stale). An ExternalIds pair another load holds is a 409 Conflict/Duplicate ' +
        'naming the pair. A patch that changes nothing keeps the ETag and emits nothing; otherwise load.changed carries ' +
        'data.diff.changes (ExternalIds by source, e.g. ExternalIds.mcleod).',
      protect: true,
      requestHeaders: ZIfMatchRequired,
      responseHeaders: ZEtagHeader,
      errorResponses: [409, 412, 428],
    },
    scopes: ['load:update'],
  })
  .input(ZUpdateLoadInput)
  .output(ZLoad)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const now = formatStoredDateTime(ctx.clock.now());
    const record = await ctx.db.transaction().execute(async (trx) => {
      const row = await lockLoad(trx, scope, input.loadNumber);
      if (!row) throw notFound('Load');
      const customerChanges = input.CustomerId !== undefined && input.CustomerId !== row.customer_id;
      if (customerChanges && !(await findCustomerRef(trx, scope, input.CustomerId!))) throw missingRecord('Customer', 'CustomerId');
      checkIfMatch(ctx.request?.ifMatch, loadEtag(row));

      const currentIds = parseExternalIds(row.external_ids);
      const externalIds = input.ExternalIds === undefined ? currentIds : mergeExternalIds(currentIds, input.ExternalIds);
      if (externalIds === null) throw validationError('ExternalIds', `may hold at most ${MAX_EXTERNAL_IDS} entries after the merge`);
      if (customerChanges && !CUSTOMER_CHANGEABLE.includes(row.status)) throw loadInvalidState(row.load_number, row.status, 'given another customer');

      const wanted: Partial<LoadRow> = {
        ...(input.OrderNumber !== undefined && { order_number: input.OrderNumber }),
        ...(input.Equipment !== undefined && { equipment: input.Equipment }),
        ...(input.CustomerId !== undefined && { customer_id: input.CustomerId }),
        external_ids: storeExternalIds(externalIds),
      };
      const changes = Object.fromEntries(Object.entries(wanted).filter(([column, value]) => row[column as keyof LoadRow] !== value));
      const before = await getLoadRecord(trx, scope, row.load_number);
      if (!before) throw notFound('Load');
      if (Object.keys(changes).length === 0) return before;

      await replaceExternalIds(trx, row.tenant_id, 'loads', row.id, currentIds, externalIds);
      await updateLoadFields(trx, row.id, changes, now);
      const after = await getLoadRecord(trx, scope, row.load_number);
      if (!after) throw notFound('Load');
      const diff = diffFields(before.load, after.load, ['CustomerId', 'OrderNumber', 'Equipment', 'ExternalIds']);
      await appendLoadChanged(trx, ctx.clock, after, { ...after.load, diff: { changes: diff } });
      return after;
    });
    return withHeaders(record.load, { etag: loadEtag(record.row) });
  });
