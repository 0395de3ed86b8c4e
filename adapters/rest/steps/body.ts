import { MAX_UPLOAD_BYTES } from '../../../core/documents/uploaded-file.js';
import { UNSAFE_TEXT_MESSAGE, findUnsafeText } from '../../../core/shared/safe-text.js';
import { edgeKinds, problemKinds, type ProblemInput, type ProblemKind } from '../../http/problem.js';
import { malformedQueryNames, queryObject } from '../../http/request-context.js';
import { fieldPath } from '../../http/validation.js';
import { problemAnswer, type Answer } from '../answer.js';
import type { ApiRequest, Outcome } from '../api-request.js';
import { bodyHasher, requestDigest } from '../idempotency-key.js';
import { DEFAULT_BODY_LIMIT, readJsonObject, type BodyFailure } from '../json-body.js';
import { readRawText } from '../raw-text-body.js';
import { withUploadBody, type UploadFailure, type UploadFields } from '../multipart-upload.js';

/** What the procedure gets: query, body and path parameters in one object. */
export type RunStep = (request: ApiRequest, input: Record<string, unknown>) => Promise<Outcome>;

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Reads the body (413, 415, 400), checks the Idempotency-Key's fingerprint against it (the
 * stored replay or 409 IdempotencyKeyReuse instead of running), builds the procedure's input
 * (400 for unsafe text and for body fields that clash with the path), then hands it to `run`.
 * `run` is called from here rather than after: an upload's staged file lives only while its
 * procedure runs.
 */
export async function body(request: ApiRequest, run: RunStep): Promise<Outcome> {
  const { req, route, key } = request;
  // Uploads read their own body (multipart, streamed to staging); every other write reads JSON.
  // An upload's Idempotency-Key fingerprint is over its parts (DocumentType, the file's name
  // and bytes), not the raw body: a client's retry serializes the form with a new boundary.
  if (route.meta.upload) {
    const upload = await withUploadBody(req, async (fields): Promise<Outcome> => {
      if (key) {
        const early = await key.fingerprint(await uploadDigest(request.method, request.target(), fields));
        if (early) return replay(request, early);
      }
      return inputThen(request, fields, run);
    });
    if (upload.ok) return upload.value;
    // A refused upload is not read to its end: the connection closes after the answer.
    const closing: Record<string, string> = upload.failure.kind === 'too-large' ? { Connection: 'close' } : {};
    return { kind: 'answer', answer: problemAnswer(uploadProblem(request, upload.failure), { ...request.edgeHeaders(), ...closing }) };
  }

  const rawText = route.meta.rawText;
  if (rawText) {
    const read = await readRawText(req, rawText);
    if (!read.ok) return refuseBody(request, read.failure, rawText.limit, rawText.contentTypes.join(' or '));
    const early = await key?.fingerprint(requestDigest(request.method, request.target(), read.raw));
    if (early) return replay(request, early);
    return await inputThen(request, read.value, run);
  }

  let json: Record<string, unknown> | undefined;
  if (BODY_METHODS.has(request.method)) {
    const limit = route.meta.bodyLimit ?? DEFAULT_BODY_LIMIT;
    const read = await readJsonObject(req, limit);
    if (!read.ok) return refuseBody(request, read.failure, limit, 'application/json, text/json, application/*+json or application/json-patch+json');
    const early = await key?.fingerprint(requestDigest(request.method, request.target(), read.raw));
    if (early) return replay(request, early);
    json = read.value;
  } else {
    req.resume();
  }
  // Awaited rather than handed on: an async function returning a promise costs two more turns.
  return await inputThen(request, json, run);
}

/** The body's text checks and the input; `run` with it, or the 400 that refuses it. */
function inputThen(request: ApiRequest, body: Record<string, unknown> | undefined, run: RunStep): Promise<Outcome> | Outcome {
  const { url, route, params } = request;
  if (body === undefined && route.expectsBody) {
    return refuse(request, problemKinds.VALIDATION, 'This operation needs a JSON object body.', { errors: { $: ['A request body is required.'] } });
  }
  // Without a query or a body (a read by id) there is no text to check and nothing to clash.
  const query = url.rawQuery === '' ? {} : queryObject(url.searchParams);
  if (url.rawQuery !== '' || body !== undefined) {
    const unsafe = unsafeTextErrors(query, body, malformedQueryNames(url.rawQuery));
    if (unsafe) return refuse(request, problemKinds.VALIDATION, 'See Errors for the fields to correct.', { errors: unsafe });

    // Path parameters (and the version) come from the URL only: the same names in the body
    // are refused rather than silently overridden.
    const clashes = Object.keys(body ?? {}).filter((name) => name === 'version' || name in params);
    if (clashes.length > 0) {
      const errors = Object.fromEntries(clashes.map((name) => [name, ['is not allowed']]));
      return refuse(request, problemKinds.VALIDATION, 'See Errors for the fields to correct.', { errors });
    }
  }
  return run(request, { ...query, ...body, ...params, version: request.version });
}

/** A body the edge could not read: 413 over `limit`, 415 for a media type other than `mediaTypes`, else 400. */
function refuseBody(request: ApiRequest, failure: BodyFailure, limit: number, mediaTypes: string): Outcome {
  if (failure.kind === 'too-large') return refuse(request, edgeKinds.PAYLOAD_TOO_LARGE, `The body may be at most ${limit} bytes.`);
  if (failure.kind === 'unsupported-media-type') return refuse(request, edgeKinds.UNSUPPORTED_MEDIA_TYPE, `Send ${mediaTypes}.`);
  return refuse(request, problemKinds.VALIDATION, failure.message, { errors: { $: [failure.message] } });
}

function refuse(request: ApiRequest, kind: ProblemKind, detail: string, extra?: Partial<ProblemInput>): Outcome {
  return { kind: 'answer', answer: problemAnswer(request.problem(kind, detail, extra), request.edgeHeaders()) };
}

/** A key's stored answer (or its 409 reuse), sent as it is with this request's own edge headers. */
function replay(request: ApiRequest, stored: Answer): Outcome {
  return { kind: 'answer', answer: { ...stored, headers: { ...request.edgeHeaders(), ...stored.headers } }, replayed: true };
}

/**
 * Query parameters and body strings (and property names) that are not safe text, or query
 * parameters that are not valid percent-encoded UTF-8, by field; null when all are fine.
 */
function unsafeTextErrors(
  query: Record<string, string | string[]>,
  body: Record<string, unknown> | undefined,
  malformedQuery: string[],
): Record<string, string[]> | null {
  const errors: Record<string, string[]> = {};
  for (const name of malformedQuery) errors[name] = ['The value is not valid percent-encoded UTF-8.'];
  // A query parameter is named as sent, however often it is repeated; a body field by its path.
  for (const path of findUnsafeText(query)) errors[String(path[0])] ??= [UNSAFE_TEXT_MESSAGE];
  for (const path of findUnsafeText(body ?? {})) errors[fieldPath(path) || '$'] ??= [UNSAFE_TEXT_MESSAGE];
  return Object.keys(errors).length > 0 ? errors : null;
}

/** The fingerprint of an upload's parts (the staged file is read once more, streamed, as its commit does). */
async function uploadDigest(method: string, target: string, fields: UploadFields): Promise<string> {
  const hasher = bodyHasher(method, target);
  hasher.update(Buffer.from(`DocumentType ${JSON.stringify(fields.DocumentType ?? null)}\n`));
  if (fields.File) {
    hasher.update(Buffer.from(`File ${JSON.stringify(fields.File.FileName)}\n`));
    for await (const piece of fields.File.openContent()) hasher.update(piece);
  }
  return hasher.digest();
}

/** The problem for an upload body the edge refuses before the procedure runs. */
function uploadProblem(request: ApiRequest, failure: UploadFailure) {
  switch (failure.kind) {
    case 'too-large':
      return request.problem(edgeKinds.PAYLOAD_TOO_LARGE, `The file may be at most ${MAX_UPLOAD_BYTES} bytes (10 MiB).`);
    case 'unsupported-media-type':
      return request.problem(edgeKinds.UNSUPPORTED_MEDIA_TYPE, 'Send multipart/form-data with a File part and a DocumentType part.');
    case 'unsupported-file-type':
      return request.problem(edgeKinds.UNSUPPORTED_MEDIA_TYPE, 'The file must be a PDF, JPEG or PNG (decided from its content).');
    case 'invalid':
      return request.problem(problemKinds.VALIDATION, 'See Errors for the fields to correct.', { errors: failure.errors });
  }
}
