import { generateOpenApiDocument } from 'trpc-to-openapi';
import type { AnyTRPCRouter } from '@trpc/server';
import type { z } from 'zod';
import { SCOPES } from '../../core/auth/scopes.js';
import type { Config } from '../../core/config.js';
import { bodyRules } from '../../core/shared/schemas.js';
import { PAGE_WITH_CURSOR_RULE } from '../../core/shared/search-page.js';
import type { RawTextBody } from '../../core/trpc.js';
import type { Route } from './routes.js';
import { OPENAPI_TAGS } from './openapi-tags.js';
import { addWebhooks } from './openapi-webhooks.js';
import { MAX_UPLOAD_BYTES, UPLOAD_CONTENT_TYPES } from '../../core/documents/uploaded-file.js';
import { endpointRuleFor, tenantRule, tokenRule } from '../http/rate-rules.js';
import { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN, isStoredOutcome } from './idempotency-key.js';
import { HEADER_VERSIONS, PATH_VERSIONS, SUPPORTED_VERSIONS } from './versions.js';

type Json = Record<string, any>;

const JSON_MEDIA_TYPES = ['application/json', 'text/json', 'application/*+json', 'application/json-patch+json'];

const problemSchema: Json = {
  type: 'object',
  description: 'Problem details. `Type` is `{base_url}/errors/<Category>[/<Code>]`.',
  properties: {
    Type: { type: ['string', 'null'] },
    Title: { type: ['string', 'null'] },
    Status: { type: 'integer' },
    Detail: { type: ['string', 'null'] },
    Instance: { type: ['string', 'null'] },
  },
  required: ['Type', 'Title', 'Status', 'Detail', 'Instance'],
  additionalProperties: true,
};

const validationProblemSchema: Json = {
  allOf: [
    { $ref: '#/components/schemas/Problem' },
    {
      type: 'object',
      properties: {
        Errors: {
          type: 'object',
          description: 'Field path (PascalCase, dotted, `[i]` for array items) to messages.',
          additionalProperties: { type: 'array', items: { type: 'string' } },
        },
      },
      required: ['Errors'],
    },
  ],
};

/** The version 400 of the edge (steps/version.ts): no Errors, the versions it serves instead. */
const unsupportedVersionProblemSchema: Json = {
  allOf: [
    { $ref: '#/components/schemas/Problem' },
    {
      type: 'object',
      properties: {
        SupportedVersions: { type: 'array', items: { type: 'string', enum: [...SUPPORTED_VERSIONS] } },
      },
      required: ['SupportedVersions'],
      not: { required: ['Errors'] },
    },
  ],
};

/** A 400 is one of the two; `Errors` or `SupportedVersions` tells them apart. */
const badRequestProblemSchema: Json = {
  description: 'A validation problem (with `Errors`) or an unsupported API version (with `SupportedVersions`).',
  oneOf: [{ $ref: '#/components/schemas/ValidationProblem' }, { $ref: '#/components/schemas/UnsupportedApiVersionProblem' }],
};

const errorDescriptions: Record<number, string> = {
  400: 'Validation failure, or an unsupported API version (`UnsupportedApiVersion`).',
  401: 'Missing or invalid access token.',
  403: 'The token lacks the required scope.',
  404: 'The record does not exist, is deleted, or is outside the credential\'s scope.',
  405: 'The method is not allowed on this path (see `Allow`).',
  409: 'The request conflicts with the current state.',
  410: 'The link has expired.',
  412: 'If-Match does not match the current version.',
  413: 'The request body is too large.',
  415: 'The request body media type is not supported.',
  422: 'The request is understood but refused.',
  428: 'If-Match is required.',
  429: 'Rate limit exceeded; wait `Retry-After` seconds.',
  503: 'The write could not be confirmed.',
};

const standardErrors = [400, 401, 403, 404, 429];
const bodyErrors = [413, 415];

function problemResponse(status: number): Json {
  const schema = status === 400 ? 'BadRequestProblem' : 'Problem';
  const headers: Json = { ...everyResponseHeaders };
  if (status === 429) headers['Retry-After'] = { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait.' };
  if (status === 401) headers['WWW-Authenticate'] = { schema: { type: 'string' } };
  if (status === 405) headers.Allow = { schema: { type: 'string' } };
  return {
    description: errorDescriptions[status] ?? 'Error.',
    ...(Object.keys(headers).length ? { headers } : {}),
    content: { 'application/problem+json': { schema: { $ref: `#/components/schemas/${schema}` } } },
  };
}

/** Every POST under /api/p/ (adapters/rest/idempotency-key.ts). */
const idempotencyKeyParameter: Json = {
  in: 'header',
  name: IDEMPOTENCY_KEY_HEADER,
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
  description:
    'Makes the POST safe to retry. 1 to 255 visible ASCII characters (0x21 to 0x7E); otherwise 400 naming ' +
    '`Idempotency-Key`. A key belongs to the client application: the same key with the same method, path and ' +
    'body within 24 hours answers the first status, body and Location, ETag and Content-Type headers again, with ' +
    '`Idempotent-Replayed: true`, without running the request. Kept answers: 2xx and the 4xx the request itself ' +
    'caused (400, 404, 409, 412, 422, ...); not kept, so a retry runs again: 401, 403, 408, 429, 5xx, and answers ' +
    'to a body that could not be read (413, 415, malformed JSON). Checked ' +
    'after authentication, rate limit and scope. Keys expire 24 hours after their first request. Independent of ' +
    'ExternalId and (Source, TransactionId) keys, which keep their own rules; a key replay answers first.',
};

const idempotentReplayedHeader: Json = {
  schema: { type: 'string', const: 'true' },
  description: 'Present on a replay of an earlier answer (Idempotency-Key or ExternalId).',
};

const IDEMPOTENCY_CONFLICTS =
  '`Conflict/IdempotencyKeyReuse`: the Idempotency-Key was used with another method, path or body. ' +
  '`Conflict/RequestInProgress`: a request with this Idempotency-Key is still running; retry later.';

/** Headers of every answer under /api/p/ (the version and rate ones once the edge got that far). */
const everyResponseHeaders: Json = {
  'api-version': { schema: { type: 'string', enum: [...SUPPORTED_VERSIONS] }, description: 'The version that served the request.' },
  'api-supported-versions': { schema: { type: 'string' }, description: 'The versions served, comma-separated.' },
  'X-Request-Id': { schema: { type: 'string' }, description: "The caller's X-Request-Id when safe to echo, else a new one." },
  RateLimit: { schema: { type: 'string' }, description: 'IETF RateLimit header field.' },
  'RateLimit-Policy': { schema: { type: 'string' } },
  'Cache-Control': { schema: { type: 'string', const: 'no-store' } },
};

/**
 * The OpenAPI 3.1 document: trpc-to-openapi builds paths and schemas from the procedures,
 * then this makes the parts it cannot know true: success statuses, the four request media
 * types, problem+json errors, OAuth 2.0 client-credentials security with each operation's
 * scopes (or a pasted bearer token), rate rules, the response headers every operation sends,
 * the tag order of the reference page, license and contact, and the `webhooks` section.
 */
/**
 * `tokenDocumentPath` is where the token host serves its own document (adapters/auth): the
 * composition root passes it, as REST does not import the token host.
 */
export function buildOpenApiDocument(router: AnyTRPCRouter, routes: Route[], config: Config, tokenDocumentPath: string): Json {
  const doc: Json = generateOpenApiDocument(router, {
    title: 'Waybill Freight Operations API',
    description:
      'Loads, trips, stops, documents, references, carriers, assets, settlements and webhooks. ' +
      `Get a token with the client-credentials grant at ${config.publicAuthUrl}/oauth/token ` +
      `(audience ${config.audience}) and send it as \`Authorization: Bearer <token>\`.`,
    version: '1.0',
    baseUrl: config.publicBaseUrl,
    securitySchemes: {},
  });

  const tokenDocument = `${config.publicAuthUrl}${tokenDocumentPath}`;
  doc.info.license = { name: 'MIT', identifier: 'MIT' };
  doc.info.contact = { name: 'The Waybill authors', url: `${config.publicBaseUrl}/docs` };
  doc.externalDocs = { description: 'The token host: POST /oauth/token and the JWKS, in their own OpenAPI document', url: tokenDocument };
  doc.tags = OPENAPI_TAGS.map((tag) =>
    tag.name === 'Authentication' ? { ...tag, externalDocs: { description: 'Token host OpenAPI document', url: tokenDocument } } : { ...tag },
  );

  doc.components ??= {};
  const schemas: Json = (doc.components.schemas ??= {});
  for (const name of Object.keys(schemas)) if (name.startsWith('error.')) delete schemas[name];
  schemas.Problem = problemSchema;
  schemas.ValidationProblem = validationProblemSchema;
  schemas.UnsupportedApiVersionProblem = unsupportedVersionProblemSchema;
  schemas.BadRequestProblem = badRequestProblemSchema;
  doc.components.securitySchemes = {
    oauth2: {
      type: 'oauth2',
      description:
        `OAuth 2.0 client credentials; the access token is an ES256 JWT. The token request needs \`audience\` = \`${config.audience}\`; ` +
        'the token always carries every scope granted to the client (a `scope` parameter only checks). ' +
        `The token endpoint is described in its own document: ${tokenDocument}.`,
      flows: {
        clientCredentials: {
          tokenUrl: `${config.publicAuthUrl}/oauth/token`,
          scopes: Object.fromEntries(SCOPES.map((scope) => [scope, scope])),
        },
      },
    },
    bearerAuth: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'An access token from the token host, pasted as it is; it needs the scopes the operation names.',
    },
  };

  for (const route of routes) {
    const operation: Json | undefined = doc.paths?.[route.template]?.[route.method.toLowerCase()];
    if (!operation) continue;
    const scopes = route.meta.scopes ?? [];
    // Either scheme: the same token, fetched by the client or pasted (the reference page offers both).
    operation.security = [{ oauth2: scopes }, { bearerAuth: [] }];
    if (scopes.length) operation.description = [operation.description, `Requires scope: ${scopes.join(', ')}.`].filter(Boolean).join('\n\n');

    for (const parameter of operation.parameters ?? []) {
      if (parameter.in === 'path') parameter.required = true;
      if (parameter.in === 'path' && parameter.name === 'version') {
        parameter.schema = { type: 'string', enum: PATH_VERSIONS, default: '1.0' };
      }
    }
    operation.parameters = [
      ...(operation.parameters ?? []),
      {
        in: 'header',
        name: 'api-version',
        required: false,
        schema: { type: 'string', enum: HEADER_VERSIONS },
        description: 'Overrides the path version (empty: no override).',
      },
    ];

    const success = String(route.meta.successStatus ?? 200);
    const responses: Json = {};
    const ok = operation.responses?.['200'];
    if (ok) responses[success] = { ...ok, headers: { ...everyResponseHeaders, ...(ok.headers ?? {}) } };
    const streamed = route.meta.streamedResponse;
    if (ok && streamed) {
      responses[success].content = Object.fromEntries(Object.entries(streamed).map(([type, schema]) => [type, { schema }]));
      responses[success].headers['Content-Disposition'] = {
        schema: { type: 'string' },
        description: 'attachment, with the file name.',
      };
    }
    // A 204 has no body (RFC 9110); the adapter sends none.
    if (ok && success === '204') delete responses[success].content;

    const upload = route.meta.upload;
    if (upload) operation.requestBody = multipartBody(upload.documentTypes);
    const rawText = route.meta.rawText;
    if (rawText) operation.requestBody = rawTextBody(rawText);
    const body = upload || rawText ? undefined : operation.requestBody?.content?.['application/json'];
    if (body) {
      const schema = resolve(doc, body.schema);
      Object.assign(schema, bodyRulesOf(router, route));
      if (schema.properties?.Cursor && schema.properties?.Page) schema.allOf = [...(schema.allOf ?? []), PAGE_WITH_CURSOR_RULE];
      operation.requestBody.required = route.expectsBody;
      operation.requestBody.content = Object.fromEntries(JSON_MEDIA_TYPES.map((type) => [type, body]));
    }
    const idempotent = route.method === 'POST';
    if (idempotent) {
      operation.parameters.push(idempotencyKeyParameter);
      if (responses[success]) responses[success].headers['Idempotent-Replayed'] = idempotentReplayedHeader;
    }
    const statuses = new Set<number>([...standardErrors, ...(body || upload || rawText ? bodyErrors : []), ...declaredErrors(route), ...(idempotent ? [409] : [])]);
    for (const status of [...statuses].sort()) responses[String(status)] = problemResponse(status);
    if (idempotent) {
      responses['409'].description = `${responses['409'].description} ${IDEMPOTENCY_CONFLICTS}`;
      for (const status of [...statuses].filter((status) => isStoredOutcome(status) && !bodyErrors.includes(status))) {
        responses[String(status)].headers = { ...responses[String(status)].headers, 'Idempotent-Replayed': idempotentReplayedHeader };
      }
    }
    operation.responses = responses;

    const endpointRule = endpointRuleFor(route.method, route.template);
    operation['x-rate-limit'] = endpointRule
      ? { perMinute: endpointRule.points, blockSeconds: endpointRule.blockSeconds, per: 'client' }
      : { perSecondPerToken: tokenRule.points, perSecondPerTenant: tenantRule.points };
  }
  addWebhooks(doc);
  return doc;
}

/**
 * The request body of a document upload (core `meta.upload`), which trpc-to-openapi cannot
 * express: `multipart/form-data` with the binary `File` part and the `DocumentType` part. The
 * edge (adapters/rest/multipart-upload.ts) enforces every rule stated here.
 */
function multipartBody(documentTypes: readonly string[]): Json {
  return {
    required: true,
    description: 'The file and its document type. Parts other than these two are 400.',
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['File', 'DocumentType'],
          additionalProperties: false,
          properties: {
            File: {
              type: 'string',
              format: 'binary',
              maxLength: MAX_UPLOAD_BYTES,
              description:
                'The file, with a file name (at most 255 characters, kept with a timestamp suffix as AttachmentPath). ' +
                'PDF, JPEG or PNG, decided from its bytes alone (the declared type and the name are ignored; anything else 415); at most 10 MiB (413).',
            },
            DocumentType: {
              type: 'string',
              enum: [...documentTypes],
              description: 'The document type; matched case-insensitively and stored in this casing.',
            },
          },
        },
        encoding: {
          File: { contentType: UPLOAD_CONTENT_TYPES.join(', ') },
          DocumentType: { contentType: 'text/plain' },
        },
      },
    },
  };
}

/**
 * The request body of a raw text route (core `meta.rawText`), which trpc-to-openapi would show
 * as a JSON object: the text itself, in each of its media types. The edge
 * (adapters/rest/raw-text-body.ts) enforces every rule stated here.
 */
function rawTextBody(rule: RawTextBody): Json {
  const schema = { type: 'string', minLength: rule.minLength ?? 1, maxLength: rule.limit, ...(rule.pattern ? { pattern: rule.pattern } : {}), description: rule.description };
  return {
    required: true,
    description: `${rule.description} Any charset parameter is accepted and the body is read as UTF-8 (bytes that are not UTF-8: 400); other media types 415; more than ${rule.limit} bytes 413.`,
    content: Object.fromEntries(rule.contentTypes.map((type) => [type, { schema }])),
  };
}

function resolve(doc: Json, schema: Json): Json {
  const ref: unknown = schema.$ref;
  return typeof ref === 'string' ? resolve(doc, doc.components.schemas[ref.split('/').pop()!]) : schema;
}

/**
 * What the input checks of the body as a whole, which trpc-to-openapi loses when it rebuilds
 * a refined input from its shape: a strict object refuses unknown properties, and refinements
 * registered in `bodyRules` (at least one field of an update, one of two ids).
 */
function bodyRulesOf(router: AnyTRPCRouter, route: Route): Json {
  const procedure = (router._def.procedures as Record<string, { _def: { inputs: unknown[] } }>)[route.procedurePath];
  const input = procedure?._def.inputs[0] as z.ZodType | undefined;
  if (!input) return {};
  const def = input._zod.def as { type: string; catchall?: z.ZodType };
  const strict = def.type === 'object' && def.catchall?._zod.def.type === 'never';
  return { ...(strict ? { additionalProperties: false } : {}), ...(bodyRules.get(input) ?? {}) };
}

function declaredErrors(route: Route): number[] {
  const declared = route.meta.openapi?.errorResponses;
  if (!declared) return [];
  return Array.isArray(declared) ? declared : Object.keys(declared).map(Number);
}
