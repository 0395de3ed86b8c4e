/** Where access tokens come from: a fixed token, or a source that fetches and caches them. */
export interface TokenSource {
  /** A token that is still valid, fetched when none is cached or the cached one is about to expire. */
  token(): Promise<string>;
  /** Drops `token` from the cache (the API answered 401 with it), so the next call fetches a new one. */
  invalidate(token: string): void;
}

export interface ClientCredentialsOptions {
  /** The token host, e.g. `http://127.0.0.1:3001` (the token endpoint is `{authUrl}/oauth/token`). */
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** The API's audience (the `API_AUDIENCE` of the server). */
  audience: string;
  /** Scopes to ask for; all the client's scopes when left out. */
  scope?: string | readonly string[];
  /** Seconds before `expires_in` runs out when a new token is fetched (default 60). */
  marginSeconds?: number;
  fetch?: (request: Request) => Promise<Response>;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
}

/** The token endpoint refused (wrong secret, unknown audience, too many requests...). */
export class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly error: string | undefined,
    readonly errorDescription: string | undefined,
  ) {
    super(`token request failed: ${status} ${error ?? ''} ${errorDescription ?? ''}`.trim());
    this.name = 'TokenError';
  }
}

/**
 * OAuth 2.0 client credentials at the token host. The token is cached for `expires_in` minus a
 * margin (the token endpoint allows 30 requests a minute per client), and concurrent callers
 * share one request.
 */
export function clientCredentials(options: ClientCredentialsOptions): TokenSource {
  const now = options.now ?? Date.now;
  const send = options.fetch ?? ((request: Request) => fetch(request));
  let cached: { value: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function request(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
      audience: options.audience,
    });
    if (options.scope !== undefined) form.set('scope', typeof options.scope === 'string' ? options.scope : options.scope.join(' '));
    const response = await send(
      new Request(`${options.authUrl.replace(/\/+$/, '')}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      }),
    );
    const body = (await response.json().catch(() => ({}))) as { access_token?: string; expires_in?: number; error?: string; error_description?: string };
    if (!response.ok || typeof body.access_token !== 'string') throw new TokenError(response.status, body.error, body.error_description);
    const lifetime = typeof body.expires_in === 'number' ? body.expires_in : 0;
    // A margin larger than half the lifetime would refetch on every call; keep at least half.
    const margin = Math.min(options.marginSeconds ?? 60, lifetime / 2);
    cached = { value: body.access_token, renewAt: now() + (lifetime - margin) * 1000 };
    return body.access_token;
  }

  return {
    token() {
      if (cached && now() < cached.renewAt) return Promise.resolve(cached.value);
      pending ??= request().finally(() => {
        pending = undefined;
      });
      return pending;
    },
    invalidate(token) {
      if (cached?.value === token) cached = undefined;
    },
  };
}

/** A token that never changes (pasted, or managed elsewhere). */
export function staticToken(token: string): TokenSource {
  return { token: () => Promise.resolve(token), invalidate: () => undefined };
}
