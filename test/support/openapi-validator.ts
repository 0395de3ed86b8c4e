// Checks answers against the OpenAPI document the server publishes.
//
// Ajv 8.20.0 with ajv-formats 3.0.1: Ajv's `ajv/dist/2020` build implements JSON Schema
// 2020-12, the dialect of OpenAPI 3.1 documents (type arrays with "null", const, $defs,
// prefixItems), and both packages are plain JavaScript without native parts or engine
// constraints, so they run on Node 20. Versions are pinned so a generated case replays.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';

// ajv-formats is CommonJS with a `default` property; under NodeNext the import is the module.
const addFormats = ((formatsPlugin as any).default ?? formatsPlugin) as typeof formatsPlugin.default;

export type JsonSchema = Record<string, any>;

export interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  /** `GET /api/p/v{version}/trips/{tripId}` */
  key: string;
  method: string;
  path: string;
  operationId: string;
  spec: any;
}

export interface Violation {
  /** Stable across runs and shrinks: what a known-defect entry names. */
  kind: string;
  detail: string;
  message: string;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];
const COMPONENTS_ID = 'https://waybill.invalid/openapi/components';
const REF_PREFIX = '#/components/schemas/';

/** Every operation of the document, in document order. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const spec = item[method];
      if (!spec) continue;
      operations.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operationId: spec.operationId ?? '', spec });
    }
  }
  return operations;
}

/** A component schema by `$ref`, or the schema itself. */
export function resolveRef(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema | undefined {
  let current = schema;
  const seen = new Set<string>();
  while (current && typeof current.$ref === 'string') {
    const ref: string = current.$ref;
    if (!ref.startsWith(REF_PREFIX) || seen.has(ref)) throw new Error(`unsupported $ref ${ref}`);
    seen.add(ref);
    const { $ref: _ref, ...siblings } = current;
    const target = doc.components?.schemas?.[ref.slice(REF_PREFIX.length)];
    if (!target) throw new Error(`dangling $ref ${ref}`);
    current = Object.keys(siblings).length ? { allOf: [target], ...siblings } : target;
  }
  return current;
}

/** The component references rewritten to the registered components schema. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof inner === 'string' && inner.startsWith(REF_PREFIX)
      ? `${COMPONENTS_ID}#/$defs/${inner.slice(REF_PREFIX.length)}`
      : rewriteRefs(inner);
  }
  return out;
}

export function createSchemaValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({
    allErrors: false,
    // OpenAPI's own annotations beside JSON Schema keywords; Ajv would refuse them as unknown.
    strict: false,
    validateFormats: true,
    // Money has `multipleOf: 0.01`; without a tolerance 0.07 / 0.01 is not an integer.
    multipleOfPrecision: 9,
  });
  addFormats(ajv);
  ajv.addSchema({ $id: COMPONENTS_ID, $defs: rewriteRefs(doc.components?.schemas ?? {}) as JsonSchema });
  const cache = new Map<JsonSchema, ValidateFunction>();
  const compile = (schema: JsonSchema): ValidateFunction => {
    const cached = cache.get(schema);
    if (cached) return cached;
    const validate = ajv.compile(rewriteRefs(schema) as JsonSchema);
    cache.set(schema, validate);
    return validate;
  };
  return {
    compile,
    /** null when valid, else the first error. */
    check(schema: JsonSchema, value: unknown): ErrorObject | null {
      const validate = compile(schema);
      return validate(value) ? null : (validate.errors?.[0] ?? ({ message: 'invalid' } as ErrorObject));
    },
    isValid(schema: JsonSchema, value: unknown): boolean {
      return compile(schema)(value) as boolean;
    },
  };
}

export type SchemaValidator = ReturnType<typeof createSchemaValidator>;

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

function mediaType(header: string | null): string | null {
  return header ? header.split(';')[0]!.trim().toLowerCase() : null;
}

/**
 * Does an answer match what the document says of the operation: a documented status, one of
 * its media types, a body valid against its schema, no body when none is documented, and the
 * headers it marks required.
 */
export function checkAnswer(validator: SchemaValidator, operation: Operation, answer: Answer): Violation[] {
  const violations: Violation[] = [];
  const { status } = answer;
  const documented = operation.spec.responses?.[String(status)] ?? operation.spec.responses?.[`${String(status)[0]}XX`] ?? operation.spec.responses?.default;
  if (!documented) {
    return [{ kind: 'undocumented-status', detail: String(status), message: `status ${status} is not documented: ${answer.text.slice(0, 300)}` }];
  }
  const content: Record<string, any> | undefined = documented.content;
  const type = mediaType(answer.headers.get('content-type'));
  if (!content || Object.keys(content).length === 0) {
    if (answer.text.length > 0) {
      violations.push({ kind: 'unexpected-body', detail: String(status), message: `status ${status} documents no body, got ${type}: ${answer.text.slice(0, 200)}` });
    }
  } else {
    const media = type ? content[type] : undefined;
    if (!media) {
      violations.push({
        kind: 'undocumented-media-type',
        detail: `${status} ${type}`,
        message: `status ${status} answered ${type}, documented ${Object.keys(content).join(', ')}`,
      });
    } else if (media.schema && /json/.test(type!)) {
      let body: unknown;
      try {
        body = JSON.parse(answer.text);
      } catch {
        violations.push({ kind: 'body-not-json', detail: String(status), message: `status ${status} ${type} body is not JSON: ${answer.text.slice(0, 200)}` });
      }
      if (body !== undefined) {
        const error = validator.check(media.schema, body);
        if (error) {
          violations.push({
            kind: 'body-mismatch',
            detail: `${status} ${error.instancePath || '/'} ${error.keyword}`,
            message: `status ${status} body does not match its schema at ${error.instancePath || '/'}: ${error.message} ${JSON.stringify(error.params)}; body ${answer.text.slice(0, 400)}`,
          });
        }
      }
    }
  }
  for (const [name, header] of Object.entries<any>(documented.headers ?? {})) {
    if (header.required && answer.headers.get(name) === null) {
      violations.push({ kind: 'missing-header', detail: `${status} ${name}`, message: `status ${status} lacks required header ${name}` });
    }
  }
  return violations;
}
