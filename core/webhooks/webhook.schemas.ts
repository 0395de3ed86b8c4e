import { z } from 'zod';
import { ZPathId, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';
import { EVENT_TYPES, eventTypeProblem } from './event-types.js';
import { urlSyntaxProblem } from './target-url.js';

export const WEBHOOK_STATUSES = ['Pending', 'Active'] as const;

/** What `eventTypeProblem` accepts, listed for the document: each type, and `<prefix>.*` for each prefix ending at a dot. */
export const SUBSCRIBABLE_EVENT_TYPES = [
  ...new Set(
    EVENT_TYPES.flatMap(({ Type }) => [
      Type,
      ...Type.split('.')
        .slice(0, -1)
        .map((_, i, parts) => `${parts.slice(0, i + 1).join('.')}.*`),
    ]),
  ),
];

const ZEventTypeName = z
  .string()
  .max(100)
  .superRefine((value, ctx) => {
    const problem = eventTypeProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `"${value}" ${problem}` });
  })
  .meta({ enum: SUBSCRIBABLE_EVENT_TYPES });

/*
 * A part of what `urlSyntaxProblem` accepts, for the document: an http(s) URL of RFC 3986
 * characters with a DNS name (no punycode label, which the URL parser may refuse) or an IPv4
 * address, a port of at most 4 digits, and no credentials. The server takes more (IPv6
 * literals, characters it percent-encodes); a client that keeps to this is never refused.
 */
const URL_CHAR = "(?:%[0-9A-Fa-f]{2}|[A-Za-z0-9._~!$&'()*+,;=:@/-])";
const URL_HOST =
  '(?:(?:(?![Xx][Nn]--)[A-Za-z0-9-]+\\.)*(?![Xx][Nn]--)[A-Za-z][A-Za-z0-9-]*' +
  '|(?:(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d))';
export const WEBHOOK_URL_PATTERN =
  `^[Hh][Tt][Tt][Pp][Ss]?://${URL_HOST}(?::\\d{1,4})?(?:/${URL_CHAR}*)?(?:\\?(?:${URL_CHAR}|\\?)*)?(?:#(?:${URL_CHAR}|\\?)*)?$`;

export const ZWebhookUrl = z
  .string()
  .max(2048)
  .superRefine((value, ctx) => {
    const problem = urlSyntaxProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `The URL ${problem}.` });
  })
  .meta({
    description: 'http or https; in production private, loopback and link-local targets are refused.',
    example: 'https://example.com/hooks/waybill',
    format: 'uri',
    pattern: WEBHOOK_URL_PATTERN,
  });

export const ZWebhook = z
  .object({
    Id: z.string(),
    Name: z.string(),
    Url: z.string(),
    SubsidiaryId: z.string(),
    EventTypes: z.array(z.string()),
    Enabled: z.boolean(),
    Status: z.enum(WEBHOOK_STATUSES).meta({ description: 'Pending until the URL answers a verify challenge, then Active.' }),
    ConsecutiveFailures: z.number().int().meta({ description: 'Failed events since the last success; at 10 the subscription is disabled.' }),
    PreviousSecretExpiresAt: z
      .string()
      .nullable()
      .meta({ description: 'After a rotation the previous secret keeps signing (a second v1 signature) until then.' }),
    CreatedAt: z.string(),
    UpdatedAt: z.string(),
  })
  .meta({ id: 'Webhook' });
export type TWebhook = z.infer<typeof ZWebhook>;

export const ZWebhookWithSecret = ZWebhook.extend({
  Secret: z.string().meta({ description: 'The signing secret (whsec_…), answered only here and by reveal-secret.' }),
}).meta({ id: 'CreatedWebhook' });

export const ZWebhookPage = pageOf(ZWebhook).meta({ id: 'WebhookPage' });

const fields = {
  Name: z.string().trim().min(1).max(200).meta({ pattern: '\\S', description: 'Trimmed; not blank.' }),
  Url: ZWebhookUrl,
  EventTypes: z.array(ZEventTypeName).min(1).max(100).meta({ description: 'Event types or <prefix>.* patterns, 1 to 100.' }),
  Enabled: z.boolean().optional().meta({ description: 'true when absent on create; unchanged when absent on update.' }),
};

export const ZCreateWebhookInput = input({
  ...fields,
  SubsidiaryId: ZPathId.optional().meta({
    description: 'The subsidiary whose events the subscription receives; required for tenant-wide clients, defaults to the client\'s own.',
  }),
});
export const ZUpdateWebhookInput = input({ id: ZPathId, ...fields });
export const ZWebhookIdInput = input({ id: ZPathId });
export const ZFindWebhooksInput = input({ ...ZQueryPage });
export const ZEventTypesInput = input({});

export const ZEventTypeInfo = z.object({ Type: z.string(), Description: z.string() }).meta({ id: 'WebhookEventType' });
export const ZEventTypeList = z.array(ZEventTypeInfo);

export const ZWebhookCreatedHeaders = z.object({ Location: z.string().meta({ description: 'URL of the new subscription.' }) });

export const ZWebhookSecret = z.object({ Secret: z.string() }).meta({ id: 'WebhookSecret' });

export const ZRotatedSecret = z
  .object({
    Secret: z.string(),
    PreviousSecretExpiresAt: z.string().meta({ description: 'Until then deliveries carry a signature with each secret.' }),
  })
  .meta({ id: 'RotatedWebhookSecret' });

export const ZWebhookVerification = z
  .object({
    Verified: z.boolean(),
    Status: z.enum(WEBHOOK_STATUSES),
    HttpStatus: z.number().int().nullable(),
    DurationMs: z.number().int(),
    Reason: z.string().nullable().meta({ description: 'Why the challenge was not answered; null when verified.' }),
  })
  .meta({ id: 'WebhookVerification' });

export const ZTestDelivery = z
  .object({
    DeliveryId: z.string().meta({ description: 'The webhook-id header of the test delivery.' }),
    EventType: z.string(),
  })
  .meta({ id: 'WebhookTestDelivery' });
