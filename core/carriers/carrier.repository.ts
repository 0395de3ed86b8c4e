import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';
import { toStoredDateTimeOrNull } from '../shared/datetime.js';
import { toMoney } from '../shared/money.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { containsText, inDateTimeRange, stringList } from '../shared/master-data-filters.js';
import type { TCarrier, TCarrierFilter } from './carrier.schemas.js';

type CarrierRow = Selectable<Database['carriers']>;
type InsuranceRow = Selectable<Database['carrier_insurance']>;

/** Carriers belong to the tenant: every client of the tenant sees them (docs/api-rules.md#tenants-and-subsidiaries). */
const carriersInScope = (scope: Scope) => inScope('carriers', scope, { subsidiaryColumn: null });

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

export async function getCarrier(db: Db, scope: Scope, id: string): Promise<TCarrier | undefined> {
  const row = await db.selectFrom('carriers').selectAll().where(carriersInScope(scope)).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const [carrier] = await assembleCarriers(db, [row]);
  return carrier;
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
  const query = db.selectFrom('carriers').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'carriers', order: CARRIER_ORDER, page: filter });
  return { ...page, items: await assembleCarriers(db, page.items) };
}
