import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SignJWT } from 'jose';
import { parseScopeList } from '../../core/auth/scopes.js';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { ALG } from '../../core/signing-keys/key-material.js';
import type { SigningKeys } from '../../core/signing-keys/signing-keys.js';
import { authenticateClient } from '../../core/tenancy/client-credentials.js';
import type { Db } from '../../db/create-db.js';
import type { RateLimits } from '../http/rate-limit.js';
import { tokenEndpointRule } from '../http/rate-rules.js';
import { OAuthError } from './oauth-error.js';
import { readTokenRequest } from './token-request.js';

export interface TokenEndpointOptions {
  db: Db;
  config: Config;
  keys: SigningKeys;
  clock: Clock;
  rateLimits: RateLimits;
}

export interface TokenSubject {
  clientId: string;
  tenantId: string;
  subsidiaryId: string | null;
  scopes: string[];
}

export interface TokenResponseBody {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** What the request log may know about a token request: the client id it named, nothing else. */
export interface TokenLogContext {
  clientId?: string;
}

/** Signs an access token (RFC 9068 `at+jwt`) for a client; time comes from the clock. */
export async function issueAccessToken(
  { keys, config, clock }: Pick<TokenEndpointOptions, 'keys' | 'config' | 'clock'>,
  subject: TokenSubject,
): Promise<TokenResponseBody> {
  const { kid, key } = keys.signingKey();
  const iat = Math.floor(clock.now().getTime() / 1000);
  const scope = subject.scopes.join(' ');
  const claims: Record<string, string> = { azp: subject.clientId, scope, tid: subject.tenantId };
  if (subject.subsidiaryId !== null) claims.sid = subject.subsidiaryId;
  const accessToken = await new SignJWT(claims)
    .setProtectedHeader({ alg: ALG, kid, typ: 'at+jwt' })
    .setIssuer(config.issuer)
    .setSubject(`${subject.clientId}@clients`)
    .setAudience(config.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + config.tokenLifetimeSeconds)
    .setJti(randomUUID())
    .sign(key);
  return { access_token: accessToken, token_type: 'Bearer', expires_in: config.tokenLifetimeSeconds, scope };
}

const unauthorized = (usedBasic: boolean) =>
  new OAuthError(401, 'access_denied', 'Unauthorized', usedBasic ? { 'WWW-Authenticate': 'Basic realm="token"' } : {});

/**
 * The client-credentials grant. Checks run in a fixed order: body, required fields, rate
 * limit, client authentication, grant_type, audience, scope. The limit counts before the
 * secret is checked so that guessing secrets is limited too. Failures throw OAuthError.
 */
export function createTokenEndpoint(
  options: TokenEndpointOptions,
): (req: IncomingMessage, log: TokenLogContext) => Promise<TokenResponseBody> {
  const { db, config, keys, rateLimits } = options;

  return async (req, log) => {
    const request = await readTokenRequest(req);
    log.clientId = request.clientId;

    const decision = await rateLimits.check([{ rule: tokenEndpointRule, key: request.clientId }]);
    if (decision && !decision.allowed) {
      throw new OAuthError(429, 'too_many_requests', 'Too many token requests; cache the token for expires_in.', {
        'Retry-After': String(decision.resetSeconds),
      });
    }

    const client = await authenticateClient(db, request.clientId, request.clientSecret);
    if (!client) throw unauthorized(request.usedBasic);

    if (request.grantType !== 'client_credentials') {
      throw new OAuthError(400, 'unsupported_grant_type', 'Only the client_credentials grant is supported.');
    }
    if (request.audience !== config.audience) {
      throw new OAuthError(400, 'invalid_target', 'The audience is not this API.');
    }
    // Non-narrowing (docs/api-rules.md#authentication-and-scope): naming a scope only checks it; the token carries every granted one.
    if (request.scope !== undefined && parseScopeList(request.scope).some((s) => !client.scopes.includes(s))) {
      throw new OAuthError(400, 'invalid_scope', 'A requested scope is not granted to this client.');
    }

    await keys.refreshIfStale();
    return issueAccessToken(options, {
      clientId: client.clientId,
      tenantId: client.tenantId,
      subsidiaryId: client.subsidiaryId,
      scopes: client.scopes,
    });
  };
}
