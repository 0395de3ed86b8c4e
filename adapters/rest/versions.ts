/**
 * docs/api-rules.md#base-path-and-versions: v1, v1.0, v1.0.0 are version 1.0; v2.0 (seen in published examples)
 * is an alias of 1.0; anything else is 400 UnsupportedApiVersion. The `api-version` header
 * (`v1`, `1.0`, …) overrides the path; an empty one overrides nothing.
 */
export const SUPPORTED_VERSIONS = ['1.0'] as const;
export type ApiVersion = (typeof SUPPORTED_VERSIONS)[number];

const aliases: Record<string, ApiVersion> = {
  '1': '1.0',
  '1.0': '1.0',
  '1.0.0': '1.0',
  '2.0': '1.0',
};

/** Every `{version}` text of a path, as the document lists it. */
export const PATH_VERSIONS = Object.keys(aliases);

/** Every `api-version` header value that is accepted (the document's enum): each alias, bare or after v or V. */
export const HEADER_VERSIONS = ['', ...['', 'v', 'V'].flatMap((prefix) => PATH_VERSIONS.map((alias) => prefix + alias))];

/**
 * Every accepted text (an alias, bare or after one v or V) with its version, built once: the
 * per-request answer is one lookup. A Map, so `toString` or `__proto__` is no alias (issue 12).
 */
const accepted = new Map<string, ApiVersion>(
  ['', 'v', 'V'].flatMap((prefix) => Object.entries(aliases).map(([alias, version]) => [prefix + alias, version] as const)),
);

export function resolveVersion(pathVersion: string, header: string | undefined): ApiVersion | null {
  // Node has already stripped the spaces and tabs around a header value.
  return accepted.get(header || pathVersion) ?? null;
}

export const versionHeaders = {
  'api-version': '1.0',
  'api-supported-versions': SUPPORTED_VERSIONS.join(', '),
};
