import type pg from 'pg';

/**
 * A new Postgres connection is slow at its first writes: the backend loads the catalog entries
 * of every table and index it touches, and PL/pgSQL compiles each trigger function and plans
 * its statements on their first call in that session. At the big tenant of the write benchmark
 * the first trip update on a fresh connection took 51 ms (the trips' asset-event counter 27 ms,
 * the loads' follow-up 15 ms) against 1.3 ms on the next one, and that was most of the stop
 * writes' p99.
 *
 * So a server's pool warms each connection before handing it out: for every table that has
 * triggers, an update, an insert and a delete that match no row. Statement triggers fire even
 * for no rows, so each counter function is compiled and its statements planned, and the tables
 * and their indexes are opened; row triggers do not fire, but most of their cost was the catalog
 * (the loads' follow-up went 15 → 1 ms). Matching no row, the statements change nothing and take
 * no transaction id; the rollback is for form. About 60 ms once per connection, at start-up when
 * the pool is filled (`fillPool`), instead of on a caller's write.
 *
 * The tables are read from the catalog, so a trigger added by a later migration is warmed
 * without a list to keep. Warming is an optimisation: if it fails the connection is still
 * handed out, as cold as before.
 */
const TRIGGER_TABLES = `
  select c.relname as "table", a.attname as "column"
  from pg_class c
  join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '' and a.attidentity = ''
  where c.relnamespace = current_schema()::regnamespace
    and exists (select 1 from pg_trigger t where t.tgrelid = c.oid and not t.tgisinternal)
    and a.attnum = (
      select min(b.attnum) from pg_attribute b
      where b.attrelid = c.oid and b.attnum > 0 and not b.attisdropped and b.attgenerated = '' and b.attidentity = ''
    )
  order by c.relname`;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The statements that warm one table: they match no row. */
function warmingStatements(table: string, column: string): string[] {
  const [t, c] = [quote(table), quote(column)];
  return [
    `update ${t} set ${c} = ${c} where false`,
    `insert into ${t} (${c}) select ${c} from ${t} where false`,
    `delete from ${t} where false`,
  ];
}

/**
 * Trigger branches a statement matching no row never enters, so their statements are planned
 * on the first real write that does, by table. A trip whose driver, truck or trailer and
 * status change (assign, unassign) runs the trips' asset-event count (a twelve-way union over
 * the transition tables), the stops' copies of the trip's assets, the list counts and the
 * load's follow-up: 25 ms on a connection's first unassign after the statements above, against
 * 1.5 ms on the next, and that was the unassign's p99 in the write benchmark (one per pooled
 * connection). So one trip that has a truck makes that change here, rolled back with the rest;
 * `skip locked` and the script's lock timeout keep a busy trip or load from holding the
 * connection back (a failed script leaves it cold, as before).
 */
const BRANCH_WARMERS: Record<string, string> = {
  trips: `update "trips" set "driver_id" = null, "truck_id" = null, "trailer_id" = null,
    "status" = case "status" when 'Planned' then 'Assigned' else 'Planned' end, "version" = "version" + 1
    where "id" = (select "id" from "trips" where "truck_id" is not null limit 1 for update skip locked)`,
};

/** One script warming every trigger table of the connection's schema, null when there is none. */
export async function warmingScript(client: pg.ClientBase): Promise<string | null> {
  const { rows } = await client.query<{ table: string; column: string }>(TRIGGER_TABLES);
  if (rows.length === 0) return null;
  const statements = rows.flatMap((row) => warmingStatements(row.table, row.column));
  const branches = rows.flatMap((row) => BRANCH_WARMERS[row.table] ?? []);
  return ['begin', "set local lock_timeout = '100ms'", ...statements, ...branches, 'rollback'].join(';\n');
}

export async function warmConnection(client: pg.ClientBase): Promise<void> {
  try {
    const script = await warmingScript(client);
    // One simple-protocol query: one round trip for all the statements.
    if (script) await client.query(script);
  } catch {
    await client.query('rollback').catch(() => undefined);
  }
}
