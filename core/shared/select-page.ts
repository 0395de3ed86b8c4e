import { sql, type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, type Selectable, type SqlBool } from 'kysely';
import { dialectOf, type Db } from '../../db/create-db.js';
import type { Database } from '../../db/database.js';
import { validationError } from '../errors.js';
import type { PageOf, TPageRequest } from './search-page.js';

/** One column of a list's order. */
export interface OrderKey {
  /** A plain, not-null column of the listed table. */
  column: string;
  /** Descending (newest first); ascending when absent. */
  desc?: boolean;
  /** What the column holds, so a cursor's value can be checked before it reaches SQL. */
  type: 'text' | 'integer';
  /** Order by code points on every database rather than by the Postgres database's collation. */
  binary?: boolean;
}

/**
 * A list's order and the tag its cursors carry (a cursor of another list is refused). The
 * last key is unique within the list (the row's id or key), so the order is total and a
 * cursor names one position.
 */
export interface ListOrder {
  list: string;
  keys: readonly [...OrderKey[], OrderKey];
}

/** The usual shape of an order: `keys`, then the id ascending, which makes it total. */
export function thenById(list: string, ...keys: OrderKey[]): ListOrder {
  return { list, keys: [...keys, { column: 'id', type: 'text' }] };
}

interface PageOptions {
  order: ListOrder;
  page: TPageRequest;
  /**
   * The filtered list's total, when the caller knows it without counting rows (the trip and
   * load lists read it from the `list_counts` counters when only scope and Status filter them).
   * It must equal `count(*)` of `query`; absent, that count is run.
   */
  count?: () => Promise<number>;
}

type AnySelect = SelectQueryBuilder<any, any, any>;
type Value = string | number;

const INVALID_CURSOR = 'The cursor is not valid for this list.';

/**
 * One page of a filtered list, its total and the cursor after it: the one way every list and
 * search pages. `query` is the listed table with its scope filter and filters (and only the
 * joins those filters need); the order keys are plain columns of that table.
 *
 * Two statements run side by side (on Postgres, on two pool connections):
 *
 *     select t.* from (select t.k1, …, t.id from t … where <filters> [and <after cursor>]
 *                      order by t.k1, …, t.id limit :size + 1 offset :page * :size) page_keys
 *       join t on t.k1 = page_keys.k1 and … and t.id = page_keys.id
 *       order by page_keys.k1, …, page_keys.id
 *     select count(*) from t … where <filters>
 *
 * The inner select reads only the order keys, so an index on (scope columns, order keys)
 * serves the filter, the order and the skipped rows without touching the table (a deferred
 * join); only the page's own rows are fetched. The extra row says whether a page follows.
 * With a cursor the offset is 0 and the keyset condition starts the range after the cursor.
 *
 * Deep pages read from the far end. A numbered page past the first needs the total first to
 * know which end is nearer; it is fetched first when it is cheap (`count`, the counters) or
 * when the statements run one after the other anyway (SQLite: better-sqlite3 is synchronous).
 * Then a page starting past the middle (Page × PageSize > total / 2) is read in the reversed
 * order, skipping only the rows after it (offset = total − end of the page, limit = its size),
 * and its rows are turned back; a page starting at or past the end answers no items without a
 * query. NextCursor is the same either way: set exactly when items follow the page. Page 0,
 * cursor pages, and numbered pages on Postgres with a plain count keep the two statements side
 * by side (a total first would put a full count before the page instead of beside it).
 */
export function selectPage<T extends keyof Database & string>(
  db: Db,
  query: SelectQueryBuilder<Database, any, {}>,
  options: PageOptions & { table: T },
): Promise<PageOf<Selectable<Database[T]>>>;
/** A derived table (a UNION) has no table to join back to: its rows are read as the page. */
export function selectPage<R>(db: Db, query: SelectQueryBuilder<any, any, {}>, options: PageOptions & { derived: string }): Promise<PageOf<R>>;
export async function selectPage(
  db: Db,
  query: AnySelect,
  options: PageOptions & { table?: string; derived?: string },
): Promise<PageOf<Record<string, unknown>>> {
  const { order, page } = options;
  const after = cursorPosition(order, page);
  const source = (options.table ?? options.derived) as string;
  const dialect = dialectOf(db);
  const binary = dialect === 'postgres' ? (ref: Expression<unknown>) => sql`${ref} collate "C"` : (ref: Expression<unknown>) => ref;
  const keyOf = (from: string, key: OrderKey): Expression<unknown> => {
    const ref = sql.ref(`${from}.${key.column}`);
    return key.binary ? binary(ref) : ref;
  };

  /** `limit` rows from `offset` in the list's order, or in its reverse (read from the far end). */
  const readRows = (offset: number, limit: number, reversed: boolean): Promise<Record<string, unknown>[]> => {
    const ordered = (select: AnySelect, from: string) =>
      order.keys.reduce((acc, key) => acc.orderBy(keyOf(from, key), Boolean(key.desc) !== reversed ? 'desc' : 'asc'), select);
    let window = query;
    if (after) window = window.where(afterPosition(order.keys, (key) => keyOf(source, key), after));
    window = ordered(window, source).limit(limit).offset(offset);
    if (options.table === undefined) return window.selectAll().execute() as Promise<Record<string, unknown>[]>;
    const table = options.table;
    const keys = window.select(order.keys.map((key) => sql.ref(`${table}.${key.column}`).as(key.column)));
    return ordered(
      (db as Kysely<any>)
        .selectFrom(keys.as('page_keys'))
        .innerJoin(table, (join) => order.keys.reduce((on, key) => on.onRef(`page_keys.${key.column}`, '=', `${table}.${key.column}`), join))
        .selectAll(table),
      'page_keys',
    ).execute() as Promise<Record<string, unknown>[]>;
  };
  const countRows = async (): Promise<number> => {
    if (options.count) return options.count();
    const row = (await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()) as { total: number | string };
    return Number(row.total);
  };
  const cursorAfter = (row: Record<string, unknown> | undefined) =>
    row ? writeCursor(order, order.keys.map((key) => row[key.column] as Value)) : null;

  const size = page.PageSize;
  const start = after ? 0 : page.Page * size;
  const totalFirst = !after && page.Page > 0 && (options.count !== undefined || dialect === 'sqlite');
  if (!totalFirst) {
    const [found, total] = await Promise.all([readRows(start, size + 1, false), countRows()]);
    const items = found.slice(0, size);
    return { items, total, nextCursor: found.length > size ? cursorAfter(items.at(-1)) : null };
  }

  const total = await countRows();
  if (start >= total) return { items: [], total, nextCursor: null };
  if (start * 2 <= total) {
    const found = await readRows(start, size + 1, false);
    const items = found.slice(0, size);
    return { items, total, nextCursor: found.length > size ? cursorAfter(items.at(-1)) : null };
  }
  const end = Math.min(start + size, total);
  const items = (await readRows(total - end, end - start, true)).reverse();
  return { items, total, nextCursor: end < total ? cursorAfter(items.at(-1)) : null };
}

/** The page of a list its filters already rule out entirely (an empty id list): a bad cursor is still a 400. */
export function emptyPage<T>(order: ListOrder, page: TPageRequest): PageOf<T> {
  checkCursor(order, page);
  return { items: [], total: 0, nextCursor: null };
}

/**
 * A 400 naming Cursor when the request's cursor is not one of this list's. Lists under a parent
 * record call it before looking the parent up: validation comes before the 404 (docs/api-rules.md#order-of-checks).
 */
export function checkCursor(order: ListOrder, page: TPageRequest): void {
  cursorPosition(order, page);
}

/**
 * Rows after `values` in the order: `k1 > v1 or (k1 = v1 and k2 > v2) or …` (`<` for a
 * descending key), behind a plain range bound on the first key (`k1 >= v1`) that both
 * planners turn into an index range start.
 */
function afterPosition(keys: readonly OrderKey[], keyOf: (key: OrderKey) => Expression<unknown>, values: readonly Value[]): RawBuilder<SqlBool> {
  // Integers compare as bigint, so no value a cursor can carry overflows an int4 column on Postgres.
  const valueOf = (index: number) => (keys[index]!.type === 'integer' ? sql`cast(${values[index]} as bigint)` : sql`${values[index]}`);
  const compare = (index: number, strict: boolean) => {
    const operator = keys[index]!.desc ? (strict ? '<' : '<=') : strict ? '>' : '>=';
    return sql`${keyOf(keys[index]!)} ${sql.raw(operator)} ${valueOf(index)}`;
  };
  const branches = keys.map((_, index) =>
    sql.join([...keys.slice(0, index).map((key, before) => sql`${keyOf(key)} = ${valueOf(before)}`), compare(index, true)], sql` and `),
  );
  const anyBranch = sql<SqlBool>`(${sql.join(branches, sql` or `)})`;
  return keys.length === 1 ? anyBranch : sql<SqlBool>`${compare(0, false)} and ${anyBranch}`;
}

interface CursorBody {
  list: string;
  after: Value[];
}

function writeCursor(order: ListOrder, values: Value[]): string {
  const body: CursorBody = { list: order.list, after: values };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The position a request's cursor names; undefined without a cursor; a 400 naming Cursor when it is not this list's. */
function cursorPosition(order: ListOrder, page: TPageRequest): Value[] | undefined {
  if (page.Cursor === undefined || page.Cursor === null) return undefined;
  if (page.Page > 0) throw validationError('Cursor', 'A Cursor continues from its own position: send Page 0 or leave Page out.');
  const values = readCursor(order, page.Cursor);
  if (!values) throw validationError('Cursor', INVALID_CURSOR);
  return values;
}

function readCursor(order: ListOrder, cursor: string): Value[] | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof body !== 'object' || body === null) return undefined;
  const { list, after } = body as Partial<CursorBody>;
  if (list !== order.list || !Array.isArray(after) || after.length !== order.keys.length) return undefined;
  return order.keys.every((key, index) => fits(key, after[index])) ? after : undefined;
}

/** A value of the key's type that SQL accepts as a parameter (Postgres refuses NUL in text). */
function fits(key: OrderKey, value: unknown): value is Value {
  return key.type === 'integer' ? Number.isSafeInteger(value) : typeof value === 'string' && !value.includes('\u0000');
}
