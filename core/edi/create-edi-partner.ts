import { withHeaders } from '../answer-headers.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { generateWebhookSecret, sealSecret } from '../webhooks/signing.js';
import { assertTarget } from '../webhooks/validate-target.js';
import { partnerSubsidiary } from './partner-customer.js';
import { appendPartnerEvent } from './partner-events.js';
import {
  duplicateSenderFromConstraint,
  insertPartner,
  partnerEtag,
  refuseDuplicateSender,
  toPartnerResource,
  type EdiPartnerRow,
} from './partner.repository.js';
import { ZCreateEdiPartnerInput, ZCreatedEdiPartner } from './partner.schemas.js';

export const createEdiPartner = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/edi/partners',
      tags: ['EDI'],
      summary: 'Create an EDI trading partner',
      description:
        'A shipper that exchanges X12 004010 with us (ISA/GS ids on both sides, the sets exchanged, where our documents go). CustomerId must be a customer the caller ' +
        "sees (404 naming it); the partner belongs to the customer's subsidiary, and a subsidiary-bound client may name only " +
        "its own subsidiary's customers. (Their.IsaQualifier, Their.IsaId) names one partner of the tenant: taken, it is a " +
        '409 Conflict/Duplicate whose Field is Their.IsaId. The answer carries Secret once: it signs outbound deliveries ' +
        '(Standard Webhooks headers). Status defaults to Active. Send Idempotency-Key to retry safely. Emits edi.partner.created.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
      errorResponses: [409],
    },
    scopes: ['edi:manage'],
    successStatus: 201,
  })
  .input(ZCreateEdiPartnerInput)
  .output(ZCreatedEdiPartner)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    if (input.OutboundUrl) await assertTarget(ctx.config, input.OutboundUrl, 'OutboundUrl');
    const subsidiaryId = await partnerSubsidiary(ctx.db, scope, input.CustomerId);
    const secret = generateWebhookSecret();
    const now = formatStoredDateTime(ctx.clock.now());
    const their = { qualifier: input.Their.IsaQualifier, isaId: input.Their.IsaId };
    const row: EdiPartnerRow = {
      id: newRecordId('edp'),
      tenant_id: scope.tenantId,
      subsidiary_id: subsidiaryId,
      customer_id: input.CustomerId,
      name: input.Name,
      their_isa_qualifier: input.Their.IsaQualifier,
      their_isa_id: input.Their.IsaId,
      their_gs_id: input.Their.GsId,
      our_isa_qualifier: input.Our.IsaQualifier,
      our_isa_id: input.Our.IsaId,
      our_gs_id: input.Our.GsId,
      our_scac: input.Our.Scac,
      transactions: JSON.stringify(input.Transactions),
      outbound_url: input.OutboundUrl ?? null,
      usage_indicator: input.UsageIndicator,
      status: input.Status ?? 'Active',
      secret_encrypted: sealSecret(ctx.config, 'edi-partner-secret', secret),
      last_control_number: 0,
      version: 1,
      created_at: now,
      updated_at: now,
    };
    await ctx.db
      .transaction()
      .execute(async (trx) => {
        await refuseDuplicateSender(trx, scope.tenantId, their);
        await insertPartner(trx, row);
        await appendPartnerEvent(trx, ctx.clock, { tenantId: scope.tenantId, type: 'edi.partner.created', partner: toPartnerResource(row), subsidiaryId });
      })
      .catch((error: unknown) => {
        throw duplicateSenderFromConstraint(error, their) ?? error;
      });
    return withHeaders(
      { ...toPartnerResource(row), Secret: secret },
      { etag: partnerEtag(row), location: `/api/p/v${input.version}/edi/partners/${encodeURIComponent(row.id)}` },
    );
  });
