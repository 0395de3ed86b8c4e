import type { SelectQueryBuilder } from 'kysely';

/**
 * One page of a filtered query and the total it pages through: the rows (selected and
 * ordered by `rows`) and the count run side by side on the same filters.
 */
export async function selectPage<DB, TB extends keyof DB, O, R>(
  query: SelectQueryBuilder<DB, TB, O>,
  page: { Page: number; PageSize: number },
  rows: (filtered: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, R>,
): Promise<{ rows: R[]; total: number }> {
  const [items, count] = await Promise.all([
    rows(query).limit(page.PageSize).offset(page.Page * page.PageSize).execute(),
    query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows: items, total: Number((count as { total: number | string }).total) };
}
