import { sql, type Expression, type SqlBool } from 'kysely';
import type { Principal } from '../trpc.js';

/** The part of a principal that decides which rows it may see. Repositories take it explicitly. */
export interface Scope {
  tenantId: string;
  /** null: every subsidiary of the tenant. */
  subsidiaryId: string | null;
}

export function scopeOf(principal: Principal): Scope {
  return { tenantId: principal.TenantId, subsidiaryId: principal.SubsidiaryId };
}

/**
 * The one scope filter: rows of the caller's tenant and, for a subsidiary-bound caller, of
 * its subsidiary. `subsidiaryColumn: null` is for tenant-wide records (carriers, reference
 * definitions, accessorial types). `orNoSubsidiary` is for records a subsidiary may or may not
 * own (customers, users: docs/api-rules.md#tenants-and-subsidiaries), which every client of the tenant sees when none does.
 * Records outside the scope are simply not found.
 */
export function inScope(
  table: string,
  scope: Scope,
  options: { subsidiaryColumn?: string | null; orNoSubsidiary?: boolean } = {},
): Expression<SqlBool> {
  const tenant = sql<SqlBool>`${sql.ref(`${table}.tenant_id`)} = ${scope.tenantId}`;
  const column = options.subsidiaryColumn === undefined ? 'subsidiary_id' : options.subsidiaryColumn;
  if (scope.subsidiaryId === null || column === null) return tenant;
  const subsidiary = sql.ref(`${table}.${column}`);
  if (options.orNoSubsidiary) return sql<SqlBool>`${tenant} and (${subsidiary} = ${scope.subsidiaryId} or ${subsidiary} is null)`;
  return sql<SqlBool>`${tenant} and ${subsidiary} = ${scope.subsidiaryId}`;
}

/**
 * The in-memory twin of `inScope`, for rows a batched lookup fetched by id for many callers at
 * once (position ingestion): the same rule on the same columns, so a row outside the caller's
 * tenant or subsidiary is, again, simply not found.
 */
export function rowInScope(row: { tenant_id: string; subsidiary_id: string | null }, scope: Scope): boolean {
  return row.tenant_id === scope.tenantId && (scope.subsidiaryId === null || row.subsidiary_id === scope.subsidiaryId);
}
