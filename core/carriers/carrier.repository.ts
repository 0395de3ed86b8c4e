import { sql, type Expression, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';
import { toStoredDateTimeOrNull } from '../shared/datetime.js';
import { AppError } from '../errors.js';
import { holdsExternalId } from '../external-ids/external-id.repository.js';
import { parseExternalIds, storeExternalIds, type TExternalIds } from '../external-ids/external-ids.schemas.js';
import { etagOf } from '../shared/etag.js';
import { toMoney } from '../shared/money.js';
import { unitsOf } from '../shared/money-object-input.js';
import { newRecordId } from '../shared/record-id.js';
import { updateAtVersion } from '../shared/update-at-version.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { containsText, inDateTimeRange, stringList } from '../shared/master-data-filters.js';
import type { TCarrier, TCarrierFilter, TInsuranceInput } from './carrier.schemas.js';

export type CarrierRow = Selectable<Database['carriers']>;
export type InsuranceRow = Selectable<Database['carrier_insurance']>;

/** Carriers belong to the tenant: every client of the tenant sees them (docs/api-rules.md#tenants-and-subsidiaries). */
const carriersInScope = (scope: Scope) => inScope('carriers', scope, { subsidiaryColumn: null });

/**
 * The read of the Status of a carrier a trip write names (no row when not the tenant's), held
 * for the caller's transaction like a driver's (`assignableAssetStatus`): a retirement and an
 * assignment never both commit (docs/api-rules.md#carriers).
 */
export function assignableCarrierStatus(db: Db, scope: Scope, id: string) {
  const query = db.selectFrom('carriers').select('status').where(carriersInScope(scope)).where('id', '=', id);
  return dialectOf(db) === 'postgres' ? query.forShare() : query;
}

export function toCarrier(row: CarrierRow, insurance: readonly InsuranceRow[]): TCarrier {
  const { address_street, address_city, address_state, address_zip_code, address_country } = row;
  const noAddress = [address_street, address_city, address_state, address_zip_code, address_country].every((part) => part === null);
  return {
    Id: row.id,
    Name: row.name,
    McNumber: row.mc_number,
    DotNumber: row.dot_number,
    Status: row.status as TCarrier['Status'],
    Address: noAddress
      ? null
      : {
          Street: address_street ?? '',
          City: address_city ?? '',
          State: address_state ?? '',
          ZipCode: address_zip_code ?? '',
          Country: address_country,
        },
    Email: stringList(row.emails),
    Phone: stringList(row.phones),
    InsuranceInfo: insurance.map((policy) => ({
      Type: policy.type,
      Agent: policy.agent,
      PolicyNumber: policy.policy_number,
      ExpirationDate: toStoredDateTimeOrNull(policy.expiration_date),
      Amount: toMoney(policy.amount, policy.currency),
    })),
    ExternalIds: parseExternalIds(row.external_ids),
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

/** The API records of already-scoped carrier rows, in the order given, with one query for their insurance. */
async function assembleCarriers(db: Db, rows: readonly CarrierRow[]): Promise<TCarrier[]> {
  if (rows.length === 0) return [];
  const policies = await db
    .selectFrom('carrier_insurance')
    .selectAll()
    .where(
      'carrier_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('carrier_id')
    .orderBy('sequence')
    .execute();
  const byCarrier = new Map<string, InsuranceRow[]>();
  for (const policy of policies) {
    const list = byCarrier.get(policy.carrier_id);
    if (list) list.push(policy);
    else byCarrier.set(policy.carrier_id, [policy]);
  }
  return rows.map((row) => toCarrier(row, byCarrier.get(row.id) ?? []));
}

/** Whether the carrier with this id is the tenant's; carriers belong to the tenant, not to a subsidiary. */
export async function isCarrierVisible(db: Db, scope: Scope, id: string): Promise<boolean> {
  const found = await db.selectFrom('carriers').select('id').where(inScope('carriers', scope, { subsidiaryColumn: null })).where('id', '=', id).executeTakeFirst();
  return found !== undefined;
}

export const carrierEtag = (row: Pick<CarrierRow, 'id' | 'version'>) => etagOf(row.id, row.version);

/** The carrier's row and its record as read, or undefined outside the scope. */
export async function getCarrierWithRow(db: Db, scope: Scope, id: string): Promise<{ row: CarrierRow; carrier: TCarrier } | undefined> {
  const row = await db.selectFrom('carriers').selectAll().where(carriersInScope(scope)).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const [carrier] = await assembleCarriers(db, [row]);
  return { row, carrier: carrier! };
}

/** Newest UpdatedAt first, the id breaking ties. */
const CARRIER_ORDER = thenById('carriers', { column: 'updated_at', type: 'text', desc: true });

const inList = (column: string, values: readonly string[]) => sql<SqlBool>`${sql.ref(column)} in (${sql.join(values)})`;

export async function findCarriers(db: Db, scope: Scope, filter: TCarrierFilter): Promise<PageOf<TCarrier>> {
  const conditions: Expression<SqlBool>[] = [carriersInScope(scope), ...inDateTimeRange('carriers.updated_at', filter.UpdatedAtRange)];
  if (filter.Statuses) conditions.push(inList('carriers.status', filter.Statuses));
  if (filter.Ids) conditions.push(inList('carriers.id', filter.Ids));
  if (filter.McNumbers) conditions.push(inList('carriers.mc_number', filter.McNumbers));
  if (filter.DotNumbers) conditions.push(inList('carriers.dot_number', filter.DotNumbers));
  if (filter.Name) conditions.push(containsText('carriers.name', filter.Name));
  if (filter.ExternalId) conditions.push(holdsExternalId(scope.tenantId, 'carriers', filter.ExternalId, 'carriers.id'));
  const query = db.selectFrom('carriers').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'carriers', order: CARRIER_ORDER, page: filter });
  return { ...page, items: await assembleCarriers(db, page.items) };
}

/** A new carrier as a create or a fixture gives it (docs/api-rules.md#carriers); the caller decides its Status. */
export interface NewCarrier {
  Name: string;
  McNumber?: string | null | undefined;
  DotNumber?: string | null | undefined;
  Status: string;
  Address?: { Street: string; City: string; State: string; ZipCode: string; Country?: string | null | undefined } | null | undefined;
  Email?: readonly string[] | null | undefined;
  Phone?: readonly string[] | null | undefined;
  ExternalIds?: TExternalIds | null | undefined;
}

/** The row of a new carrier (version 1). */
export function newCarrierRow(tenantId: string, id: string, carrier: NewCarrier, times: Pick<CarrierRow, 'created_at' | 'updated_at'>): CarrierRow {
  const address = carrier.Address ?? null;
  return {
    id,
    tenant_id: tenantId,
    name: carrier.Name,
    mc_number: carrier.McNumber ?? null,
    dot_number: carrier.DotNumber ?? null,
    status: carrier.Status,
    address_street: address?.Street ?? null,
    address_city: address?.City ?? null,
    address_state: address?.State ?? null,
    address_zip_code: address?.ZipCode ?? null,
    address_country: address?.Country ?? null,
    emails: JSON.stringify(carrier.Email ?? []),
    phones: JSON.stringify(carrier.Phone ?? []),
    external_ids: storeExternalIds(carrier.ExternalIds ?? {}),
    version: 1,
    ...times,
  };
}

/** The rows of a carrier's policies, in the order given. */
export function insuranceRows(tenantId: string, carrierId: string, policies: readonly TInsuranceInput[]): InsuranceRow[] {
  return policies.map((policy, index) => ({
    id: newRecordId('cin'),
    tenant_id: tenantId,
    carrier_id: carrierId,
    sequence: index + 1,
    type: policy.Type,
    agent: policy.Agent ?? null,
    policy_number: policy.PolicyNumber ?? null,
    expiration_date: policy.ExpirationDate ?? null,
    amount: unitsOf(policy.Amount),
    currency: policy.Amount.Currency,
  }));
}

export async function insertCarrier(trx: Db, row: Insertable<Database['carriers']>, insurance: readonly InsuranceRow[]): Promise<void> {
  await trx.insertInto('carriers').values(row).execute();
  if (insurance.length > 0) await trx.insertInto('carrier_insurance').values([...insurance]).execute();
}

/** Replaces every policy of the carrier. */
export async function replaceInsurance(trx: Db, carrierId: string, insurance: readonly InsuranceRow[]): Promise<void> {
  await trx.deleteFrom('carrier_insurance').where('carrier_id', '=', carrierId).execute();
  if (insurance.length > 0) await trx.insertInto('carrier_insurance').values([...insurance]).execute();
}

/** Writes `changes` and the next version to the carrier still at the version read; answers whether it wrote. */
export async function updateCarrierAtVersion(trx: Db, scope: Scope, row: CarrierRow, changes: Updateable<Database['carriers']>): Promise<boolean> {
  return updateAtVersion(trx, 'carriers', scope, row, changes);
}

type NumberField = 'McNumber' | 'DotNumber';
const NUMBER_COLUMNS = { McNumber: 'mc_number', DotNumber: 'dot_number' } as const;

function duplicateNumber(field: NumberField, value: string): AppError {
  return new AppError('CONFLICT', `${field} "${value}" is already used by another carrier of the tenant.`, {
    subtype: 'Duplicate',
    extensions: { Field: field },
  });
}

export type CarrierNumbers = Partial<Record<NumberField, string | null>>;

/**
 * 409 Conflict/Duplicate naming the field when another carrier of the tenant holds a number
 * being set (docs/api-rules.md#carriers). A concurrent write that slips past this check ends
 * on the unique index (duplicateNumberFromConstraint).
 */
export async function refuseDuplicateNumbers(trx: Db, tenantId: string, numbers: CarrierNumbers, exceptId?: string): Promise<void> {
  for (const field of ['McNumber', 'DotNumber'] as const) {
    const value = numbers[field];
    if (value === null || value === undefined) continue;
    let query = trx.selectFrom('carriers').select('id').where('tenant_id', '=', tenantId).where(NUMBER_COLUMNS[field], '=', value);
    if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
    if (await query.executeTakeFirst()) throw duplicateNumber(field, value);
  }
}

/** The 409 of a number's unique index a concurrent write won (migration 0150), or undefined for any other error. */
export function duplicateNumberFromConstraint(error: unknown, numbers: CarrierNumbers): AppError | undefined {
  const { code, constraint, message } = (error ?? {}) as { code?: string; constraint?: string; message?: string };
  if (code !== '23505' && code !== 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
  const text = `${constraint ?? ''} ${message ?? ''}`;
  for (const field of ['McNumber', 'DotNumber'] as const) {
    const value = numbers[field];
    if (value && new RegExp(`carriers_${NUMBER_COLUMNS[field]}_key|carriers\\.${NUMBER_COLUMNS[field]}`).test(text)) return duplicateNumber(field, value);
  }
  return undefined;
}

/** Whether the carrier is on a trip that is neither Delivered nor Cancelled (it cannot be retired then). */
export async function isOnOpenTrip(trx: Db, tenantId: string, carrierId: string): Promise<boolean> {
  const row = await trx
    .selectFrom('trips')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('carrier_id', '=', carrierId)
    .where('status', 'not in', ['Delivered', 'Cancelled'])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
