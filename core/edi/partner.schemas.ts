import { z } from 'zod';
import { ZText } from '../shared/money-input.js';
import { ZPathId, atLeastOneOf, bodyRules, input } from '../shared/schemas.js';
import { ZQueryPage, pageOf } from '../shared/search-page.js';
import { ZWebhookUrl } from '../webhooks/webhook.schemas.js';

/** The sets a partner may exchange with us (docs/edi.md#trading-partners). */
export const PARTNER_TRANSACTIONS = ['204', '990', '214', '210'] as const;
export const USAGE_INDICATORS = ['P', 'T'] as const;
export const PARTNER_STATUSES = ['Active', 'Inactive'] as const;

/*
 * X12 basic character set (upper-case letters, digits, space and `! " & ' ( ) + , - . / : ; ? =`)
 * less `*`, which is our element separator; `>` and `~`, our other separators, are not in it.
 * Ids are stored and shown trimmed, so they neither start nor end with a space.
 */
const X12_CHAR = `A-Z0-9!"&'()+,\\-./:;?=`;
const x12Id = (min: number, max: number) => `^(?=.{${min},${max}}$)[${X12_CHAR}](?:[${X12_CHAR} ]*[${X12_CHAR}])?$`;
const ISA_ID_PATTERN = x12Id(1, 15);
const GS_ID_PATTERN = x12Id(2, 15);

const ZIsaQualifier = z
  .string()
  .regex(/^[A-Z0-9]{2}$/)
  .meta({ description: 'ISA05/ISA07: two upper-case letters or digits (e.g. 01 DUNS, 02 SCAC, 12 phone, ZZ mutually defined).', pattern: '^[A-Z0-9]{2}$', example: 'ZZ' });
const ZIsaId = z
  .string()
  .min(1)
  .max(15)
  .regex(new RegExp(ISA_ID_PATTERN))
  .meta({
    description: 'ISA06/ISA08: 1 to 15 characters of the X12 basic set (upper case, no `*`), no leading or trailing space; padded to 15 on output documents.',
    pattern: ISA_ID_PATTERN,
    example: 'ACMESHIP',
  });
const ZGsId = z
  .string()
  .min(2)
  .max(15)
  .regex(new RegExp(GS_ID_PATTERN))
  .meta({ description: 'GS02/GS03: 2 to 15 characters of the X12 basic set (upper case, no `*`).', pattern: GS_ID_PATTERN, example: 'ACMESHIP' });
const ZScac = z.string().regex(/^[A-Z]{2,4}$/).meta({ description: 'Standard Carrier Alpha Code: 2 to 4 upper-case letters.', pattern: '^[A-Z]{2,4}$', example: 'WYBL' });

const ZTransactions = z
  .array(z.enum(PARTNER_TRANSACTIONS))
  .min(1)
  .max(PARTNER_TRANSACTIONS.length)
  .refine((sets) => new Set(sets).size === sets.length, { message: 'Each set may be listed once.' })
  .meta({
    description: 'The sets exchanged with the partner: 204 (tenders it sends), 990, 214, 210 (documents we send). At least one, each once.',
    uniqueItems: true,
  });

const ZOutboundUrl = ZWebhookUrl.meta({
  description:
    'Where outbound documents are POSTed (Content-Type application/edi-x12, Standard Webhooks headers signed with the partner Secret). ' +
    'http or https; in production private, loopback and link-local targets are refused. Without one the partner polls the mailbox.',
});

const ZTheir = z.strictObject({ IsaQualifier: ZIsaQualifier, IsaId: ZIsaId, GsId: ZGsId });
const ZOur = z.strictObject({ IsaQualifier: ZIsaQualifier, IsaId: ZIsaId, GsId: ZGsId, Scac: ZScac });

export const ZEdiPartner = z
  .object({
    Id: z.string(),
    Name: z.string(),
    CustomerId: z.string(),
    Their: z
      .object({ IsaQualifier: z.string(), IsaId: z.string(), GsId: z.string() })
      .meta({ description: "The partner's ids: ISA05/ISA06 and GS02 of what it sends, ISA07/ISA08 and GS03 of what we send it." }),
    Our: z
      .object({ IsaQualifier: z.string(), IsaId: z.string(), GsId: z.string(), Scac: z.string() })
      .meta({ description: 'Our ids towards the partner, and the SCAC our documents carry.' }),
    Transactions: z.array(z.enum(PARTNER_TRANSACTIONS)),
    OutboundUrl: z.string().nullable(),
    UsageIndicator: z.enum(USAGE_INDICATORS).meta({ description: 'ISA15 of our documents: P production, T test.' }),
    Status: z.enum(PARTNER_STATUSES).meta({ description: 'An Inactive partner can send nothing and is sent nothing (its documents stay in the mailbox).' }),
    CreatedAt: z.string(),
    UpdatedAt: z.string(),
  })
  .meta({ id: 'EdiPartner' });
export type TEdiPartner = z.infer<typeof ZEdiPartner>;

export const ZCreatedEdiPartner = ZEdiPartner.extend({
  Secret: z.string().meta({ description: 'The secret (whsec_…) that signs outbound deliveries, answered only here.' }),
}).meta({ id: 'CreatedEdiPartner' });

export const ZEdiPartnerPage = pageOf(ZEdiPartner).meta({ id: 'EdiPartnerPage' });

export const ZCreateEdiPartnerInput = input({
  Name: ZText(200),
  CustomerId: ZPathId.meta({ description: 'The shipper; the partner belongs to its subsidiary.' }),
  Their: ZTheir,
  Our: ZOur,
  Transactions: ZTransactions,
  OutboundUrl: ZOutboundUrl.nullish(),
  UsageIndicator: z.enum(USAGE_INDICATORS),
  Status: z.enum(PARTNER_STATUSES).optional().meta({ description: 'Active when absent.' }),
});
export type TCreateEdiPartnerInput = z.output<typeof ZCreateEdiPartnerInput>;

const PATCH_FIELDS = ['Name', 'CustomerId', 'Their', 'Our', 'Transactions', 'OutboundUrl', 'UsageIndicator', 'Status'] as const;

export const ZUpdateEdiPartnerInput = input({
  id: ZPathId,
  Name: ZText(200).optional(),
  CustomerId: ZPathId.optional(),
  Their: ZTheir.partial().optional().meta({ description: 'Merged into the current ids: members left out keep their values.' }),
  Our: ZOur.partial().optional().meta({ description: 'Merged into the current ids: members left out keep their values.' }),
  Transactions: ZTransactions.optional(),
  OutboundUrl: ZOutboundUrl.nullable().optional().meta({ description: 'null removes it: the partner then polls the mailbox.' }),
  UsageIndicator: z.enum(USAGE_INDICATORS).optional(),
  Status: z.enum(PARTNER_STATUSES).optional(),
})
  .superRefine((value, ctx) => {
    if (PATCH_FIELDS.every((field) => value[field] === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: `Send at least one of ${PATCH_FIELDS.join(', ')}.` });
    }
  })
  .register(bodyRules, atLeastOneOf(PATCH_FIELDS));
export type TUpdateEdiPartnerInput = z.output<typeof ZUpdateEdiPartnerInput>;

export const ZEdiPartnerIdInput = input({ id: ZPathId });
export const ZFindEdiPartnersInput = input({ ...ZQueryPage });
