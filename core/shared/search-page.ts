import { z } from 'zod';

/** Paging fields of a POST search body (DECISIONS: Page 0-based, PageSize 1..100, default 50); JSON numbers, not strings. */
export const ZSearchPage = {
  Page: z.number().int().min(0).default(0).meta({ description: '0-based page index.' }),
  PageSize: z.number().int().min(1).max(100).default(50).meta({ description: 'Items per page, at most 100.' }),
};
