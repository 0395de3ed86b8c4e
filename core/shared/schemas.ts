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
