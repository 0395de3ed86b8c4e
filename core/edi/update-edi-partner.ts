import type { Updateable } from 'kysely';
import type { EdiPartnersTable } from '../../db/tables/edi.js';
import { withHeaders } from '../answer-headers.js';
import { AppError, notFound } from '../errors.js';
import { diffRecords } from '../events/field-change.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { checkIfMatch } from '../shared/etag.js';
import { ZEtagHeader, ZIfMatchRequired } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { assertTarget } from '../webhooks/validate-target.js';
import { partnerSubsidiary } from './partner-customer.js';
import { appendPartnerEvent } from './partner-events.js';
import {
  duplicateSenderFromConstraint,
  getPartnerRow,
  partnerEtag,
  refuseDuplicateSender,
  toPartnerResource,
  updatePartnerAtVersion,
  type EdiPartnerRow,
} from './partner.repository.js';
import { ZEdiPartner, ZUpdateEdiPartnerInput, type TUpdateEdiPartnerInput } from './partner.schemas.js';

/** The columns a merge patch (RFC 7396) changes; members left out keep the row's values, Their and Our merge member by member. */
function mergePatch(input: TUpdateEdiPartnerInput, subsidiaryId: string | null): Updateable<EdiPartnersTable> {
  const changes: Updateable<EdiPartnersTable> = { subsidiary_id: subsidiaryId };
  if (input.Name !== undefined) changes.name = input.Name;
  if (input.CustomerId !== undefined) changes.customer_id = input.CustomerId;
  if (input.Their?.IsaQualifier !== undefined) changes.their_isa_qualifier = input.Their.IsaQualifier;
  if (input.Their?.IsaId !== undefined) changes.their_isa_id = input.Their.IsaId;
  if (input.Their?.GsId !== undefined) changes.their_gs_id = input.Their.GsId;
  if (input.Our?.IsaQualifier !== undefined) changes.our_isa_qualifier = input.Our.IsaQualifier;
  if (input.Our?.IsaId !== undefined) changes.our_isa_id = input.Our.IsaId;
  if (input.Our?.GsId !== undefined) changes.our_gs_id = input.Our.GsId;
  if (input.Our?.Scac !== undefined) changes.our_scac = input.Our.Scac;
  if (input.Transactions !== undefined) changes.transactions = JSON.stringify(input.Transactions);
  if (input.OutboundUrl !== undefined) changes.outbound_url = input.OutboundUrl;
  if (input.UsageIndicator !== undefined) changes.usage_indicator = input.UsageIndicator;
  if (input.Status !== undefined) changes.status = input.Status;
  return changes;
}

export const updateEdiPartner = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/edi/partners/{id}',
      tags: ['EDI'],
      summary: 'Update an EDI trading partner',
      description:
        'A JSON merge patch (RFC 7396): a field left out is unchanged; Their and Our merge into the current ids member by ' +
        'member; OutboundUrl null removes the URL (the partner then polls the mailbox); null on any other field is a 400. ' +
        'Send at least one field. If-Match with the ETag of the GET is required (428 without, 412 when stale). A new ' +
        "CustomerId must be a customer the caller sees (404 naming it) and moves the partner to that customer's subsidiary. " +
        'Sender ids another partner of the tenant has are a 409 Conflict/Duplicate (Field Their.IsaId). Status Inactive stops ' +
        'inbound interchanges from the partner and outbound deliveries to it; documents already sent stay in the mailbox. ' +
        'The outbound control number carries on across changes. A patch that changes nothing keeps the ETag and emits ' +
        'nothing; otherwise edi.partner.changed carries data.diff.changes.',
      protect: true,
      requestHeaders: ZIfMatchRequired,
      responseHeaders: ZEtagHeader,
      errorResponses: [409, 412, 428],
    },
    scopes: ['edi:manage'],
  })
  .input(ZUpdateEdiPartnerInput)
  .output(ZEdiPartner)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const row = await getPartnerRow(ctx.db, scope, input.id);
    if (!row) throw notFound('EDI partner');
    const subsidiaryId = input.CustomerId === undefined ? row.subsidiary_id : await partnerSubsidiary(ctx.db, scope, input.CustomerId);
    if (input.OutboundUrl) await assertTarget(ctx.config, input.OutboundUrl, 'OutboundUrl');
    checkIfMatch(ctx.request?.ifMatch, partnerEtag(row));

    const changes = mergePatch(input, subsidiaryId);
    const before = toPartnerResource(row);
    const merged = { ...row, ...changes } as EdiPartnerRow;
    const diff = diffRecords(before, toPartnerResource(merged));
    if (diff.length === 0) return withHeaders(before, { etag: partnerEtag(row) });

    changes.updated_at = formatStoredDateTime(ctx.clock.now());
    const updated = { ...merged, updated_at: changes.updated_at, version: row.version + 1 };
    const their = { qualifier: updated.their_isa_qualifier, isaId: updated.their_isa_id };
    const senderChanged = their.qualifier !== row.their_isa_qualifier || their.isaId !== row.their_isa_id;
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        if (senderChanged) await refuseDuplicateSender(trx, scope.tenantId, their, row.id);
        if (!(await updatePartnerAtVersion(trx, scope, row, changes))) {
          if (!(await getPartnerRow(trx, scope, row.id))) throw notFound('EDI partner');
          throw new AppError('PRECONDITION_FAILED', 'The partner changed since it was read; read it again.');
        }
        await appendPartnerEvent(trx, ctx.clock, {
          tenantId: scope.tenantId,
          type: 'edi.partner.changed',
          partner: toPartnerResource(updated),
          subsidiaryId: updated.subsidiary_id,
          previousSubsidiaryId: row.subsidiary_id,
          changes: diff,
        });
      })
      .catch((error: unknown) => {
        throw duplicateSenderFromConstraint(error, their) ?? error;
      });
    return withHeaders(toPartnerResource(updated), { etag: partnerEtag(updated) });
  });
