import { jwtVerify, type JWTPayload } from 'jose';
import type { Clock } from '../../core/clock.js';
import type { Config } from '../../core/config.js';
import { AppError } from '../../core/errors.js';
import type { Principal } from '../../core/trpc.js';
import { ALG } from '../../core/signing-keys/key-material.js';
import type { SigningKeys } from '../../core/signing-keys/signing-keys.js';

export interface BearerVerifierOptions {
  keys: SigningKeys;
  config: Config;
  clock: Clock;
  /**
   * Verified tokens kept in memory; when it is full, the one placed longest ago goes first, and
   * a token is placed again when it is used after half as many others were placed since.
   */
  cacheSize?: number;
}

export type BearerVerifier = (authorization: string | undefined) => Promise<Principal>;

// RFC 6750 2.1: the b64token syntax; anything else cannot be one of our JWTs.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

interface CachedPrincipal {
  /** The whole header the token came in: a hit must be this exact text. */
  authorization: string;
  principal: Principal;
  /** The token's `exp`, in seconds. */
  exp: number;
  /** When it took its place in the cache's order, in placements. */
  placed: number;
}

/**
 * Turns an Authorization header into a Principal or an UNAUTHORIZED AppError. Messages never
 * repeat the token. Verified tokens are cached by their exact text until they expire, so
 * the hot path skips ECDSA; the clock still decides when a cached token stops working.
 */
export function createBearerVerifier(options: BearerVerifierOptions): BearerVerifier {
  const { keys, config, clock } = options;
  const cacheSize = options.cacheSize ?? 10_000;
  const cache = new Map<string, CachedPrincipal>();
  let placements = 0;

  return async (authorization) => {
    if (authorization === undefined) throw new AppError('UNAUTHORIZED', 'A bearer token is required.');
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);

    // Keyed by the signature, compared in full: V8 hashes a Map key's whole text, and every
    // request brings a new copy of the header (1.6 KB of token), whose hash cost more than the
    // rest of the cache. A hit is still only the exact header verified before, so it skips
    // even the syntax check; another token with the same last segment is verified as new.
    const key = cacheKeyOf(authorization);
    const cached = cache.get(key);
    if (cached && cached.authorization === authorization) {
      if (nowSeconds >= cached.exp) {
        cache.delete(key);
        throw new AppError('UNAUTHORIZED', 'The access token has expired.');
      }
      // A Map moves an entry to the back only by deleting and adding it again, which for a
      // token used on every request cost more than the rest of a hit. A token placed within
      // the last half of the cache's placements is far from the front, so it stays where it is.
      if (placements - cached.placed >= cacheSize / 2) {
        cache.delete(key);
        cached.placed = ++placements;
        cache.set(key, cached);
      }
      return cached.principal;
    }

    const token = BEARER.exec(authorization)?.[1];
    if (!token) throw new AppError('UNAUTHORIZED', 'A bearer token is required.');

    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid === undefined ? undefined : await keys.verificationKey(header.kid);
          if (!key) throw new Error('unknown kid');
          return key;
        },
        {
          algorithms: [ALG],
          issuer: config.issuer,
          audience: config.audience,
          typ: 'at+jwt',
          currentDate: clock.now(),
          requiredClaims: ['exp', 'iat', 'tid', 'azp', 'scope'],
        },
      ));
    } catch {
      throw new AppError('UNAUTHORIZED', 'The access token is invalid or expired.');
    }

    const principal = principalOf(payload);
    // A token with the same last segment gives its place up (and its place in the order).
    cache.delete(key);
    if (cache.size >= cacheSize) {
      const oldest = cache.keys().next();
      if (!oldest.done) cache.delete(oldest.value);
    }
    cache.set(key, { authorization, principal, exp: payload.exp as number, placed: ++placements });
    return principal;
  };
}

/** The header's last dot-separated segment: a JWT's signature, short and unique per token. */
function cacheKeyOf(authorization: string): string {
  return authorization.slice(authorization.lastIndexOf('.') + 1);
}

function principalOf(payload: JWTPayload): Principal {
  const { tid, sid, azp, scope } = payload;
  const valid =
    typeof tid === 'string' &&
    tid !== '' &&
    typeof azp === 'string' &&
    azp !== '' &&
    typeof scope === 'string' &&
    (sid === undefined || (typeof sid === 'string' && sid !== ''));
  if (!valid) throw new AppError('UNAUTHORIZED', 'The access token is invalid or expired.');
  // Frozen: the cache hands the same object to every request bearing the token.
  return Object.freeze({
    TenantId: tid,
    SubsidiaryId: sid ?? null,
    ClientId: azp,
    Scopes: Object.freeze(scope.split(' ').filter((part) => part !== '')) as string[],
  });
}
