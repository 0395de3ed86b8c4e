/**
 * DECISIONS: v1, v1.0, v1.0.0 are version 1.0; v2.0 (seen in the spec's reference examples)
 * is an alias of 1.0; anything else is 400 UnsupportedApiVersion. The `api-version` header
 * (`v1`, `1.0`, …) overrides the path.
 */
export const SUPPORTED_VERSIONS = ['1.0'] as const;
export type ApiVersion = (typeof SUPPORTED_VERSIONS)[number];

const aliases: Record<string, ApiVersion> = {
  '1': '1.0',
  '1.0': '1.0',
  '1.0.0': '1.0',
  '2.0': '1.0',
};

export function resolveVersion(pathVersion: string, header: string | undefined): ApiVersion | null {
  const requested = (header ?? '').trim() || pathVersion;
  const plain = requested.replace(/^v/i, '');
  return aliases[plain] ?? null;
}

export const versionHeaders = {
  'api-version': '1.0',
  'api-supported-versions': SUPPORTED_VERSIONS.join(', '),
};
