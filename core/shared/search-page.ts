import { z } from 'zod';
import type { Context, Principal } from '../trpc.js';

/**
 * The paging fields of every list and search (DECISIONS: Page 0-based, PageSize 1..100,
 * default 50), and the page they answer. GET takes them as query parameters (text, coerced),
 * POST search as body fields (JSON numbers); both come from `pageNumbers`.
 */
function pageNumbers(number: () => z.ZodNumber) {
  return {
    Page: number().int().min(0).default(0).meta({ description: '0-based page index. Must be 0 or absent with a Cursor.' }),
    PageSize: number().int().min(1).max(100).default(50).meta({ description: 'Items per page, at most 100.' }),
  };
}

const CURSOR_DESCRIPTION =
  "Keyset paging, for walking a whole list: a previous page's NextCursor. The page is then the PageSize items " +
  'after that position in the list, however the list changed since, and Page must be 0 or absent. The cursor holds ' +
  'only the position, not the filters: send the same filters with it as with the page that gave it. Opaque; a ' +
  "cursor of another list, or one that was altered, is a 400 naming Cursor.";

const ZCursor = z.string().min(1).max(512).meta({ description: CURSOR_DESCRIPTION });

/** Page and PageSize of a query string, without a cursor (the delivery-log export counts pages). */
export const ZQueryPaging = pageNumbers(() => z.coerce.number<number>());

/** Paging of a GET list. */
export const ZQueryPage = { ...ZQueryPaging, Cursor: ZCursor.optional() };

/** Paging of a POST search body; a null Cursor is the same as none. */
export const ZSearchPage = { ...pageNumbers(() => z.number()), Cursor: ZCursor.nullish() };

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
