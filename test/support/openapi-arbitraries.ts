// fast-check arbitraries built from an OpenAPI 3.1 document: requests its schemas call valid,
// and requests with exactly one thing wrong.
//
// What JSON Schema cannot say (an opaque cursor, an ETag to send back, which ids exist) comes
// from `Hints`, filled at run time from earlier answers, so the choice is still made by the
// seeded generator and a failing case replays.
import fc from 'fast-check';
import { resolveRef, type JsonSchema, type OpenApiDocument, type Operation, type SchemaValidator } from './openapi-validator.js';

export interface Hints {
  /** Real values for a path parameter, given the values chosen for the ones before it. */
  pathValues(operation: Operation, name: string, before: Record<string, string>): string[];
  /** Real values for a body property or query parameter of this name. */
  namedValues(name: string): string[];
  /** Names whose value is opaque: only a value the server handed out is valid. */
  opaque: Set<string>;
}

/** What a request becomes on the wire; `opaque` and If-Match slots are filled when sent. */
export interface GeneratedRequest {
  method: string;
  /** Path parameter values (not encoded), the version included. */
  pathParams: Record<string, string>;
  /** A raw path segment value already percent-encoded, replacing a parameter (hostile cases). */
  rawPathParams?: Record<string, string>;
  query: [string, string][];
  /** Raw query text appended as is (hostile cases). */
  rawQuery?: string;
  headers: Record<string, string>;
  /** A JSON value; `raw` sends `rawBody` verbatim instead. */
  body?: unknown;
  rawBody?: string;
  contentType?: string;
  /** Slots resolved when sending: take a cursor or ETag the server handed out. */
  useKnownCursor?: boolean;
  useKnownEtag?: boolean;
  /** Empty for a valid request; otherwise what was broken. */
  mutation?: { kind: string; where: string };
}

const PRINTABLE = fc.constantFrom(...' !#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~"\'\\');
/** Text a client may legitimately send: any Unicode scalar value but control characters. */
const TEXT_UNIT = fc.oneof(
  { weight: 6, arbitrary: PRINTABLE },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 0xa0, max: 0x10ffff })
      .filter((code) => code < 0xd800 || code > 0xdfff)
      .map((code) => String.fromCodePoint(code)),
  },
);
const HEADER_UNIT = fc.constantFrom(...'!#$%&*+-.0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ^_`abcdefghijklmnopqrstuvwxyz|~'.split(''));

/** Characters the issue says the edge must refuse in text: NUL, other C0 controls, lone surrogates. */
export const HOSTILE_TEXT = ['\u0000', '\u0001', '\u001b', '\u007f'.replace('\u007f', '\u0008'), '\ud800', '\udfff'];
/** Percent-encoded forms of the same for paths and queries (lone surrogates as their WTF-8 bytes). */
export const HOSTILE_ENCODED = ['%00', '%01', '%1B', '%ED%A0%80', '%ED%BF%BF', '%FF', '%C0%80'];
/** Integer spellings a strict reader refuses. */
export const LENIENT_INTEGERS = (n: number) => [`0x${n.toString(16)}`, `0b${n.toString(2)}`, `${n}e0`, `+${n}`, ` ${n}`, `${n} `, `${n}.0`, `\ufeff${n}`, `${n}n`, `0o${n.toString(8)}`];

function typesOf(schema: JsonSchema): string[] {
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  if (schema.properties || schema.additionalProperties !== undefined || schema.required) return ['object'];
  if (schema.items) return ['array'];
  if (schema.pattern || schema.format || schema.minLength !== undefined || schema.maxLength !== undefined) return ['string'];
  if (schema.minimum !== undefined || schema.maximum !== undefined) return ['number'];
  return [];
}

/** allOf folded into one schema, as far as objects go; the validator filters the rest. */
function flatten(doc: OpenApiDocument, schema: JsonSchema): JsonSchema {
  const resolved = resolveRef(doc, schema)!;
  if (!resolved.allOf) return resolved;
  const { allOf, ...rest } = resolved;
  const parts = [rest, ...allOf.map((part: JsonSchema) => flatten(doc, part))];
  const merged: JsonSchema = {};
  for (const part of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties') merged.properties = { ...merged.properties, ...(value as object) };
      else if (key === 'required') merged.required = [...new Set([...(merged.required ?? []), ...(value as string[])])];
      else if (!(key in merged)) merged[key] = value;
      // Both bounds hold: the stricter one is the bound.
      else if (['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'].includes(key)) merged[key] = Math.max(merged[key], value as number);
      else if (['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'].includes(key)) merged[key] = Math.min(merged[key], value as number);
    }
  }
  return merged;
}

function decimals(n: number): number {
  const text = String(n);
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  return text.includes('.') ? text.split('.')[1]!.length : 0;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** RFC 3339 date-times, the whole grammar: lower-case t and z, any fraction, offsets to ±23:59. */
export function dateTimeArbitrary(): fc.Arbitrary<string> {
  const date = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true });
  const near = fc.integer({ min: -40 * 86_400, max: 10 * 86_400 }).map((s) => new Date(Date.parse('2026-11-22T12:00:00Z') + s * 1000));
  return fc
    .record({
      date: fc.oneof({ weight: 3, arbitrary: near }, { weight: 1, arbitrary: date }),
      separator: fc.constantFrom('T', 'T', 'T', 't'),
      fraction: fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: 9 }).map((f) => `.${f}`) }),
      offset: fc.oneof(
        { weight: 4, arbitrary: fc.constant('Z') },
        { weight: 1, arbitrary: fc.constant('z') },
        { weight: 2, arbitrary: fc.record({ sign: fc.constantFrom('+', '-'), h: fc.integer({ min: 0, max: 23 }), m: fc.integer({ min: 0, max: 59 }) }).map(({ sign, h, m }) => `${sign}${pad(h)}:${pad(m)}`) },
      ),
    })
    .map(({ date: d, separator, fraction, offset }) => {
      const iso = d.toISOString();
      return `${iso.slice(0, 10)}${separator}${iso.slice(11, 19)}${fraction}${offset}`;
    });
}

export function dateArbitrary(): fc.Arbitrary<string> {
  return fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
}

function uriArbitrary(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.webUrl({ validSchemes: ['http', 'https'] }) },
    { weight: 1, arbitrary: fc.constantFrom('urn:isbn:0451450523', 'mailto:ops@example.com', 'ftp://example.com/x', 'file:///etc/passwd', 'data:,x') },
  );
}

/** Lookarounds removed: fast-check cannot generate them; the full pattern filters instead. */
function withoutLookarounds(pattern: string): string {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') {
      out += pattern.slice(i, i + 2);
      i++;
    } else if (/^\(\?<?[=!]/.test(pattern.slice(i))) {
      let depth = 0;
      for (; i < pattern.length; i++) {
        if (pattern[i] === '\\') i++;
        else if (pattern[i] === '(') depth++;
        else if (pattern[i] === ')' && --depth === 0) break;
      }
    } else out += pattern[i];
  }
  return out;
}

const patternCache = new Map<string, fc.Arbitrary<string>>();
export function patternArbitrary(pattern: string): fc.Arbitrary<string> {
  const cached = patternCache.get(pattern);
  if (cached) return cached;
  const regex = new RegExp(pattern, 'u');
  const stripped = withoutLookarounds(pattern);
  const arbitrary = stripped === pattern ? fc.stringMatching(regex) : fc.stringMatching(new RegExp(stripped, 'u')).filter((s) => regex.test(s));
  patternCache.set(pattern, arbitrary);
  return arbitrary;
}

function stringArbitrary(schema: JsonSchema, unit: fc.Arbitrary<string> = TEXT_UNIT): fc.Arbitrary<string> {
  const minLength: number = schema.minLength ?? 0;
  const maxLength: number = schema.maxLength ?? Math.max(minLength, 40);
  const fits = (s: string) => {
    const length = [...s].length;
    return length >= minLength && length <= maxLength;
  };
  if (schema.pattern) return patternArbitrary(schema.pattern).filter(fits);
  if (schema.format === 'date-time') return dateTimeArbitrary().filter(fits);
  if (schema.format === 'date') return dateArbitrary().filter(fits);
  if (schema.format === 'uri' || schema.format === 'url') return uriArbitrary().filter(fits);
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  if (schema.format === 'uuid') return fc.uuid();
  return fc.string({ unit, minLength, maxLength: Math.min(maxLength, minLength + 40) });
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  let min: number = schema.minimum ?? (integer ? Number.MIN_SAFE_INTEGER : -1e12);
  let max: number = schema.maximum ?? (integer ? Number.MAX_SAFE_INTEGER : 1e12);
  if (typeof schema.exclusiveMinimum === 'number') min = Math.max(min, schema.exclusiveMinimum);
  if (typeof schema.exclusiveMaximum === 'number') max = Math.min(max, schema.exclusiveMaximum);
  const inRange = (n: number) =>
    n >= min && n <= max && !(typeof schema.exclusiveMinimum === 'number' && n <= schema.exclusiveMinimum) && !(typeof schema.exclusiveMaximum === 'number' && n >= schema.exclusiveMaximum);
  const step: number | undefined = schema.multipleOf;
  if (integer || (step !== undefined && Number.isInteger(step))) {
    const unit = step ?? 1;
    const lo = Math.ceil(min / unit);
    const hi = Math.floor(max / unit);
    // Small values when the range has any (a range such as 1900..2100 has none).
    const small = lo <= 1000 && hi >= -1000 ? fc.integer({ min: Math.max(lo, -1000), max: Math.min(hi, 1000) }) : fc.integer({ min: lo, max: hi });
    return fc.oneof({ weight: 3, arbitrary: small }, { weight: 1, arbitrary: fc.integer({ min: lo, max: hi }) }, { weight: 1, arbitrary: fc.constantFrom(lo, hi) }).map((k) => k * unit).filter(inRange);
  }
  if (step !== undefined) {
    const places = decimals(step);
    const lo = Math.ceil(min / step);
    const hi = Math.floor(max / step);
    return fc.integer({ min: Math.max(lo, -1e12), max: Math.min(hi, 1e12) }).map((k) => Number((k * step).toFixed(places))).filter(inRange);
  }
  return fc.oneof(
    { weight: 3, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }) },
    { weight: 2, arbitrary: fc.integer({ min: Math.ceil(Math.max(min, -1e6)), max: Math.floor(Math.min(max, 1e6)) }) },
    { weight: 1, arbitrary: fc.integer({ min: -100_000, max: 100_000 }).map((k) => k / 100) },
  ).filter(inRange).map((n) => (Object.is(n, -0) ? 0 : n));
}

export interface ValueOptions {
  hints: Hints;
  /** The property or parameter name, for real values. */
  name?: string;
  /** Extra unknown properties where the schema allows them: the document says a client may. */
  extraProperties: boolean;
  depth: number;
}

/** Values valid against `schema` (the caller filters with the validator for what this misses). */
export function valueArbitrary(doc: OpenApiDocument, input: JsonSchema, options: ValueOptions): fc.Arbitrary<unknown> {
  const schema = flatten(doc, input);
  // Real values stand in for strings only: a branching schema hands the name to each branch,
  // an array to its items (DriverIds: real driver ids), so a null or an array stays one.
  const stringLeaf = !(schema.anyOf ?? schema.oneOf) && typesOf(schema).includes('string');
  const named = options.name && stringLeaf ? options.hints.namedValues(options.name) : [];
  const generated = generatedValue(doc, schema, options);
  if (!named.length) return generated;
  // Read at generation time: the pools grow as the run discovers records.
  const real = fc.nat().map((i) => {
    const pool = options.hints.namedValues(options.name!);
    return pool[i % pool.length];
  });
  return fc.oneof({ weight: 3, arbitrary: real }, { weight: 1, arbitrary: generated });
}

function generatedValue(doc: OpenApiDocument, schema: JsonSchema, options: ValueOptions): fc.Arbitrary<unknown> {
  const inner = { ...options, name: undefined, depth: options.depth + 1 };
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const branches: JsonSchema[] | undefined = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const { anyOf: _a, oneOf: _o, ...siblings } = schema;
    return fc.oneof(...branches.map((branch) => valueArbitrary(doc, { allOf: [siblings, branch] }, { ...options })));
  }
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  if (types.length > 1) {
    return fc.oneof(...types.map((type) => ({ weight: type === 'null' ? 1 : 3, arbitrary: generatedValue(doc, { ...schema, type }, options) })));
  }
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'string':
      return stringArbitrary(schema);
    case 'array': {
      const items = schema.items ? valueArbitrary(doc, schema.items, { ...inner, name: options.name }) : fc.jsonValue({ maxDepth: 1 });
      const minLength: number = schema.minItems ?? 0;
      const maxLength: number = Math.min(schema.maxItems ?? minLength + 4, minLength + 4);
      const array = schema.uniqueItems
        ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
        : fc.array(items, { minLength, maxLength });
      return Array.isArray(schema.prefixItems) ? array.map((list) => withPrefixConstants(list, schema.prefixItems)) : array;
    }
    case 'object':
      return objectArbitrary(doc, schema, options);
    default:
      throw new Error(`unsupported type ${types[0]}`);
  }
}

/**
 * The constants `prefixItems` give the first items' properties (a route's first stop a Pickup),
 * set on the items drawn from `items`: drawn alone, most arrays of several items would miss them.
 * The validator still judges the result.
 */
function withPrefixConstants(list: unknown[], prefixItems: JsonSchema[]): unknown[] {
  return list.map((item, i) => {
    const properties: Record<string, JsonSchema> = prefixItems[i]?.properties ?? {};
    const constants = Object.entries(properties).filter(([, property]) => 'const' in property);
    if (!constants.length || !item || typeof item !== 'object' || Array.isArray(item)) return item;
    return { ...item, ...Object.fromEntries(constants.map(([name, property]) => [name, property.const])) };
  });
}

function objectArbitrary(doc: OpenApiDocument, schema: JsonSchema, options: ValueOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties: Record<string, JsonSchema> = schema.properties ?? {};
  const required = new Set<string>(schema.required ?? []);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    fields[name] = valueArbitrary(doc, property, { ...options, name, depth: options.depth + 1 });
  }
  const known = fc.record(fields, { requiredKeys: [...required].filter((k) => k in fields) });
  const additional = schema.additionalProperties;
  const extras =
    additional === false || (!options.extraProperties && !(additional && typeof additional === 'object'))
      ? fc.constant({})
      : fc.dictionary(
          fc.string({ unit: HEADER_UNIT, minLength: 1, maxLength: 12 }).filter((k) => !(k in properties)),
          additional && typeof additional === 'object' ? valueArbitrary(doc, additional, { ...options, name: undefined }) : fc.jsonValue({ maxDepth: 1 }),
          { maxKeys: 2 },
        );
  const extraWeight = additional === false || !options.extraProperties ? 0 : 1;
  return fc
    .tuple(known, extraWeight ? fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extras }) : fc.constant({}))
    .map(([k, e]) => ({ ...(e as object), ...k }))
    .filter((value) => Object.keys(value).length >= (schema.minProperties ?? 0) && Object.keys(value).length <= (schema.maxProperties ?? Infinity));
}

const wrongTypeCache = new WeakMap<JsonSchema, unknown[]>();
/** A JSON value of each type not allowed by the schema. */
export function wrongTypeValues(validator: SchemaValidator, schema: JsonSchema): unknown[] {
  let values = wrongTypeCache.get(schema);
  if (!values) {
    values = [123, 1.5, 'text', true, null, [], {}, ['text']].filter((value) => !validator.isValid(schema, value));
    wrongTypeCache.set(schema, values);
  }
  return values;
}

const outOfRangeCache = new WeakMap<JsonSchema, unknown[]>();

/** Values that break one constraint of a schema beside its type. */
export function outOfRangeValues(doc: OpenApiDocument, validator: SchemaValidator, input: JsonSchema): unknown[] {
  let values = outOfRangeCache.get(input);
  if (!values) {
    values = computeOutOfRange(doc, validator, input);
    outOfRangeCache.set(input, values);
  }
  return values;
}

function computeOutOfRange(doc: OpenApiDocument, validator: SchemaValidator, input: JsonSchema): unknown[] {
  const schema = flatten(doc, input);
  const candidates: unknown[] = [];
  const variants: JsonSchema[] = [schema, ...((schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[]).map((b) => flatten(doc, b))];
  for (const s of variants) {
    if (typeof s.maxLength === 'number') candidates.push('x'.repeat(s.maxLength + 1));
    if (typeof s.minLength === 'number' && s.minLength > 0) candidates.push('x'.repeat(s.minLength - 1));
    if (typeof s.maximum === 'number') candidates.push(s.maximum + 1, s.maximum + 0.5);
    if (typeof s.minimum === 'number') candidates.push(s.minimum - 1, s.minimum - 0.5);
    if (typeof s.exclusiveMaximum === 'number') candidates.push(s.exclusiveMaximum);
    if (typeof s.exclusiveMinimum === 'number') candidates.push(s.exclusiveMinimum);
    if (typeof s.multipleOf === 'number') candidates.push(s.multipleOf / 3 + (s.minimum ?? 1));
    if (Array.isArray(s.enum)) candidates.push('NotAnEnumValue', typeof s.enum[0] === 'string' ? s.enum[0].toLowerCase() + ' ' : 999);
    if (s.pattern) candidates.push('!not-matching!', '');
    if (s.format === 'date-time') candidates.push('2026-13-45T99:99:99Z', 'yesterday', '2026-11-22');
    if (s.format === 'date') candidates.push('2026-02-30', '22/11/2026');
    if (s.format === 'uri') candidates.push('not a uri', '://x');
    if (typeof s.maxItems === 'number') candidates.push(Array.from({ length: s.maxItems + 1 }, () => 'x'));
    if (typeof s.minItems === 'number' && s.minItems > 0) candidates.push([]);
  }
  return candidates.filter((value) => !validator.isValid(input, value));
}

/** The operation's parameters of one location, path parameters in path order. */
export function parametersOf(operation: Operation, where: 'path' | 'query' | 'header'): any[] {
  const parameters: any[] = (operation.spec.parameters ?? []).filter((p: any) => p.in === where);
  if (where !== 'path') return parameters;
  const order = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  return order.map((name) => parameters.find((p) => p.name === name) ?? { name, in: 'path', required: true, schema: { type: 'string' } });
}

/** The request body's media types, a range such as `application/*+json` made concrete. */
export function bodyMediaTypes(operation: Operation): { contentType: string; schema: JsonSchema }[] {
  const content: Record<string, any> = operation.spec.requestBody?.content ?? {};
  return Object.entries(content).map(([type, media]) => ({ contentType: type.replace('*', 'vnd.waybill-probe'), schema: media.schema ?? {} }));
}

function queryText(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(queryText);
  if (value === null || value === undefined) return [];
  return [typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value)];
}

/** A path segment value a URL keeps as one segment ('.' and '..' are dot segments). */
const segmentSafe = (value: string) => value !== '.' && value !== '..';

export interface RequestArbitraries {
  valid: fc.Arbitrary<GeneratedRequest & { schemaValid: boolean }>;
  invalid: fc.Arbitrary<GeneratedRequest & { schemaValid: boolean }>;
}

/** An opaque query parameter or body property is left out OPAQUE_ABSENT_FREQ times to each time it is drawn from its schema. */
const OPAQUE_ABSENT_FREQ = 9;

export function requestArbitraries(doc: OpenApiDocument, validator: SchemaValidator, operation: Operation, hints: Hints): RequestArbitraries {
  const pathParameters = parametersOf(operation, 'path');
  const queryParameters = parametersOf(operation, 'query');
  const headerParameters = parametersOf(operation, 'header');
  const media = bodyMediaTypes(operation);
  const valueOptions: ValueOptions = { hints, extraProperties: true, depth: 0 };

  // Path: a real record for most cases (chosen in order, so a stop belongs to its trip), else
  // any value the schema allows.
  const pathArbitrary = fc
    .tuple(...pathParameters.map((p) => fc.record({ real: fc.boolean().map((b) => b || p.name === 'version'), index: fc.nat(), generated: (valueArbitrary(doc, p.schema ?? { type: 'string' }, { ...valueOptions, extraProperties: false }) as fc.Arbitrary<unknown>).map(String).filter(segmentSafe) })))
    .map((choices) => {
      const values: Record<string, string> = {};
      pathParameters.forEach((p, i) => {
        const choice = choices[i]!;
        const before = Object.fromEntries(Object.entries(values).filter(([k]) => k !== 'version'));
        const pool = p.name === 'version' ? [] : hints.pathValues(operation, p.name, before);
        values[p.name] = choice.real && pool.length ? pool[choice.index % pool.length]! : choice.generated;
      });
      return values;
    });

  const queryArbitrary = fc
    .tuple(
      ...queryParameters.map((p) => {
        const value = valueArbitrary(doc, p.schema ?? { type: 'string' }, { ...valueOptions, name: p.name, extraProperties: false });
        // An opaque value drawn from its schema now and then: the document's pattern is all a client has to go by.
        if (hints.opaque.has(p.name)) return fc.oneof({ weight: OPAQUE_ABSENT_FREQ, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: value });
        return p.required ? value : fc.option(value, { nil: undefined, freq: 2 });
      }),
    )
    .map((values) => {
      const query: [string, string][] = [];
      queryParameters.forEach((p, i) => {
        for (const text of queryText(values[i])) query.push([p.name, text]);
      });
      return { query, valid: queryParameters.every((p, i) => values[i] === undefined || validator.isValid(p.schema ?? {}, values[i])) };
    });

  const headerArbitrary = fc
    .tuple(
      ...headerParameters.map((p) => {
        const schema = resolveRef(doc, p.schema) ?? { type: 'string' };
        const value = Array.isArray(schema.enum)
          ? fc.constantFrom(...schema.enum.map(String))
          : fc.string({ unit: HEADER_UNIT, minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 20, 40) });
        if (/^if-match$/i.test(p.name)) return fc.oneof({ weight: 4, arbitrary: fc.constant('known') }, { weight: 1, arbitrary: fc.constant('*') }, { weight: 1, arbitrary: value });
        return p.required ? value : fc.option(value, { nil: undefined, freq: 3 });
      }),
    )
    .map((values) => {
      const headers: Record<string, string> = {};
      let useKnownEtag = false;
      headerParameters.forEach((p, i) => {
        if (values[i] === undefined) return;
        if (/^if-match$/i.test(p.name) && values[i] === 'known') useKnownEtag = true;
        else headers[p.name] = values[i]!;
      });
      return { headers, useKnownEtag };
    });

  const bodyArbitrary: fc.Arbitrary<{ body?: unknown; contentType?: string; valid: boolean; schema?: JsonSchema }> = media.length
    ? fc
        .tuple(
          fc.nat({ max: media.length - 1 }).map((i) => (i < media.length - 1 ? 0 : i)),
          fc.oneof(...media.map((m) => valueArbitrary(doc, m.schema, valueOptions))),
          fc.nat({ max: OPAQUE_ABSENT_FREQ }),
        )
        .map(([i, body, keepOpaque]) => {
          const { contentType, schema } = media[i]!;
          let value = body;
          if (keepOpaque !== 0 && value && typeof value === 'object' && !Array.isArray(value)) {
            value = Object.fromEntries(Object.entries(value).filter(([k]) => !hints.opaque.has(k)));
          }
          return { body: value, contentType, valid: validator.isValid(schema, value), schema };
        })
    : fc.constant({ valid: true });

  const valid = fc.record({ path: pathArbitrary, query: queryArbitrary, header: headerArbitrary, body: bodyArbitrary, cursor: fc.boolean() }).map(
    ({ path, query, header, body, cursor }): GeneratedRequest & { schemaValid: boolean; bodySchema?: JsonSchema } => ({
      method: operation.method,
      pathParams: path,
      query: query.query,
      headers: header.headers,
      body: body.body,
      contentType: body.contentType,
      useKnownCursor: cursor,
      useKnownEtag: header.useKnownEtag,
      schemaValid: query.valid && body.valid,
      bodySchema: body.schema,
    }),
  );

  const invalid = valid.chain((request) => {
    const mutations = mutationsOf(doc, validator, operation, request, hints);
    return mutations.length ? fc.oneof(...mutations) : fc.constant({ ...request, schemaValid: false, mutation: { kind: 'none', where: '' } });
  });
  return { valid, invalid };
}

type Mutated = GeneratedRequest & { schemaValid: boolean; bodySchema?: JsonSchema };

/** String leaves of a JSON value, as property paths. */
function stringLeaves(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringLeaves(item, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => stringLeaves(v, [...path, k]));
  return [];
}

function setAt(value: any, path: (string | number)[], leaf: unknown): any {
  if (path.length === 0) return leaf;
  const copy = Array.isArray(value) ? [...value] : { ...value };
  copy[path[0]!] = setAt(copy[path[0]!], path.slice(1), leaf);
  return copy;
}

const fieldPath = (path: (string | number)[]) => path.map((p) => (typeof p === 'number' ? '[]' : `.${p}`)).join('').replace(/^\./, '');

function mutationsOf(doc: OpenApiDocument, validator: SchemaValidator, operation: Operation, request: Mutated, hints: Hints): fc.Arbitrary<Mutated>[] {
  const out: fc.Arbitrary<Mutated>[] = [];
  // `breaks`: the change makes the request one the document calls invalid (or hostile); the
  // property skips the cases where it does not.
  const mutate = (kind: string, where: string, change: Partial<Mutated>, breaks: boolean): Mutated => ({
    ...request,
    ...change,
    useKnownCursor: false,
    schemaValid: !breaks,
    mutation: { kind, where },
  });
  const bodySchema = request.bodySchema ? flatten(doc, request.bodySchema) : undefined;
  const body = request.body;
  const isObjectBody = body !== null && typeof body === 'object' && !Array.isArray(body);

  if (bodySchema) {
    const properties: Record<string, JsonSchema> = bodySchema.properties ?? {};
    const names = Object.keys(properties);
    // Each change must make the body invalid by the document; the validator decides.
    const invalidBody = (value: unknown) => !validator.isValid(request.bodySchema!, value);
    if (isObjectBody && names.length) {
      out.push(
        fc.constantFrom(...names).chain((name) => {
          const wrong = wrongTypeValues(validator, properties[name]!);
          return wrong.length
            ? fc.constantFrom(...wrong).map((v) => { const b = { ...(body as object), [name]: v }; return mutate('wrong-type', `body.${name}`, { body: b }, invalidBody(b)); })
            : fc.constant(mutate('none', '', {}, false));
        }),
      );
      const ranged = names.filter((n) => outOfRangeValues(doc, validator, properties[n]!).length);
      if (ranged.length) {
        out.push(
          fc.constantFrom(...ranged).chain((name) =>
            fc.constantFrom(...outOfRangeValues(doc, validator, properties[name]!)).map((v) => {
              const b = { ...(body as object), [name]: v };
              return mutate('out-of-range', `body.${name}`, { body: b }, invalidBody(b));
            }),
          ),
        );
      }
      const required: string[] = (bodySchema.required ?? []).filter((n: string) => n in (body as object));
      if (required.length) {
        out.push(fc.constantFrom(...required).map((name) => {
          const { [name]: _gone, ...b } = body as Record<string, unknown>;
          return mutate('missing-required', `body.${name}`, { body: b }, invalidBody(b));
        }));
      }
      if (bodySchema.additionalProperties === false) {
        out.push(fc.constantFrom('Unknown', 'id', 'extra_field').map((name) => {
          const b = { ...(body as object), [name]: 'x' };
          return mutate('unknown-property', `body.${name}`, { body: b }, invalidBody(b));
        }));
      }
    }
    const leaves = stringLeaves(body);
    const textNames = names.filter((n) => typesOf(flatten(doc, properties[n]!)).includes('string') || (properties[n]!.anyOf ?? []).some((b: JsonSchema) => typesOf(flatten(doc, b)).includes('string')));
    if (leaves.length || textNames.length) {
      out.push(
        fc.record({ leaf: fc.nat(), char: fc.constantFrom(...HOSTILE_TEXT), at: fc.constantFrom('end', 'start', 'alone') }).map(({ leaf, char, at }) => {
          const path = leaves.length ? leaves[leaf % leaves.length]! : [textNames[leaf % textNames.length]!];
          const current = leaves.length ? String(path.reduce((v: any, k) => v[k], body)) : 'x';
          const text = at === 'alone' ? char : at === 'start' ? char + current : current + char;
          return mutate('hostile-text', `body.${fieldPath(path)}`, { body: setAt(isObjectBody ? body : {}, path, text) }, true);
        }),
      );
    }
    // No body at all is a body-shape fault only where the document requires one.
    const shapes = ['[]', '"text"', '1', 'null', '{', '{"a":1,}', '\u0000', ...(operation.spec.requestBody?.required ? [''] : [])];
    out.push(fc.constantFrom(...shapes).map((raw) => mutate('body-shape', JSON.stringify(raw), { body: undefined, rawBody: raw }, true)));
    out.push(fc.constantFrom('text/plain', 'application/xml', 'multipart/form-data; boundary=x').map((type) => mutate('media-type', type, { contentType: type }, true)));
  }

  const queryParameters = parametersOf(operation, 'query').filter((p) => !hints.opaque.has(p.name));
  if (queryParameters.length) {
    out.push(
      fc.record({ i: fc.nat({ max: queryParameters.length - 1 }), pick: fc.nat() }).map(({ i, pick }) => {
        const p = queryParameters[i]!;
        const schema = flatten(doc, p.schema ?? {});
        const itemSchema = schema.type === 'array' ? flatten(doc, schema.items ?? {}) : schema;
        const candidates: { raw: string; kind: string }[] = HOSTILE_ENCODED.map((raw) => ({ raw: `x${raw}`, kind: 'hostile-text' }));
        if (typesOf(itemSchema).includes('integer')) {
          candidates.push(...LENIENT_INTEGERS(16).map((v) => ({ raw: encodeURIComponent(v), kind: 'lenient-integer' })), { raw: 'abc', kind: 'wrong-type' }, { raw: '1.5', kind: 'wrong-type' });
        }
        if (typesOf(itemSchema).includes('boolean')) candidates.push({ raw: 'maybe', kind: 'wrong-type' });
        for (const v of outOfRangeValues(doc, validator, itemSchema)) {
          if (typeof v === 'string' || typeof v === 'number') candidates.push({ raw: encodeURIComponent(String(v)), kind: Array.isArray(itemSchema.enum) ? 'not-in-enum' : 'out-of-range' });
        }
        const chosen = candidates[pick % candidates.length]!;
        return mutate(chosen.kind, `query.${p.name}`, { query: request.query.filter(([k]) => k !== p.name), rawQuery: `${encodeURIComponent(p.name)}=${chosen.raw}` }, true);
      }),
    );
  }

  const pathParameters = parametersOf(operation, 'path').filter((p) => p.name !== 'version');
  if (pathParameters.length) {
    out.push(
      fc.record({ i: fc.nat({ max: pathParameters.length - 1 }), pick: fc.nat() }).map(({ i, pick }) => {
        const p = pathParameters[i]!;
        const schema = flatten(doc, p.schema ?? {});
        const real = encodeURIComponent(request.pathParams[p.name]!);
        const candidates: { raw: string; kind: string }[] = HOSTILE_ENCODED.map((raw) => ({ raw: `${real}${raw}`, kind: 'hostile-text' }));
        if (typesOf(schema).includes('integer') && /^\d+$/.test(request.pathParams[p.name]!)) {
          candidates.push(...LENIENT_INTEGERS(Number(request.pathParams[p.name])).map((v) => ({ raw: encodeURIComponent(v), kind: 'lenient-integer' })));
        }
        const chosen = candidates[pick % candidates.length]!;
        return mutate(chosen.kind, `path.${p.name}`, { rawPathParams: { [p.name]: chosen.raw } }, true);
      }),
    );
  }

  out.push(fc.constantFrom('0.9', '3', 'latest', '1.0.0.0', '1.1', 'toString', '__proto__').map((v) => mutate('unsupported-version', 'header.api-version', { headers: { ...request.headers, 'api-version': v } }, true)));
  // The header overrides the path version, so the path's is only tried without it.
  out.push(
    fc.constantFrom('3.0', '0', '1.1', '10', 'constructor').map((v) => {
      const { 'api-version': _header, ...headers } = request.headers;
      return mutate('unsupported-version', 'path.version', { pathParams: { ...request.pathParams, version: v }, headers }, true);
    }),
  );
  return out;
}
