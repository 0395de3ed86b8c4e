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

/** Paging query (DECISIONS: Page 0-based, PageSize 1..100, default 50). */
export const ZPage = {
  Page: z.coerce.number().int().min(0).default(0).meta({ description: '0-based page index.' }),
  PageSize: z.coerce.number().int().min(1).max(100).default(50).meta({ description: 'Items per page, at most 100.' }),
};

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    Items: z.array(item),
    Page: z.number().int(),
    PageSize: z.number().int(),
    Total: z.number().int(),
  });
}

/** A path parameter: arrives URL-decoded from the adapter, never empty. */
export const ZPathId = z.string().min(1).max(200);
