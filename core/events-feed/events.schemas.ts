import { z } from 'zod';
import { input } from '../shared/schemas.js';
import { ZQueryInteger } from '../shared/text-integer.js';
import { EVENT_TYPES, eventTypeProblem, matchesEventType, TENANT_WIDE_PREFIX } from '../webhooks/event-types.js';
import { SUBSCRIBABLE_EVENT_TYPES } from '../webhooks/webhook.schemas.js';
import { CURSOR_PATTERN } from './feed-cursor.js';

export const PAGE_SIZE = { min: 1, max: 500 };
export const WAIT_SECONDS = { min: 0, max: 30 };

const escape = (text: string) => text.replace(/[.*]/g, (c) => `\\${c}`);
const TYPE_ITEM = `(?:${SUBSCRIBABLE_EVENT_TYPES.map(escape).join('|')})`;

/** Types: comma-separated catalog types and `<prefix>.*` patterns; answers the types they match. */
const ZTypes = z
  .string()
  .max(4000)
  .superRefine((value, ctx) => {
    for (const item of value.split(',')) {
      const problem = eventTypeProblem(item);
      if (problem) ctx.addIssue({ code: 'custom', message: `"${item}" ${problem}` });
    }
  })
  .transform((value) => {
    const patterns = value.split(',');
    return EVENT_TYPES.map((e) => e.Type as string).filter((type) => matchesEventType(patterns, type));
  })
  .meta({
    description:
      'Only these event types: comma-separated types of GET /webhooks/event-types, or `<prefix>.*` for every type starting with `<prefix>.` ' +
      '(`trip.*,customer.deleted`). An unknown type is a 400 naming Types.',
    pattern: `^${TYPE_ITEM}(?:,${TYPE_ITEM})*$`,
    example: 'trip.*,customer.deleted',
  });

export const ZListEventsInput = input({
  After: z
    .string()
    .max(12)
    .optional()
    .meta({
      description:
        "A previous page's NextCursor: the page holds the events after it. Without it, the page starts at the oldest retained event. " +
        'Opaque; text that is not a cursor, or one this server never answered, is a 400 naming After; a cursor older than the oldest ' +
        "retained event (events are kept 30 days) is 410 Gone. A cursor is a position in the feed and means the same for every client of the tenant.",
      pattern: CURSOR_PATTERN,
    }),
  Types: ZTypes.optional(),
  PageSize: ZQueryInteger(PAGE_SIZE, 100).meta({ description: 'Events per page, 1 to 500 (default 100).' }),
  Wait: ZQueryInteger(WAIT_SECONDS, 0).meta({
    description:
      'Seconds, 0 to 30 (default 0): when the page would be empty because the feed has nothing after the cursor, the answer waits ' +
      'for the first event to arrive, or answers the empty page once the time is up.',
  }),
});

export type TListEventsInput = z.output<typeof ZListEventsInput>;

/** The types a subsidiary-bound client receives whatever the record's subsidiary (as deliveries route them). */
export const TENANT_WIDE_TYPES: readonly string[] = EVENT_TYPES.map((e) => e.Type as string).filter((type) => type.startsWith(TENANT_WIDE_PREFIX));

export const ZFeedEvent = z
  .object({
    id: z.string().meta({ description: "The event's id: the same in every page that holds it, never another event's. Deduplicate on it." }),
    type: z.string().meta({ description: 'The event type (GET /webhooks/event-types).' }),
    timestamp: z.string().meta({ description: 'When the change happened (UTC), as in webhook deliveries.' }),
    data: z.unknown().meta({ description: 'The event data, exactly as webhook deliveries carry it.' }),
  })
  .meta({ id: 'FeedEvent', description: 'One event, in the envelope of a webhook delivery body, with its id.' });

export const ZEventPage = z
  .object({
    Items: z.array(ZFeedEvent).meta({ description: 'Events in the order they were committed; fewer than PageSize does not mean none follow.' }),
    NextCursor: z.string().meta({
      description: 'Where the next page starts; never null. Send it as After to continue, also after an empty page.',
      pattern: CURSOR_PATTERN,
    }),
  })
  .meta({ id: 'EventPage' });
