import { SUPPORTED_VERSIONS, type ApiVersion } from './versions.js';

type Json = Record<string, any>;

/** Where the API host serves the document with the version fixed in its paths. */
export const FIXED_VERSION_DOCUMENT_PATH = `/openapi/v${SUPPORTED_VERSIONS[0]}.json`;

/**
 * The OpenAPI document with `version` fixed: `/api/p/v{version}/loads` becomes
 * `/api/p/v1.0/loads` and the required `version` path parameter goes away
 * (docs/api-rules.md#base-path-and-versions). Client generators do not fill a path parameter
 * from its default, so a client generated from /openapi.json must pass `version: '1.0'` on every
 * call; one generated from this copy passes nothing. The project's SDK is generated from it
 * too (scripts/generate-sdk.ts). A copy: the document passed in is left as it is.
 */
export function withFixedVersion(document: Json, version: ApiVersion = SUPPORTED_VERSIONS[0]): Json {
  const doc: Json = structuredClone(document);
  const paths: Json = {};
  for (const [template, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const operation of Object.values<Json>(item)) {
      if (Array.isArray(operation?.parameters)) {
        operation.parameters = operation.parameters.filter((p: Json) => !(p.in === 'path' && p.name === 'version'));
      }
    }
    paths[template.replace('v{version}', `v${version}`)] = item;
  }
  doc.paths = paths;
  return doc;
}
