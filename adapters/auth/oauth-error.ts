/**
 * A token-host answer other than 200, in the OAuth error shape `{error, error_description}`
 * (RFC 6749 5.2). Descriptions are fixed texts: they never repeat a credential.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'OAuthError';
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}

export function invalidRequest(description: string): OAuthError {
  return new OAuthError(400, 'invalid_request', description);
}
