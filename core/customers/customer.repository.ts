import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { CustomersTable } from '../../db/tables/parties.js';
import { AppError } from '../errors.js';
import { containsText, inDateTimeRange, stringList } from '../shared/master-data-filters.js';
import { etagOf } from '../shared/etag.js';
import { toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import type { TCustomer, TCustomerFilter } from './customer.schemas.js';

export type CustomerRow = Selectable<CustomersTable>;

export function toCustomer(row: CustomerRow): TCustomer {
  const { billing_street, billing_city, billing_state, billing_zip_code, billing_country } = row;
  const noAddress = [billing_street, billing_city, billing_state, billing_zip_code, billing_country].every((part) => part === null);
  return {
    Id: row.id,
    Name: row.name,
    CompanyNumber: row.company_number,
    Type: row.type as TCustomer['Type'],
    Status: row.status as TCustomer['Status'],
    SubsidiaryId: row.subsidiary_id,
    BillingAddress: noAddress
      ? null
      : {
          Street: billing_street ?? '',
          City: billing_city ?? '',
          State: billing_state ?? '',
          ZipCode: billing_zip_code ?? '',
          Country: billing_country,
        },
    Email: stringList(row.emails),
    Phone: stringList(row.phones),
    InvoicingInformation:
      row.invoicing_name === null
        ? null
        : {
            InvoicingName: row.invoicing_name,
            EmailAddresses: row.invoicing_emails === null ? [] : stringList(row.invoicing_emails),
            PaymentTermsDays: row.invoicing_payment_terms_days,
          },
    ExternalId: row.external_id,
    DetentionFreeMinutes: row.detention_free_minutes,
    DetentionRate: row.detention_rate === null ? null : toMoney(Number(row.detention_rate), row.detention_currency),
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export const customerEtag = (row: Pick<CustomerRow, 'id' | 'version'>) => etagOf(row.id, row.version);

/**
 * The scope filter of customers: the tenant's, through the one helper, only live (not deleted)
 * ones, and for a subsidiary-bound caller its own subsidiary's and those of no subsidiary
 * (docs/api-rules.md#tenants-and-subsidiaries: every client of the tenant sees a customer without one).
 */
export function customerInScope(scope: Scope): Expression<SqlBool> {
  return sql<SqlBool>`${inScope('customers', scope, { orNoSubsidiary: true })} and ${sql.ref('customers.deleted_at')} is null`;
}

export async function getCustomerRow(db: Db, scope: Scope, id: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where(customerInScope(scope)).where('id', '=', id).executeTakeFirst();
}

/** A customer other records name (a tender's), with the subsidiary they inherit; undefined when not in scope. */
export async function findCustomerRef(db: Db, scope: Scope, id: string): Promise<{ id: string; subsidiary_id: string | null } | undefined> {
  return db.selectFrom('customers').select(['id', 'subsidiary_id']).where(customerInScope(scope)).where('id', '=', id).executeTakeFirst();
}

/** Newest UpdatedAt first, the id breaking ties. */
const CUSTOMER_ORDER = thenById('customers', { column: 'updated_at', type: 'text', desc: true });

const inList = (column: string, values: readonly string[]) => sql<SqlBool>`${sql.ref(column)} in (${sql.join(values)})`;

/** Whether the customer with this id is in the scope and not deleted. */
export async function isLiveCustomerVisible(db: Db, scope: Scope, id: string): Promise<boolean> {
  const found = await db
    .selectFrom('customers')
    .select('id')
    .where(inScope('customers', scope))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return found !== undefined;
}

export async function findCustomers(db: Db, scope: Scope, filter: TCustomerFilter): Promise<PageOf<TCustomer>> {
  const conditions: Expression<SqlBool>[] = [
    customerInScope(scope),
    ...inDateTimeRange('customers.updated_at', filter.UpdatedAtRange),
    ...inDateTimeRange('customers.created_at', filter.CreatedAtRange),
  ];
  if (filter.Statuses) conditions.push(inList('customers.status', filter.Statuses));
  if (filter.Types) conditions.push(inList('customers.type', filter.Types));
  if (filter.Name) conditions.push(containsText('customers.name', filter.Name));
  if (filter.CompanyNumber !== undefined) conditions.push(sql<SqlBool>`${sql.ref('customers.company_number')} = ${filter.CompanyNumber}`);
  if (filter.ExternalId !== undefined) conditions.push(sql<SqlBool>`${sql.ref('customers.external_id')} = ${filter.ExternalId}`);
  const query = db.selectFrom('customers').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'customers', order: CUSTOMER_ORDER, page: filter });
  return { ...page, items: page.items.map(toCustomer) };
}

/** The value of a CompanyNumber written as a plain decimal integer of at most 15 digits, else null. */
export function companyNumberValue(companyNumber: string): number | null {
  return /^[1-9][0-9]{0,14}$/.test(companyNumber) ? Number(companyNumber) : null;
}

/**
 * Takes the tenant's number lock for the rest of the transaction: every write that sets a
 * CompanyNumber takes it first, so an assigned number and a chosen one never race (migration
 * 0081). Answers the last number assigned.
 */
async function lockNumbers(trx: Db, tenantId: string): Promise<number> {
  await trx.insertInto('customer_numbers').values({ tenant_id: tenantId, last_number: 0 }).onConflict((oc) => oc.column('tenant_id').doNothing()).execute();
  const row = await trx
    .updateTable('customer_numbers')
    .set({ last_number: sql<number>`last_number` })
    .where('tenant_id', '=', tenantId)
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

/** Locks the tenant's numbers (see lockNumbers) before a write that sets a chosen CompanyNumber. */
export async function lockCompanyNumbers(trx: Db, tenantId: string): Promise<void> {
  await lockNumbers(trx, tenantId);
}

/** The next free CompanyNumber of the tenant, recorded as assigned; call it in the creating transaction. */
export async function assignCompanyNumber(trx: Db, tenantId: string): Promise<string> {
  const last = await lockNumbers(trx, tenantId);
  const highest = await trx
    .selectFrom('customers')
    .select((eb) => eb.fn.max('company_number_value').as('highest'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  const next = Math.max(last, Number(highest?.highest ?? 0)) + 1;
  await trx.updateTable('customer_numbers').set({ last_number: next }).where('tenant_id', '=', tenantId).execute();
  return String(next);
}

function duplicate(field: 'CompanyNumber' | 'ExternalId', value: string): AppError {
  return new AppError('CONFLICT', `${field} "${value}" is already used by another customer of the tenant.`, {
    subtype: 'Duplicate',
    extensions: { Field: field },
  });
}

/**
 * 409 Conflict/Duplicate when another live customer of the tenant holds the CompanyNumber or
 * ExternalId. Run under the number lock, it answers every race on CompanyNumber; an ExternalId
 * race that slips past it ends on the unique index (duplicateFromConstraint).
 */
export async function refuseDuplicates(
  trx: Db,
  tenantId: string,
  values: { companyNumber?: string | undefined; externalId?: string | null | undefined; exceptId?: string },
): Promise<void> {
  const taken = async (column: 'company_number' | 'external_id', value: string) => {
    let query = trx
      .selectFrom('customers')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where(column, '=', value)
      .where('deleted_at', 'is', null);
    if (values.exceptId !== undefined) query = query.where('id', '!=', values.exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  };
  if (values.companyNumber !== undefined && (await taken('company_number', values.companyNumber))) {
    throw duplicate('CompanyNumber', values.companyNumber);
  }
  if (values.externalId && (await taken('external_id', values.externalId))) throw duplicate('ExternalId', values.externalId);
}

/** The 409 of a unique index a concurrent write won, or undefined for any other error. */
export function duplicateFromConstraint(error: unknown, values: { companyNumber: string; externalId: string | null }): AppError | undefined {
  const { code, constraint, message } = (error ?? {}) as { code?: string; constraint?: string; message?: string };
  const text = `${constraint ?? ''} ${message ?? ''}`;
  const unique = code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  if (!unique) return undefined;
  if (/customers_external_id_key|customers\.external_id/.test(text) && values.externalId) return duplicate('ExternalId', values.externalId);
  if (/customers_company_number_key|customers\.company_number/.test(text)) return duplicate('CompanyNumber', values.companyNumber);
  return undefined;
}

export async function insertCustomer(trx: Db, row: Insertable<CustomersTable>): Promise<void> {
  await trx.insertInto('customers').values(row).execute();
}

/** Writes `changes` (and the next version) to the live customer still at the version read; answers whether it wrote. */
export async function updateCustomerAtVersion(trx: Db, row: CustomerRow, changes: Updateable<CustomersTable>): Promise<boolean> {
  const result = await trx
    .updateTable('customers')
    .set({ ...changes, version: row.version + 1 })
    .where('tenant_id', '=', row.tenant_id)
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether a load of the customer is neither Delivered nor Cancelled (it cannot be deleted then). */
export async function hasOpenLoads(trx: Db, tenantId: string, customerId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('loads')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('customer_id', '=', customerId)
    .where('status', 'not in', ['Delivered', 'Cancelled'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A customer's detention terms (docs/api-rules.md#detention), deleted customers included: their loads keep them. */
export async function customerDetentionTerms(
  db: Db,
  tenantId: string,
  customerId: string,
): Promise<{ freeMinutes: number | null; rate: { minor: number; currency: number } | null; subsidiaryId: string | null }> {
  const row = await db
    .selectFrom('customers')
    .select(['subsidiary_id', 'detention_free_minutes', 'detention_rate', 'detention_currency'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', customerId)
    .executeTakeFirst();
  if (!row) return { freeMinutes: null, rate: null, subsidiaryId: null };
  const rate = row.detention_rate === null ? null : { minor: Number(row.detention_rate), currency: Number(row.detention_currency) };
  return { freeMinutes: row.detention_free_minutes, rate, subsidiaryId: row.subsidiary_id };
}
