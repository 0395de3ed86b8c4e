import { z } from 'zod';
import { bodyEnumList, queryEnumList } from '../shared/enum-lists.js';
import { ZContainsText, ZDateTimeRange } from '../shared/master-data-filters.js';
import { ZText } from '../shared/money-input.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';
import { ZQueryPage, ZSearchPage, pageOf } from '../shared/search-page.js';
import { ZPostalAddress } from '../locations/location.schemas.js';
import { ZContactList, ZPostalAddressInput, ZPostalAddressPatch } from '../shared/master-data-input.js';
import { ZCustomerFreeMinutes, ZDetentionRate, ZDetentionRateInput } from './customer-detention.schemas.js';

export const CUSTOMER_TYPES = ['Customer', 'Broker/3PL'] as const;
export const CUSTOMER_STATUSES = ['Active', 'Inactive'] as const;

const ZDateTimeOut = z.iso.datetime().meta({ description: 'ISO 8601 date-time, UTC.', example: '2026-11-18T00:00:00.000Z' });

export const ZInvoicingInformation = z
  .object({
    InvoicingName: z.string(),
    EmailAddresses: z.array(z.string()),
    PaymentTermsDays: z.number().int().nullable(),
  })
  .meta({ id: 'InvoicingInformation' });

export const ZCustomer = z
  .object({
    Id: z.string(),
    Name: z.string(),
    CompanyNumber: z.string().meta({ description: 'Unique per tenant among customers that are not deleted.', example: '1001' }),
    Type: z.enum(CUSTOMER_TYPES),
    Status: z.enum(CUSTOMER_STATUSES),
    SubsidiaryId: z
      .string()
      .nullable()
      .meta({ description: 'null: the customer belongs to no subsidiary and every client of the tenant sees it.' }),
    BillingAddress: ZPostalAddress.nullable(),
    Email: z.array(z.string()),
    Phone: z.array(z.string()),
    InvoicingInformation: ZInvoicingInformation.nullable(),
    ExternalId: z.string().nullable().meta({ description: "The integration's own id; unique per tenant among customers that are not deleted." }),
    DetentionFreeMinutes: z.number().int().nullable().meta({ description: "Free time at the customer's stops before detention, in minutes; null: 120 (a location's own wins)." }),
    DetentionRate: ZDetentionRate,
    CreatedAt: ZDateTimeOut,
    UpdatedAt: ZDateTimeOut,
  })
  .meta({ id: 'Customer' });
export type TCustomer = z.infer<typeof ZCustomer>;

export const ZCustomerPage = pageOf(ZCustomer).meta({ id: 'CustomerPage' });

export const ZCustomerIdInput = input({ id: ZPathId });

const ZName = ZText(200);
const ZCompanyNumber = ZText(50).meta({ example: '1001' });
const ZCustomerExternalId = z.string().min(1).max(128).meta({ description: "The integration's own id, at most 128 characters." });
const ZSubsidiaryId = z.string().min(1).max(200);
const ZPaymentTermsDays = z.number().int().min(0).max(365);

const ZInvoicingInput = z.strictObject({
  InvoicingName: ZText(200),
  EmailAddresses: ZContactList.optional().meta({ description: 'Where invoices are sent; none when left out.' }),
  PaymentTermsDays: ZPaymentTermsDays.nullish(),
});

export const ZCreateCustomerInput = input({
  Name: ZName,
  Type: z.enum(CUSTOMER_TYPES),
  Status: z.enum(CUSTOMER_STATUSES).optional().meta({ description: 'Active when left out.' }),
  CompanyNumber: ZCompanyNumber.nullish().meta({ description: 'Left out or null: the next free number of the tenant.' }),
  SubsidiaryId: ZSubsidiaryId.nullish().meta({
    description:
      "A tenant-wide client may name any subsidiary of the tenant, or none. A subsidiary-bound client's customers are " +
      'in its own subsidiary: leave it out or name that one (another is a 404).',
  }),
  BillingAddress: ZPostalAddressInput.nullish(),
  Email: ZContactList.optional(),
  Phone: ZContactList.optional(),
  InvoicingInformation: ZInvoicingInput.nullish(),
  ExternalId: ZCustomerExternalId.nullish(),
  DetentionFreeMinutes: ZCustomerFreeMinutes.nullish(),
  DetentionRate: ZDetentionRateInput.nullish(),
});
export type TCreateCustomerInput = z.output<typeof ZCreateCustomerInput>;

const ZInvoicingPatch = z
  .strictObject({
    InvoicingName: ZText(200),
    EmailAddresses: ZContactList.optional().meta({ description: 'Left out: unchanged.' }),
    PaymentTermsDays: ZPaymentTermsDays.nullish().meta({ description: 'Left out: unchanged; null clears it.' }),
  })
  .meta({ description: 'InvoicingName is required; the other members left out keep their current values.' });

export const PATCH_FIELDS = [
  'Name',
  'Type',
  'Status',
  'CompanyNumber',
  'SubsidiaryId',
  'BillingAddress',
  'Email',
  'Phone',
  'InvoicingInformation',
  'ExternalId',
  'DetentionFreeMinutes',
  'DetentionRate',
] as const;

export const ZUpdateCustomerInput = input({
  id: ZPathId,
  Name: ZName.optional(),
  Type: z.enum(CUSTOMER_TYPES).optional(),
  Status: z.enum(CUSTOMER_STATUSES).optional(),
  CompanyNumber: ZCompanyNumber.optional(),
  SubsidiaryId: ZSubsidiaryId.nullish().meta({
    description: 'null: the customer belongs to no subsidiary. A subsidiary-bound client may name only its own (anything else is a 404).',
  }),
  BillingAddress: ZPostalAddressPatch.nullish(),
  Email: ZContactList.optional(),
  Phone: ZContactList.optional(),
  InvoicingInformation: ZInvoicingPatch.nullish(),
  ExternalId: ZCustomerExternalId.nullish(),
  DetentionFreeMinutes: ZCustomerFreeMinutes.nullish().meta({ description: 'null clears it (120 applies).' }),
  DetentionRate: ZDetentionRateInput.nullish().meta({ description: 'Replaced whole; null stops billing detention.' }),
})
  .superRefine((value, ctx) => {
    if (PATCH_FIELDS.every((field) => value[field] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `Send at least one of ${PATCH_FIELDS.join(', ')}.` });
    }
  })
  .register(bodyRules, atLeastOneOf(PATCH_FIELDS));
export type TUpdateCustomerInput = z.output<typeof ZUpdateCustomerInput>;

export const ZFindCustomersInput = input({
  ...ZQueryPage,
  Status: queryEnumList(CUSTOMER_STATUSES).optional(),
  Name: ZContainsText.optional().meta({ description: 'Matches the Name anywhere, case-insensitively.' }),
  CompanyNumber: z.string().min(1).max(50).optional().meta({ description: 'Exact CompanyNumber.' }),
  ExternalId: z.string().min(1).max(128).optional().meta({ description: 'Exact ExternalId.' }),
});

export const ZSearchCustomersInput = input({
  ...ZSearchPage,
  Statuses: bodyEnumList(CUSTOMER_STATUSES).nullish(),
  Types: bodyEnumList(CUSTOMER_TYPES).nullish(),
  Name: ZContainsText.nullish().meta({ description: 'Matches the Name anywhere, case-insensitively.' }),
  CreatedAtRange: ZDateTimeRange('CreatedAt'),
  UpdatedAtRange: ZDateTimeRange('UpdatedAt'),
});

/** What GET /customers and POST /customers/search filter by, after validation. */
export type TCustomerFilter = z.output<typeof ZSearchCustomersInput> & {
  CompanyNumber?: string | undefined;
  ExternalId?: string | undefined;
};
