import { sql } from 'kysely';
import type { Db } from '../../db/create-db.js';

type Json = Record<string, any>;

/** One operation of the OpenAPI document, as the hostile-input cases need it. */
export interface DocOperation {
  method: string;
  /** The template under the version, e.g. `/trips/{tripId}/stops/{stopId}`. */
  template: string;
  pathParams: string[];
  queryParams: Array<{ name: string; schema: Json }>;
  /** The request body's schema, resolved; undefined when the operation takes none. */
  body: Json | undefined;
  bodyRequired: boolean;
}

const PREFIX = '/api/p/v{version}';

/** Every operation under /api/p/ of the document. */
export function operationsOf(doc: Json): DocOperation[] {
  const operations: DocOperation[] = [];
  for (const [template, item] of Object.entries<Json>(doc.paths)) {
    if (!template.startsWith(PREFIX)) continue;
    for (const [method, operation] of Object.entries<Json>(item)) {
      const parameters: Json[] = operation.parameters ?? [];
      const media = operation.requestBody?.content?.['application/json'];
      operations.push({
        method: method.toUpperCase(),
        template: template.slice(PREFIX.length),
        pathParams: parameters.filter((p) => p.in === 'path' && p.name !== 'version').map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: resolve(doc, p.schema ?? {}) })),
        body: media ? resolve(doc, media.schema) : undefined,
        bodyRequired: Boolean(operation.requestBody?.required),
      });
    }
  }
  return operations;
}

/** Follows `$ref`s into components (one level at a time, as the walkers meet them). */
export function resolve(doc: Json, schema: Json): Json {
  let current = schema;
  for (let i = 0; i < 20 && current && typeof current.$ref === 'string'; i++) {
    const parts = (current.$ref as string).replace(/^#\//, '').split('/');
    current = parts.reduce<Json>((node, part) => node?.[part], doc);
  }
  return current ?? {};
}

/** The non-null alternatives of a schema: type arrays, anyOf and oneOf. */
function alternatives(doc: Json, schema: Json): Json[] {
  const resolved = resolve(doc, schema);
  const union: Json[] | undefined = resolved.anyOf ?? resolved.oneOf;
  // An object with properties and a union beside them: the union only constrains the object.
  if (union && !resolved.properties) return union.flatMap((alternative) => alternatives(doc, alternative));
  if (resolved.type === 'null') return [];
  return [resolved];
}

function typesOf(schema: Json): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

function propertiesOf(doc: Json, schema: Json): { properties: Json; required: string[] } {
  const resolved = resolve(doc, schema);
  if (resolved.allOf) {
    const parts = (resolved.allOf as Json[]).map((part) => propertiesOf(doc, part));
    return { properties: Object.assign({}, ...parts.map((p) => p.properties)), required: parts.flatMap((p) => p.required) };
  }
  // "This or that" rules beside the properties (oneOf/anyOf of required lists): take the first.
  const union: Json[] = resolved.oneOf ?? resolved.anyOf ?? [];
  const firstRequired: string[] = union.length > 0 ? (resolve(doc, union[0]!).required ?? []) : [];
  return { properties: resolved.properties ?? {}, required: [...new Set([...(resolved.required ?? []), ...firstRequired])] };
}

/**
 * A small example of a schema: required properties only, the first enum value, the lowest
 * allowed number. Valid for most operations, which brings a hostile path id past input
 * validation to the record lookup; nothing depends on it being valid.
 */
export function exampleOf(doc: Json, schema: Json, depth = 0): unknown {
  const [first] = alternatives(doc, schema);
  if (!first || depth > 6) return null;
  if (first.const !== undefined) return first.const;
  if (Array.isArray(first.enum) && first.enum.length > 0) return first.enum.find((v: unknown) => v !== null) ?? null;
  if (first.default !== undefined && first.default !== null) return first.default;
  const types = typesOf(first);
  if (first.example !== undefined && !types.includes('object') && !first.properties) return first.example;
  if (types.includes('object') || first.properties || first.allOf) {
    const { properties, required } = propertiesOf(doc, first);
    return Object.fromEntries(required.map((name) => [name, exampleOf(doc, properties[name] ?? {}, depth + 1)]));
  }
  if (types.includes('array')) {
    const count = Math.max(1, first.minItems ?? 0);
    return Array.from({ length: count }, () => exampleOf(doc, first.items ?? {}, depth + 1));
  }
  if (types.includes('integer') || types.includes('number')) {
    if (typeof first.minimum === 'number') return first.minimum;
    if (typeof first.exclusiveMinimum === 'number') return first.exclusiveMinimum + (first.multipleOf ?? 1);
    return 1;
  }
  if (types.includes('boolean')) return true;
  if (first.format === 'date-time') return '2026-11-20T10:00:00Z';
  if (first.format === 'date') return '2026-11-20';
  if (first.format === 'uri') return 'https://hooks.example.com/waybill';
  return 'x'.repeat(Math.max(1, first.minLength ?? 1));
}

/** A body field that holds text: its path (for the request) and its name in an Errors map. */
export interface TextField {
  path: Array<string | number>;
  field: string;
}

/** Every property of a body schema that may hold a string, nested objects and array items included. */
export function textFieldsOf(doc: Json, schema: Json, path: Array<string | number> = [], depth = 0): TextField[] {
  if (depth > 4) return [];
  const fields: TextField[] = [];
  const { properties } = propertiesOf(doc, schema);
  for (const [name, property] of Object.entries<Json>(properties)) {
    const here = [...path, name];
    for (const alternative of alternatives(doc, property)) {
      const types = typesOf(alternative);
      if (types.includes('string') || (Array.isArray(alternative.enum) && alternative.enum.some((v: unknown) => typeof v === 'string'))) {
        fields.push({ path: here, field: fieldName(here) });
      } else if (types.includes('object') || alternative.properties || alternative.allOf) {
        fields.push(...textFieldsOf(doc, alternative, here, depth + 1));
      } else if (types.includes('array')) {
        const items = alternatives(doc, alternative.items ?? {});
        if (items.some((item) => typesOf(item).includes('string'))) fields.push({ path: [...here, 0], field: fieldName([...here, 0]) });
        for (const item of items) {
          if (typesOf(item).includes('object') || item.properties) fields.push(...textFieldsOf(doc, item, [...here, 0], depth + 1));
        }
      }
    }
  }
  // A property offered as string or object is listed once.
  return fields.filter((field, i) => fields.findIndex((other) => other.field === field.field) === i);
}

function fieldName(path: Array<string | number>): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : out ? `.${part}` : part;
  return out;
}

/** `value` with the item at `path` replaced, creating objects and one-item arrays on the way. */
export function withValueAt(value: unknown, path: Array<string | number>, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const array = Array.isArray(value) ? [...value] : [];
    array[head] = withValueAt(array[head], rest, replacement);
    return array;
  }
  const object = value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Json) } : {};
  object[head!] = withValueAt(object[head!], rest, replacement);
  return object;
}

/** Whether a query parameter is an integer, however the document writes it. */
export function isIntegerParam(doc: Json, schema: Json): boolean {
  return alternatives(doc, schema).some(
    (alternative) => typesOf(alternative).includes('integer') || (typeof alternative.pattern === 'string' && /^\^-?\??\\d/.test(alternative.pattern)),
  );
}

/**
 * Everything the database holds, as one comparable text per table: what a refused request
 * must leave exactly as it was. Rate-limit counters are left out (they count requests).
 */
export async function snapshotDatabase(db: Db, kind: 'sqlite' | 'postgres'): Promise<Record<string, string>> {
  const tables =
    kind === 'sqlite'
      ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows
      : (
          await sql<{ name: string }>`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition`.execute(db)
        ).rows;
  const snapshot: Record<string, string> = {};
  for (const { name } of tables) {
    if (name.startsWith('rate_limit')) continue;
    const rows = (await sql<Json>`select * from ${sql.table(name)}`.execute(db)).rows;
    snapshot[name] = rows.map((row) => JSON.stringify(row)).sort().join('\n');
  }
  return snapshot;
}
