import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { UsersTable } from '../../db/tables/master-data.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { anyContainsText, inDateTimeRange } from '../shared/master-data-filters.js';
import type { TSearchUsersInput, TUser } from './user.schemas.js';

export function toUser(row: Selectable<UsersTable>): TUser {
  return {
    Id: row.id,
    UserName: row.user_name,
    Name: row.name,
    Email: row.email,
    Phone: row.phone,
    Role: row.role as TUser['Role'],
    Status: row.status as TUser['Status'],
    SubsidiaryId: row.subsidiary_id,
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

/**
 * The scope filter of users: the tenant's and, for a subsidiary-bound
 * caller its own subsidiary's users and those of no subsidiary (docs/api-rules.md#tenants-and-subsidiaries:
 * every client of the tenant sees a user without one).
 */
export function userInScope(scope: Scope): Expression<SqlBool> {
  return inScope('users', scope, { orNoSubsidiary: true });
}

export async function getUser(db: Db, scope: Scope, id: string): Promise<TUser | undefined> {
  const row = await db.selectFrom('users').selectAll().where(userInScope(scope)).where('id', '=', id).executeTakeFirst();
  return row && toUser(row);
}

/** GET /users/list: the Active users the caller sees, by Name (code point order on both databases), then id. */
export async function listActiveUsers(db: Db, scope: Scope): Promise<TUser[]> {
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where(userInScope(scope))
    .where('status', '=', 'Active')
    .orderBy('name')
    .orderBy('id')
    .execute();
  return rows.map(toUser);
}

/** Newest UpdatedAt first, the id breaking ties. */
const USER_ORDER = thenById('users', { column: 'updated_at', type: 'text', desc: true });

export async function findUsers(db: Db, scope: Scope, filter: TSearchUsersInput): Promise<PageOf<TUser>> {
  const conditions: Expression<SqlBool>[] = [userInScope(scope), ...inDateTimeRange('users.updated_at', filter.UpdatedAtRange)];
  if (filter.Keyword) conditions.push(anyContainsText(['users.name', 'users.user_name', 'users.email'], filter.Keyword));
  if (filter.Roles) conditions.push(sql<SqlBool>`${sql.ref('users.role')} in (${sql.join(filter.Roles)})`);
  if (filter.Statuses) conditions.push(sql<SqlBool>`${sql.ref('users.status')} in (${sql.join(filter.Statuses)})`);
  const query = db.selectFrom('users').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'users', order: USER_ORDER, page: filter });
  return { ...page, items: page.items.map(toUser) };
}
