import type { Updateable } from 'kysely';
import type { CustomersTable } from '../../db/tables/parties.js';
import { AppError, notFound } from '../errors.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { minorOf } from '../shared/money-input.js';
import { checkIfMatch } from '../shared/etag.js';
import { ZEtagHeader, ZIfMatchRequired } from '../shared/record-headers.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import { diffRecords } from '../events/field-change.js';
import { appendCustomerEvent } from './customer-events.js';
import {
  companyNumberValue,
  customerEtag,
  duplicateFromConstraint,
  getCustomerRow,
  lockCompanyNumbers,
  refuseDuplicates,
  toCustomer,
  updateCustomerAtVersion,
  type CustomerRow,
} from './customer.repository.js';
import { ZCustomer, ZUpdateCustomerInput, type TUpdateCustomerInput } from './customer.schemas.js';
import { customerSubsidiary } from './customer-subsidiary.js';
import { withHeaders } from '../answer-headers.js';

/** The columns a merge patch (RFC 7396) changes; members left out keep the row's values. */
function mergePatch(row: CustomerRow, input: TUpdateCustomerInput, subsidiaryId: string | null): Updateable<CustomersTable> {
  const changes: Updateable<CustomersTable> = { subsidiary_id: subsidiaryId };
  if (input.Name !== undefined) changes.name = input.Name;
  if (input.Type !== undefined) changes.type = input.Type;
  if (input.Status !== undefined) changes.status = input.Status;
  if (input.CompanyNumber !== undefined) {
    changes.company_number = input.CompanyNumber;
    changes.company_number_value = companyNumberValue(input.CompanyNumber);
  }
  if (input.Email !== undefined) changes.emails = JSON.stringify(input.Email);
  if (input.Phone !== undefined) changes.phones = JSON.stringify(input.Phone);
  if (input.ExternalId !== undefined) changes.external_id = input.ExternalId;
  if (input.DetentionFreeMinutes !== undefined) changes.detention_free_minutes = input.DetentionFreeMinutes;
  if (input.DetentionRate !== undefined) {
    changes.detention_rate = input.DetentionRate === null ? null : minorOf(input.DetentionRate.Amount);
    changes.detention_currency = input.DetentionRate === null ? null : input.DetentionRate.Currency;
  }

  const address = input.BillingAddress;
  if (address !== undefined) {
    const hadAddress = row.billing_street !== null;
    changes.billing_street = address?.Street ?? null;
    changes.billing_city = address?.City ?? null;
    changes.billing_state = address?.State ?? null;
    changes.billing_zip_code = address?.ZipCode ?? null;
    changes.billing_country = address === null ? null : address.Country === undefined ? (hadAddress ? row.billing_country : null) : address.Country;
  }
  const invoicing = input.InvoicingInformation;
  if (invoicing !== undefined) {
    const had = row.invoicing_name !== null;
    changes.invoicing_name = invoicing?.InvoicingName ?? null;
    changes.invoicing_emails =
      invoicing === null ? null : invoicing.EmailAddresses !== undefined ? JSON.stringify(invoicing.EmailAddresses) : had ? row.invoicing_emails : '[]';
    changes.invoicing_payment_terms_days =
      invoicing === null ? null : invoicing.PaymentTermsDays !== undefined ? invoicing.PaymentTermsDays : had ? row.invoicing_payment_terms_days : null;
  }
  return changes;
}

export const updateCustomer = authedProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/api/p/v{version}/customers/{id}',
      tags: ['Customers'],
      summary: 'Update a customer',
      description:
        'A JSON merge patch (RFC 7396): a field left out is unchanged, null clears a nullable field (SubsidiaryId, ' +
        'BillingAddress, InvoicingInformation, ExternalId, DetentionFreeMinutes, DetentionRate, and Country and PaymentTermsDays ' +
        'inside them); null on any other ' +
        'field is a 400. Send at least one field. BillingAddress and InvoicingInformation merge into the current ones; DetentionRate is replaced whole. ' +
        'If-Match with the ETag of the GET is required (428 without, 412 when stale). A CompanyNumber or ExternalId another ' +
        'customer holds is a 409 Conflict/Duplicate naming the field. A patch that changes nothing keeps the ETag and emits ' +
        'nothing; otherwise customer.updated carries data.diff.changes.',
      protect: true,
      requestHeaders: ZIfMatchRequired,
      responseHeaders: ZEtagHeader,
      errorResponses: [409, 412, 428],
    },
    scopes: ['customer:update'],
  })
  .input(ZUpdateCustomerInput)
  .output(ZCustomer)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const row = await getCustomerRow(ctx.db, scope, input.id);
    if (!row) throw notFound('Customer');
    const subsidiaryId = await customerSubsidiary(ctx.db, scope, input.SubsidiaryId, { subsidiaryId: row.subsidiary_id });
    checkIfMatch(ctx.request?.ifMatch, customerEtag(row));

    const changes = mergePatch(row, input, subsidiaryId);
    const before = toCustomer(row);
    const diff = diffRecords(before, toCustomer({ ...row, ...changes } as CustomerRow));
    if (diff.length === 0) {
      return withHeaders(before, { etag: customerEtag(row) });
    }
    changes.updated_at = formatStoredDateTime(ctx.clock.now());
    const updated = { ...row, ...changes, version: row.version + 1 } as CustomerRow;
    const companyNumber = input.CompanyNumber !== undefined && input.CompanyNumber !== row.company_number ? input.CompanyNumber : undefined;
    const externalId = input.ExternalId !== undefined && input.ExternalId !== row.external_id ? input.ExternalId : undefined;

    await ctx.db
      .transaction()
      .execute(async (trx) => {
        if (companyNumber !== undefined) await lockCompanyNumbers(trx, scope.tenantId);
        await refuseDuplicates(trx, scope.tenantId, { companyNumber, externalId, exceptId: row.id });
        if (!(await updateCustomerAtVersion(trx, row, changes))) {
          if (!(await getCustomerRow(trx, scope, row.id))) throw notFound('Customer');
          throw new AppError('PRECONDITION_FAILED', 'The customer changed since it was read; read it again.');
        }
        const after = toCustomer(updated);
        await appendCustomerEvent(trx, ctx.clock, { tenantId: scope.tenantId, type: 'customer.updated', customer: after, before, changes: diff });
      })
      .catch((error: unknown) => {
        throw duplicateFromConstraint(error, { companyNumber: updated.company_number, externalId: updated.external_id }) ?? error;
      });

    return withHeaders(toCustomer(updated), { etag: customerEtag(updated) });
  });
