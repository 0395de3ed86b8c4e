import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../adapters/project-root.js';
import { TABLE_OWNERS } from '../db/table-owners.js';

/**
 * A table has one owner (docs/architecture.md#rules-ci-holds-the-code-to). Every Kysely
 * statement (`selectFrom`, `insertInto`, `updateTable`, `deleteFrom`, the joins) and every
 * `from`/`join`/`into`/`update` in raw `sql` under core/, workers/ and seeding/ is checked
 * against db/table-owners.ts:
 *
 * - a write (insert, update, delete) of a table only in a `*.repository.ts` file of its owner;
 * - a read (`selectFrom`, a join, a subquery) only in a `*.repository.ts` file, of any domain:
 *   one statement that reads another domain's rows beside its own (a list joined to its
 *   customer, an existence check) is a read, and splitting it would cost a round trip;
 * - a statement whose table is not a literal only in a repository or one of the building
 *   blocks below.
 *
 * Failures name file:line, the table and its owner. No server, no database.
 */

const root = projectRoot();
const SCANNED = ['core', 'workers', 'seeding'];

/** Query helpers that take the table from their caller: building blocks, not owners. */
const BUILDING_BLOCKS = new Set([
  'core/shared/select-page.ts',
  'core/shared/taken-ids.ts',
  'core/shared/row-set.ts',
  'core/shared/update-at-version.ts',
  'core/shared/list-counts.ts',
]);

const WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
const STATEMENT = /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*([^,)]*)/g;
const RAW_SQL = /\bsql(?:<[^`]*?>)?`([^`]*)`/g;
const RAW_TABLE = /\b(delete\s+from|from|join|into|update)\s+([a-z_]+)/gi;

interface Use {
  file: string;
  line: number;
  table: string;
  write: boolean;
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(root, path)).isDirectory()) return tsFiles(path);
    return name.endsWith('.ts') ? [path] : [];
  });
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Every table a file's SQL names; `?` for a statement whose table comes from a variable. */
function tableUses(file: string): Use[] {
  const text = readFileSync(join(root, file), 'utf8');
  const uses: Use[] = [];
  for (const match of text.matchAll(STATEMENT)) {
    const argument = match[2]!.trim();
    const literal = /^['"]([a-z_]+)(?:\s+as\s+\w+)?['"]$/.exec(argument);
    // A callback (`(eb) => ...`) is a join on a derived table: its own statement is found on its own.
    if (!literal && /=>|^\(/.test(argument)) continue;
    const table = literal ? literal[1]! : '?';
    if (table !== '?' && !(table in TABLE_OWNERS)) continue; // a CTE or an alias
    uses.push({ file, line: lineAt(text, match.index), table, write: WRITES.has(match[1]!) });
  }
  for (const raw of text.matchAll(RAW_SQL)) {
    for (const match of raw[1]!.matchAll(RAW_TABLE)) {
      const table = match[2]!;
      if (!(table in TABLE_OWNERS)) continue;
      const verb = match[1]!.toLowerCase();
      uses.push({ file, line: lineAt(text, raw.index + 'sql`'.length + match.index), table, write: verb !== 'from' && verb !== 'join' });
    }
  }
  return uses;
}

function violation(use: Use): string | undefined {
  const repository = use.file.endsWith('.repository.ts');
  if (use.table === '?') {
    return repository || BUILDING_BLOCKS.has(use.file) ? undefined : 'a statement on a table from a variable outside a repository';
  }
  const owner = TABLE_OWNERS[use.table as keyof typeof TABLE_OWNERS];
  if (use.write && !(repository && use.file.startsWith(`${owner}/`))) return `writes ${use.table}, owned by ${owner}`;
  if (!use.write && !repository && !BUILDING_BLOCKS.has(use.file)) return `reads ${use.table} (owned by ${owner}) outside a repository`;
  return undefined;
}

describe('table owners', () => {
  const uses = SCANNED.flatMap(tsFiles).flatMap(tableUses);

  it('names an owner for every table of the Database interface', () => {
    const schema = readFileSync(join(root, 'db/database.ts'), 'utf8');
    const body = /export interface Database \{([^}]*)\}/.exec(schema)![1]!;
    const tables = [...body.matchAll(/^\s*([a-z_]+):/gm)].map((match) => match[1]);
    expect(tables.length).toBeGreaterThan(0);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...tables].sort());
  });

  it('finds the SQL it checks', () => {
    expect(uses.some((use) => use.file === 'core/tenders/tender.repository.ts' && use.table === 'tenders' && use.write)).toBe(true);
    expect(uses.some((use) => use.file === 'core/visibility/asset-event-counts.repository.ts' && use.table === 'asset_event_counts')).toBe(true);
  });

  it('issues SQL against a table only from its owner (writes) or a repository (reads)', () => {
    const problems = uses.flatMap((use) => {
      const problem = violation(use);
      return problem ? [`${use.file}:${use.line} ${problem}`] : [];
    });
    expect(problems, 'route this SQL through the owning repository (db/table-owners.ts)').toEqual([]);
  });
});
