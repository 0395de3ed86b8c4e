import { z } from 'zod';
import type { Context, Principal } from '../trpc.js';
import { ZQueryInteger } from './text-integer.js';

/**
 * The paging fields of every list and search (docs/api-rules.md#paging: Page 0-based, PageSize 1..100,
 * default 50), and the page they answer. GET takes them as query parameters (canonical
 * integer text, `ZQueryInteger`), POST search as body fields (JSON integers); both share
 * `PAGE` and `PAGE_SIZE`.
 */
const PAGE = { min: 0, max: Number.MAX_SAFE_INTEGER };
const PAGE_SIZE = { min: 1, max: 100 };
const PAGE_DESCRIPTION = { description: '0-based page index. Must be 0 or absent with a Cursor.' };
const PAGE_SIZE_DESCRIPTION = { description: 'Items per page, at most 100.' };

const CURSOR_DESCRIPTION =
  "Keyset paging, for walking a whole list: a previous page's NextCursor. The page is then the PageSize items " +
  'after that position in the list, however the list changed since, and Page must be 0 or absent. The cursor holds ' +
  'only the position, not the filters: send the same filters with it as with the page that gave it. Opaque; a ' +
  "cursor of another list, or one that was altered, is a 400 naming Cursor.";

// Cursors are base64url (select-page.ts); other text is never one.
const ZCursor = z.string().min(1).max(512).meta({ description: CURSOR_DESCRIPTION, pattern: '^[A-Za-z0-9_-]+$' });

/**
 * The rule of a search body the paging helper checks after validation (select-page.ts): with a
 * Cursor, Page is 0 or absent. The REST adapter adds it to every body with both fields.
 */
export const PAGE_WITH_CURSOR_RULE = {
  if: { required: ['Cursor'], properties: { Cursor: { type: 'string' } } },
  then: { properties: { Page: { const: 0 } } },
};

/** Page and PageSize of a query string, without a cursor (the delivery-log export counts pages). */
export const ZQueryPaging = {
  Page: ZQueryInteger(PAGE, 0).meta(PAGE_DESCRIPTION),
  PageSize: ZQueryInteger(PAGE_SIZE, 50).meta(PAGE_SIZE_DESCRIPTION),
};

/** Paging of a GET list. */
export const ZQueryPage = { ...ZQueryPaging, Cursor: ZCursor.optional() };

/** Paging of a POST search body; a null Cursor is the same as none. */
export const ZSearchPage = {
  Page: z.number().int().min(PAGE.min).max(PAGE.max).default(0).meta(PAGE_DESCRIPTION),
  PageSize: z.number().int().min(PAGE_SIZE.min).max(PAGE_SIZE.max).default(50).meta(PAGE_SIZE_DESCRIPTION),
  Cursor: ZCursor.nullish(),
};

/** What a list's repository function needs of the paging fields, GET or POST. */
export type TPageRequest = z.output<z.ZodObject<typeof ZSearchPage>>;

/** One page of a list as a repository returns it. */
export interface PageOf<T> {
  items: T[];
  total: number;
  /** Continues after the last item; null when nothing follows. */
  nextCursor: string | null;
}

export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({
    Items: z.array(item),
    Page: z.number().int(),
    PageSize: z.number().int(),
    Total: z.number().int().meta({ description: 'Items in the whole filtered list, on every page.' }),
    NextCursor: z.string().nullable().meta({
      description:
        'Send it as Cursor, with the same filters, for the items after this page (keyset paging: items that stay in ' +
        'the list are neither skipped nor repeated when others are added or removed meanwhile). null when this page ' +
        'is the last.',
    }),
  });
}

/** The answer of a list or search: its page in the API's shape. */
export function answerPage<T>(request: TPageRequest, page: PageOf<T>) {
  return { Items: page.items, Page: request.Page, PageSize: request.PageSize, Total: page.total, NextCursor: page.nextCursor };
}

/** What the resolver of a list needs of a call; GET and POST search twins share one resolver. */
export interface ListCall<I> {
  ctx: Pick<Context, 'db'> & { principal: Principal };
  input: I;
}
