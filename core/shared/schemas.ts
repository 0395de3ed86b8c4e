import { z } from 'zod';

/**
 * Every REST path starts with /api/p/v{version}/, so every input carries `version`. The REST
 * adapter checks it before anything else; internal callers may leave it out.
 */
export const ZVersion = z
  .string()
  .default('1.0')
  .meta({ description: 'API version: 1, 1.0, 1.0.0 (2.0 is an alias of 1.0).', example: '1.0' });

/** An input object: strict, so an unknown property is a 400 naming it. */
export function input<S extends z.ZodRawShape>(shape: S) {
  return z.strictObject({ version: ZVersion, ...shape });
}

/** A path parameter: arrives URL-decoded from the adapter, never empty. */
export const ZPathId = z.string().min(1).max(200);

/**
 * Rules of a whole request body that an input checks in a refinement, stated in JSON Schema
 * for the OpenAPI document. trpc-to-openapi rebuilds a refined input's body from its shape and
 * drops them; the REST adapter adds them back from this registry.
 */
export interface BodyRules {
  minProperties?: number;
  anyOf?: Array<Record<string, unknown>>;
  oneOf?: Array<Record<string, unknown>>;
  allOf?: Array<Record<string, unknown>>;
}
export const bodyRules = z.registry<BodyRules>();

/** An update that must change something: at least one of `fields` present. */
export function atLeastOneOf(fields: readonly string[]): BodyRules {
  return { minProperties: 1, anyOf: fields.map((field) => ({ required: [field] })) };
}

/** Exactly one of two fields holding a string, the other absent or null. */
export function exactlyOneOf(first: string, second: string): BodyRules {
  const only = (present: string, absent: string) => ({
    required: [present],
    properties: { [present]: { type: 'string' }, [absent]: { type: 'null' } },
  });
  return { oneOf: [only(first, second), only(second, first)] };
}

/**
 * An array's first item has `value` in `field` (a route starts with its Pickup), for the array's
 * meta. Inside an allOf: beside `prefixItems` in the array's own schema, `items` would no longer
 * apply to the first item.
 */
export function firstItemHas(field: string, value: string): { allOf: Array<Record<string, unknown>> } {
  return { allOf: [{ prefixItems: [{ properties: { [field]: { const: value } } }] }] };
}

/** The alternation of `values`, letters in any case, unanchored. */
export function caseInsensitiveAlternation(values: readonly string[]): string {
  const one = (value: string) =>
    [...value]
      .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')))
      .join('');
  return `(?:${values.map(one).join('|')})`;
}

/** A pattern matching exactly `values`, letters in any case (for inputs matched case-insensitively). */
export function caseInsensitivePattern(values: readonly string[]): string {
  return `^${caseInsensitiveAlternation(values)}$`;
}
