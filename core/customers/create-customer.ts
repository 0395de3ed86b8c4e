import { appendCustomerEvent } from './customer-events.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import { minorOf } from '../shared/money-input.js';
import { ZCreatedHeaders } from '../shared/record-headers.js';
import { newRecordId } from '../shared/record-id.js';
import { scopeOf } from '../shared/scope.js';
import { authedProcedure } from '../trpc.js';
import {
  assignCompanyNumber,
  companyNumberValue,
  customerEtag,
  duplicateFromConstraint,
  insertCustomer,
  lockCompanyNumbers,
  refuseDuplicates,
  toCustomer,
  type CustomerRow,
} from './customer.repository.js';
import { ZCreateCustomerInput, ZCustomer } from './customer.schemas.js';
import { customerSubsidiary } from './customer-subsidiary.js';
import { withHeaders } from '../answer-headers.js';

export const createCustomer = authedProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/api/p/v{version}/customers',
      tags: ['Customers'],
      summary: 'Create a customer',
      description:
        'Name and Type are required; Status defaults to Active. Without CompanyNumber the customer gets the next free ' +
        "number of the tenant (one more than the tenant's highest numeric CompanyNumber, deleted customers included). A " +
        'CompanyNumber or ExternalId another customer of the tenant holds is a 409 Conflict/Duplicate whose Detail and ' +
        "Field name the field (a deleted customer's no longer count). DetentionFreeMinutes and DetentionRate are the " +
        'detention terms of its loads\' stops: the free time before detention starts and the hourly rate billed at departure. Emits customer.created.',
      protect: true,
      responseHeaders: ZCreatedHeaders,
      errorResponses: [409],
    },
    scopes: ['customer:create'],
    successStatus: 201,
  })
  .input(ZCreateCustomerInput)
  .output(ZCustomer)
  .mutation(async ({ ctx, input }) => {
    const scope = scopeOf(ctx.principal);
    const subsidiaryId = await customerSubsidiary(ctx.db, scope, input.SubsidiaryId, 'create');
    const now = formatStoredDateTime(ctx.clock.now());
    const id = newRecordId('cus');
    const externalId = input.ExternalId ?? null;
    let companyNumber = input.CompanyNumber ?? '';

    const row = await ctx.db
      .transaction()
      .execute(async (trx) => {
        if (input.CompanyNumber) {
          await lockCompanyNumbers(trx, scope.tenantId);
          await refuseDuplicates(trx, scope.tenantId, { companyNumber, externalId });
        } else {
          companyNumber = await assignCompanyNumber(trx, scope.tenantId);
          await refuseDuplicates(trx, scope.tenantId, { externalId });
        }
        const address = input.BillingAddress ?? null;
        const invoicing = input.InvoicingInformation ?? null;
        const created: CustomerRow = {
          id,
          tenant_id: scope.tenantId,
          subsidiary_id: subsidiaryId,
          name: input.Name,
          visibility_url: null,
          visibility_secret_encrypted: null,
          company_number: companyNumber,
          company_number_value: companyNumberValue(companyNumber),
          type: input.Type,
          status: input.Status ?? 'Active',
          billing_street: address?.Street ?? null,
          billing_city: address?.City ?? null,
          billing_state: address?.State ?? null,
          billing_zip_code: address?.ZipCode ?? null,
          billing_country: address?.Country ?? null,
          emails: JSON.stringify(input.Email ?? []),
          phones: JSON.stringify(input.Phone ?? []),
          invoicing_name: invoicing?.InvoicingName ?? null,
          invoicing_emails: invoicing ? JSON.stringify(invoicing.EmailAddresses ?? []) : null,
          invoicing_payment_terms_days: invoicing?.PaymentTermsDays ?? null,
          external_id: externalId,
          detention_free_minutes: input.DetentionFreeMinutes ?? null,
          detention_rate: input.DetentionRate ? minorOf(input.DetentionRate.Amount) : null,
          detention_currency: input.DetentionRate ? input.DetentionRate.Currency : null,
          version: 1,
          deleted_at: null,
          created_at: now,
          updated_at: now,
        };
        await insertCustomer(trx, created);
        await appendCustomerEvent(trx, ctx.clock, { tenantId: scope.tenantId, type: 'customer.created', customer: toCustomer(created) });
        return created;
      })
      .catch((error: unknown) => {
        throw duplicateFromConstraint(error, { companyNumber, externalId }) ?? error;
      });

    return withHeaders(toCustomer(row), {
      etag: customerEtag(row),
      location: `/api/p/v${input.version}/customers/${encodeURIComponent(row.id)}`,
    });
  });
