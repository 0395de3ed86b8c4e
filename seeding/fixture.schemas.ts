import { z } from 'zod';
import { isScopeName } from '../core/auth/scopes.js';
import { ZNewDocument } from '../core/documents/new-document.schemas.js';
import { NEW_INVOICE_FIELDS, checkNewInvoice } from '../core/invoices/new-invoice.schemas.js';
import { ZNewLoad } from '../core/loads/new-load.schemas.js';
import { ZExternalIds } from '../core/external-ids/external-ids.schemas.js';
import { ZDepartRadiusMeters, ZDetentionFreeMinutes, ZGeofenceInput, toGeofence } from '../core/locations/geofence.schemas.js';
import { ZCustomerFreeMinutes, ZDetentionRateInput } from '../core/customers/customer-detention.schemas.js';
import { fenceProblem } from '../core/locations/location-fence-rules.js';
import {
  ZCoordinates,
  ZRecordDateTime,
  ZRecordId,
  ZRecordMoney,
  ZRecordText,
  ZTimeZone,
  instantOf,
  withProblem,
} from '../core/shared/record-fields.js';
import { DRIVER_STATEMENT_STATUSES } from '../core/shared/statuses.js';
import { ZCreateDriverInput, ZCreateTrailerInput, ZCreateTruckInput } from '../core/assets/asset.schemas.js';
import { FUEL_IMPORT_FIELDS, checkFuelAmounts } from '../core/fuel/fuel.schemas.js';
import { TOLL_IMPORT_FIELDS, checkTollAmounts } from '../core/tolls/toll.schemas.js';
import { TENDER_STATUSES, ZCreateTenderInput } from '../core/tenders/tender.schemas.js';

/**
 * The fixture format of docs/fixtures.md. Every object is strict: an unknown
 * field is an error, so a typo never silently loads nothing. Optional fields also accept null
 * as "not given", except where null itself is a value (a stop's `Eta`). A load (with its trips,
 * stops, references, line items and documents) and an invoice are their domains' input shapes
 * (core/loads/new-load.schemas.ts, core/invoices/new-invoice.schemas.ts); the other records are
 * here. Cross-record rules (unique ids, ids that must exist) live in fixture-checks.ts; rules
 * within one record are here.
 */

// Messages are phrased to follow the path they are printed after: `Stops[2].Status: is required`.
const ZHttpUrl = withProblem(z.string(), (value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? null : 'must be an http or https URL';
  } catch {
    return 'must be an absolute http or https URL';
  }
});

/** Standard Webhooks secrets: `whsec_` and the base64 of 24 to 64 random bytes. */
const ZSigningSecret = withProblem(z.string(), (value) => {
  const body = value.startsWith('whsec_') ? value.slice('whsec_'.length) : null;
  if (body === null || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return 'must be whsec_ followed by base64';
  const length = Buffer.from(body, 'base64').length;
  return length >= 24 && length <= 64 ? null : 'must encode 24 to 64 random bytes after whsec_';
});

const ZEventType = z
  .string()
  .regex(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*(\.\*)?$/, 'must be an event type such as trip.changed or a pattern such as trip.*');

const ZScope = withProblem(z.string(), (value) => (isScopeName(value) ? null : 'is not a scope of the scope catalog'));

const ZStatementNumber = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const ZStatementTrip = z.strictObject({
  TripId: ZRecordId,
  TripNumber: ZRecordText.nullish(),
  LoadNumber: ZRecordText.nullish(),
  Origin: z.string().nullish(),
  Destination: z.string().nullish(),
  PickedUpAt: ZRecordDateTime.nullish(),
  DeliveredAt: ZRecordDateTime.nullish(),
  InvoiceNumber: z.string().nullish(),
  InvoiceDueDate: ZRecordDateTime.nullish(),
  NetAmount: ZRecordMoney.nullish(),
  LineHaulAmount: ZRecordMoney.nullish(),
  AccessorialsAmount: ZRecordMoney.nullish(),
  Items: z
    .array(
      z.strictObject({
        Description: ZRecordText,
        Type: ZRecordText,
        Amount: ZRecordMoney,
        AccountingTag: z.string().nullish(),
      }),
    )
    .nullish(),
});

const ZPayment = z.strictObject({
  Id: ZRecordId,
  Amount: ZRecordMoney,
  PaymentDate: ZRecordDateTime,
  PaymentMethod: z.string().nullish(),
  ReferenceNumber: z.string().nullish(),
  CheckNumber: z.string().nullish(),
});

/** docs/api-rules.md#settlement-statements plus IsDeleted; Payee name and numbers default to the payee record's. */
export const ZFixtureCarrierStatement = z.strictObject({
  Number: ZStatementNumber,
  Status: ZRecordText,
  StatementDate: ZRecordDateTime,
  RemittanceDate: ZRecordDateTime.nullish(),
  SubsidiaryId: ZRecordId,
  Payee: z.strictObject({
    Type: z.enum(['Carrier', 'FactoringCompany']),
    Id: ZRecordId,
    Name: ZRecordText.nullish(),
    McNumber: z.string().nullish(),
    DotNumber: z.string().nullish(),
  }),
  RemitTo: z.string().nullish(),
  PaymentProvider: ZRecordText,
  NetAmount: ZRecordMoney,
  PaidAmount: ZRecordMoney,
  RemainingAmount: ZRecordMoney,
  Trips: z.array(ZStatementTrip),
  Payments: z.array(ZPayment),
  IsDeleted: z.boolean().nullish(),
});
export type TFixtureCarrierStatement = z.infer<typeof ZFixtureCarrierStatement>;

export const ZFixtureDriverStatement = z.strictObject({
  Number: ZStatementNumber,
  DriverId: ZRecordId,
  Status: z.enum(DRIVER_STATEMENT_STATUSES),
  StatementDate: ZRecordDateTime,
  SubsidiaryId: ZRecordId.nullish(),
});
export type TFixtureDriverStatement = z.infer<typeof ZFixtureDriverStatement>;

/** docs/api-rules.md#deductions; the record belongs to a driver or to a truck, never both. */
export const ZFixtureDeduction = z
  .strictObject({
    Id: ZRecordId,
    Type: z.enum(['Deduction', 'Credit']),
    GroupId: ZRecordText,
    Description: ZRecordText,
    Category: ZRecordText,
    Amount: ZRecordMoney,
    Date: ZRecordDateTime,
    IsPaid: z.boolean(),
    CreatedAt: ZRecordDateTime,
    DriverId: ZRecordId.nullish(),
    TruckId: ZRecordId.nullish(),
    OwnerOperatorId: ZRecordId.nullish(),
    CreatedBy: z.string().nullish(),
    ExternalId: z.string().nullish(),
  })
  .superRefine((deduction, ctx) => {
    if (Boolean(deduction.DriverId) === Boolean(deduction.TruckId)) {
      ctx.addIssue({
        code: 'custom',
        path: [deduction.DriverId ? 'TruckId' : 'DriverId'],
        message: 'a deduction belongs to a driver or to a truck: give exactly one of DriverId and TruckId',
      });
    }
  });
export type TFixtureDeduction = z.infer<typeof ZFixtureDeduction>;

export const ZFixtureWebhook = z.strictObject({
  Id: ZRecordId,
  Name: ZRecordText,
  Url: ZHttpUrl,
  SubsidiaryId: ZRecordId,
  EventTypes: z.array(ZEventType).min(1),
  Secret: ZSigningSecret.nullish(),
  Enabled: z.boolean().nullish(),
});
export type TFixtureWebhook = z.infer<typeof ZFixtureWebhook>;

/**
 * A record with the optional `CreatedAt` and `UpdatedAt` of docs/fixtures.md#shape
 * (the load time when left out); UpdatedAt must not be before CreatedAt.
 */
function withTimestamps<S extends z.ZodRawShape>(shape: S) {
  return z
    .strictObject({ ...shape, CreatedAt: ZRecordDateTime.nullish(), UpdatedAt: ZRecordDateTime.nullish() })
    .superRefine((record, ctx) => {
      const { CreatedAt: created, UpdatedAt: updated } = record as { CreatedAt?: string | null; UpdatedAt?: string | null };
      if (created && updated && instantOf(updated) < instantOf(created)) {
        ctx.addIssue({ code: 'custom', path: ['UpdatedAt'], message: 'must not be before CreatedAt' });
      }
    });
}

/**
 * A fuel or toll transaction is its import body plus Id (docs/fixtures.md#shape):
 * the import's own fields and rules, so a full FuelCardNumber is cut to its last 4 digits here.
 */
const ZFixtureFuelTransaction = withTimestamps({ Id: ZRecordId, ...FUEL_IMPORT_FIELDS }).superRefine(checkFuelAmounts);
const ZFixtureTollTransaction = withTimestamps({ Id: ZRecordId, ...TOLL_IMPORT_FIELDS }).superRefine(checkTollAmounts);

/** Master-data addresses: Street, City, State and ZipCode required, Country optional. */
const ZPostalAddress = z.strictObject({
  Street: ZRecordText,
  City: ZRecordText,
  State: ZRecordText,
  ZipCode: ZRecordText,
  Country: ZRecordText.nullish(),
});

/** Email and Phone of master data: arrays of strings. */
const ZContactList = z.array(z.string().min(1).max(200)).max(20);

export const ZFixtureInsurance = z.strictObject({
  Type: ZRecordText.max(100),
  Agent: z.string().max(200).nullish(),
  PolicyNumber: z.string().max(100).nullish(),
  ExpirationDate: ZRecordDateTime.nullish(),
  Amount: ZRecordMoney,
});
export type TFixtureInsurance = z.infer<typeof ZFixtureInsurance>;

export const ZFixtureUser = withTimestamps({
  Id: ZRecordId,
  UserName: ZRecordText.max(200),
  Name: ZRecordText.max(200),
  Email: ZRecordText.max(320),
  Phone: z.string().max(50).nullish(),
  Role: z.enum(['Admin', 'Dispatcher', 'Driver', 'Biller', 'SalesAgent', 'DataEntry', 'Safety']),
  Status: z.enum(['Active', 'Disabled']).nullish(),
  SubsidiaryId: ZRecordId.nullish(),
});
export type TFixtureUser = z.infer<typeof ZFixtureUser>;

export const ZFixtureLocation = withTimestamps({
  Id: ZRecordId,
  Name: ZRecordText.max(200),
  CompanyNumber: ZRecordText.max(100).nullish(),
  Type: z.enum(['Terminal', 'Shipper/Consignee', 'Cold Warehouse', 'Dry Warehouse']),
  Status: z.enum(['Active', 'Inactive', 'Disabled']).nullish(),
  PhysicalAddress: ZPostalAddress,
  Coordinates: ZCoordinates.nullish(),
  TimeZone: ZTimeZone.nullish(),
  Email: ZContactList.nullish(),
  Phone: ZContactList.nullish(),
  ExternalId: z.string().min(1).max(128).nullish(),
  Geofence: ZGeofenceInput.nullish(),
  DepartRadiusMeters: ZDepartRadiusMeters.nullish(),
  DetentionFreeMinutes: ZDetentionFreeMinutes.nullish(),
}).superRefine((location, ctx) => {
  const problem = fenceProblem({
    Coordinates: location.Coordinates ?? null,
    Geofence: location.Geofence ? toGeofence(location.Geofence) : null,
    DepartRadiusMeters: location.DepartRadiusMeters ?? null,
  });
  if (problem) ctx.addIssue({ code: 'custom', path: [problem.fields[0]!], message: problem.message });
});
export type TFixtureLocation = z.infer<typeof ZFixtureLocation>;

/** A truck's preferred crew; who else may be named (the tenant's own records, a driver on one truck) is fixture-checks.ts's. */
export const ZFixtureDispatchPreference = withTimestamps({
  TruckId: ZRecordId,
  Driver1Id: ZRecordId,
  Driver2Id: ZRecordId.nullish(),
  TrailerId: ZRecordId.nullish(),
  DispatcherId: ZRecordId.nullish(),
}).superRefine((preference, ctx) => {
  if (preference.Driver2Id && preference.Driver2Id === preference.Driver1Id) {
    ctx.addIssue({ code: 'custom', path: ['Driver2Id'], message: 'must be another driver than Driver1Id' });
  }
});
export type TFixtureDispatchPreference = z.infer<typeof ZFixtureDispatchPreference>;

export const ZFixtureCustomer = withTimestamps({
  Id: ZRecordId,
  Name: ZRecordText.max(200),
  SubsidiaryId: ZRecordId.nullish(),
  VisibilityUrl: ZHttpUrl.nullish(),
  VisibilitySecret: ZSigningSecret.nullish(),
  Type: z.enum(['Customer', 'Broker/3PL']).nullish(),
  Status: z.enum(['Active', 'Inactive']).nullish(),
  CompanyNumber: ZRecordText.max(50).nullish(),
  BillingAddress: ZPostalAddress.nullish(),
  Email: ZContactList.nullish(),
  Phone: ZContactList.nullish(),
  InvoicingInformation: z
    .strictObject({
      InvoicingName: ZRecordText.max(200),
      EmailAddresses: ZContactList.nullish(),
      PaymentTermsDays: z.number().int().min(0).max(365).nullish(),
    })
    .nullish(),
  ExternalId: z.string().min(1).max(128).nullish(),
  DetentionFreeMinutes: ZCustomerFreeMinutes.nullish(),
  DetentionRate: ZDetentionRateInput.nullish(),
});
export type TFixtureCustomer = z.infer<typeof ZFixtureCustomer>;

/**
 * docs/fixtures.md#shape: an invoice as the API shows it, without RemainingBalance
 * (Total − AmountPaid) and CustomerName (the customer's): the invoice domain's whole invoice
 * (core/invoices/new-invoice.schemas.ts) with CreatedAt and UpdatedAt.
 */
export const ZFixtureInvoice = withTimestamps(NEW_INVOICE_FIELDS).superRefine(checkNewInvoice);
export type TFixtureInvoice = z.infer<typeof ZFixtureInvoice>;

/**
 * docs/fixtures.md#shape: a tender as the API shows it. Its stops are validated by
 * the very schema POST /tenders uses; SubsidiaryId, when given, must be its customer's; an
 * Accepted (or Cancelled after acceptance) tender names its load by LoadNumber, which must be a
 * load of the fixture's tenant (fixture-checks.ts).
 */
export const ZFixtureTender = withTimestamps({
  Id: ZRecordId,
  ExternalId: z.string().min(1).max(128),
  Status: z.enum(TENDER_STATUSES).nullish(),
  CustomerId: ZRecordId,
  SubsidiaryId: ZRecordId.nullish(),
  ReceivedAt: ZRecordDateTime.nullish(),
  RespondBy: ZRecordDateTime.nullish(),
  RespondedAt: ZRecordDateTime.nullish(),
  RejectionReason: z.string().min(1).max(200).nullish(),
  LoadNumber: ZRecordText.max(100).nullish(),
  Rate: ZRecordMoney,
  Equipment: z.string().min(1).max(100).nullish(),
  References: z.array(z.strictObject({ Name: z.string().min(1).max(50), Value: z.string().min(1).max(40) })).nullish(),
  Stops: ZCreateTenderInput.shape.Stops,
}).superRefine((tender, ctx) => {
  if (tender.Status === 'Accepted' && !tender.LoadNumber) ctx.addIssue({ code: 'custom', path: ['LoadNumber'], message: 'is required for an Accepted tender' });
  if (tender.LoadNumber && tender.Status !== 'Accepted' && tender.Status !== 'Cancelled') {
    ctx.addIssue({ code: 'custom', path: ['LoadNumber'], message: 'is set only on an Accepted (or later Cancelled) tender' });
  }
  if (tender.RejectionReason && tender.Status !== 'Rejected') ctx.addIssue({ code: 'custom', path: ['RejectionReason'], message: 'is set only on a Rejected tender' });
});
export type TFixtureTender = z.infer<typeof ZFixtureTender>;

export const ZFixtureTenant = z.strictObject({
  Id: ZRecordId,
  Name: ZRecordText,
  Plan: z.enum(['Standard', 'HosEta']),
  Subsidiaries: z.array(z.strictObject({ Id: ZRecordId, Name: ZRecordText })),
  Clients: z.array(
    z.strictObject({
      ClientId: ZRecordId,
      ClientSecret: ZRecordText,
      Scopes: z.array(ZScope),
      SubsidiaryId: ZRecordId.nullish(),
      Name: ZRecordText.nullish(),
    }),
  ),
  Customers: z.array(ZFixtureCustomer),
  Carriers: z.array(
    withTimestamps({
      Id: ZRecordId,
      Name: ZRecordText,
      McNumber: z.string().nullish(),
      DotNumber: z.string().nullish(),
      Status: z.enum(['Pending', 'Active', 'Inactive']).nullish(),
      Address: ZPostalAddress.nullish(),
      Email: ZContactList.nullish(),
      Phone: ZContactList.nullish(),
      InsuranceInfo: z.array(ZFixtureInsurance).nullish(),
      ExternalIds: ZExternalIds.nullish(),
      Documents: z.array(ZNewDocument).nullish(),
    }),
  ),
  Users: z.array(ZFixtureUser).nullish(),
  Locations: z.array(ZFixtureLocation).nullish(),
  DispatchPreferences: z.array(ZFixtureDispatchPreference).nullish(),
  // The API's create bodies (docs/api-rules.md#drivers-trucks-and-trailers) with the record's Id.
  Drivers: z.array(withTimestamps({ ...ZCreateDriverInput.omit({ version: true }).shape, Id: ZRecordId })),
  OwnerOperators: z.array(z.strictObject({ Id: ZRecordId, Name: ZRecordText, SubsidiaryId: ZRecordId.nullish() })).nullish(),
  FactoringCompanies: z
    .array(
      z.strictObject({ Id: ZRecordId, Name: ZRecordText, McNumber: z.string().nullish(), DotNumber: z.string().nullish() }),
    )
    .nullish(),
  Trucks: z.array(withTimestamps({ ...ZCreateTruckInput.omit({ version: true }).shape, Id: ZRecordId })),
  Trailers: z.array(withTimestamps({ ...ZCreateTrailerInput.omit({ version: true }).shape, Id: ZRecordId })),
  ReferenceDefinitions: z.array(
    z.strictObject({
      Id: ZRecordId,
      Name: z.string().min(1).max(50),
      Type: ZRecordText,
      Entities: z.array(z.enum(['Trip', 'Load'])).min(1),
    }),
  ),
  AccessorialTypes: z
    .array(
      z.strictObject({
        Id: ZRecordId,
        Name: ZRecordText,
        AppliesTo: z.array(z.enum(['Driver', 'Customer', 'Carrier'])).min(1),
        IsDeleted: z.boolean().nullish(),
      }),
    )
    .nullish(),
  Loads: z.array(ZNewLoad),
  CarrierSettlementStatements: z.array(ZFixtureCarrierStatement),
  DriverSettlementStatements: z.array(ZFixtureDriverStatement).nullish(),
  Deductions: z.array(ZFixtureDeduction),
  Webhooks: z.array(ZFixtureWebhook).nullish(),
  Invoices: z.array(ZFixtureInvoice).nullish(),
  FuelTransactions: z.array(ZFixtureFuelTransaction).nullish(),
  TollTransactions: z.array(ZFixtureTollTransaction).nullish(),
  Tenders: z.array(ZFixtureTender).nullish(),
});
export type TFixtureTenant = z.infer<typeof ZFixtureTenant>;

export const ZFixture = z.strictObject({ Tenants: z.array(ZFixtureTenant) });
export type TFixture = z.infer<typeof ZFixture>;

function describeType(expected: string): string {
  if (expected === 'object') return 'an object';
  if (expected === 'array') return 'an array';
  if (expected === 'int') return 'a whole number';
  return `a ${expected}`;
}

function quoteList(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(', ');
}

/**
 * Zod's messages rephrased to read after a field path. Passed to `safeParse` so the schemas
 * above stay plain; messages set by the schemas themselves are kept.
 */
export const fixtureErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `must be ${describeType(issue.expected)}${issue.input === null ? ', not null' : ''}`;
    case 'invalid_value':
      if (issue.input === undefined) return 'is required';
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}`
        : `must be one of ${quoteList(issue.values)}`;
    case 'too_small':
      if (issue.origin === 'string') return Number(issue.minimum) <= 1 ? 'must not be empty' : `must have at least ${issue.minimum} characters`;
      if (issue.origin === 'array') return `must have at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      return `must be ${issue.inclusive ? 'at least' : 'greater than'} ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'string') return `must have at most ${issue.maximum} characters`;
      if (issue.origin === 'array') return `must have at most ${issue.maximum} items`;
      return `must be ${issue.inclusive ? 'at most' : 'less than'} ${issue.maximum}`;
    case 'unrecognized_keys':
      return 'is not a field of the fixture format';
    default:
      return undefined;
  }
};
