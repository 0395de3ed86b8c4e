import { SCOPES } from '../../core/auth/scopes.js';
import type { Config } from '../../core/config.js';

type Json = Record<string, any>;

export const TOKEN_HOST_DOCUMENT_PATH = '/openapi.json';

const oauthError: Json = {
  type: 'object',
  description: 'RFC 6749 5.2 error body. Descriptions are fixed texts and never repeat a credential.',
  properties: {
    error: {
      type: 'string',
      enum: ['invalid_request', 'access_denied', 'unsupported_grant_type', 'invalid_target', 'invalid_scope', 'too_many_requests', 'method_not_allowed', 'not_found', 'server_error'],
    },
    error_description: { type: 'string' },
  },
  required: ['error', 'error_description'],
  additionalProperties: false,
};

const noStore: Json = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } };

function errorResponse(description: string, extraHeaders: Json = {}): Json {
  return {
    description,
    headers: { ...noStore, ...extraHeaders },
    content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
  };
}

/**
 * The token host's own OpenAPI 3.1 document (docs/api-rules.md#authentication-and-scope): the token request
 * in both media types with HTTP Basic as the alternative client authentication, each status
 * with its OAuth error, and the JWKS. The API host's document links here.
 */
export function buildTokenHostDocument(config: Config): Json {
  const tokenRequest: Json = {
    type: 'object',
    properties: {
      grant_type: { type: 'string', const: 'client_credentials' },
      client_id: { type: 'string', minLength: 1, description: 'Leave out when sent with HTTP Basic.' },
      client_secret: { type: 'string', minLength: 1, description: 'Leave out when sent with HTTP Basic. Never put it in front-end code.' },
      audience: { type: 'string', const: config.audience, description: 'The API audience; any other value is 400 `invalid_target`.' },
      scope: {
        type: 'string',
        description:
          'Space-delimited; optional and non-narrowing: the token always carries every scope granted to the client, ' +
          'and naming a scope the client was not granted is 400 `invalid_scope`. Catalog: ' + SCOPES.join(' ') + '.',
      },
    },
    required: ['grant_type', 'audience'],
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Waybill token host',
      version: '1.0',
      description:
        'OAuth 2.0 client credentials for the Waybill Freight Operations API. Cache a token for `expires_in` seconds: ' +
        'the endpoint allows 30 requests a minute per client.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: config.publicAuthUrl }],
    externalDocs: { description: 'The API the tokens are for', url: `${config.publicBaseUrl}/openapi.json` },
    paths: {
      '/oauth/token': {
        post: {
          operationId: 'requestToken',
          summary: 'Request an access token (client credentials)',
          security: [{}, { clientBasic: [] }],
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/TokenRequest' } },
              'application/json': { schema: { $ref: '#/components/schemas/TokenRequest' } },
            },
          },
          responses: {
            '200': {
              description: 'An ES256 JWT with the claims iss, sub, aud, azp, scope, exp, iat, jti, tid and (subsidiary-bound clients) sid.',
              headers: noStore,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/TokenResponse' } } },
            },
            '400': errorResponse('`invalid_request` (missing field, malformed body), `unsupported_grant_type`, `invalid_target` (audience) or `invalid_scope`.'),
            '401': errorResponse('`access_denied`: wrong client id or secret.', {
              'WWW-Authenticate': { schema: { type: 'string' }, description: 'Sent when the client authenticated with HTTP Basic.' },
            }),
            '405': errorResponse('Only POST (and the CORS preflight) is served here.', { Allow: { schema: { type: 'string' } } }),
            '429': errorResponse('`too_many_requests`: more than 30 requests in a minute for one client.', {
              'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait.' },
            }),
          },
        },
      },
      '/.well-known/jwks.json': {
        get: {
          operationId: 'getJwks',
          summary: 'The public keys that verify access tokens',
          security: [],
          responses: {
            '200': {
              description: 'A JSON Web Key Set of ES256 keys, each with its `kid`. Retired keys stay until their last token expires.',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    properties: { keys: { type: 'array', items: { type: 'object', properties: { kid: { type: 'string' }, kty: { const: 'EC' } }, required: ['kid', 'kty'] } } },
                    required: ['keys'],
                  },
                },
              },
            },
          },
        },
      },
    },
    components: {
      schemas: {
        TokenRequest: tokenRequest,
        TokenResponse: {
          type: 'object',
          properties: {
            access_token: { type: 'string' },
            token_type: { type: 'string', const: 'Bearer' },
            expires_in: { type: 'integer', const: config.tokenLifetimeSeconds },
            scope: { type: 'string', description: 'Space-delimited scopes on the token.' },
          },
          required: ['access_token', 'token_type', 'expires_in', 'scope'],
          additionalProperties: false,
        },
        OAuthError: oauthError,
      },
      securitySchemes: {
        clientBasic: { type: 'http', scheme: 'basic', description: 'client_id and client_secret as HTTP Basic (RFC 6749 2.3.1), instead of the body fields.' },
      },
    },
  };
}
