import type { IncomingMessage } from 'node:http';
import { invalidRequest, OAuthError } from './oauth-error.js';
import { decodeUtf8 } from '../http/read-body.js';
import { isSafeText } from '../../core/shared/safe-text.js';

/** Token requests are a few short fields; anything near this size is not one. */
export const TOKEN_BODY_LIMIT = 16 * 1024;
/** Longer ids cannot exist, and would only bloat the per-client rate-limit table. */
const MAX_CLIENT_ID_LENGTH = 256;

export interface TokenRequest {
  grantType: string;
  clientId: string;
  clientSecret: string;
  audience: string;
  /** Space-delimited; undefined when not sent. */
  scope: string | undefined;
  /** The client authenticated with HTTP Basic (its 401 then carries WWW-Authenticate). */
  usedBasic: boolean;
}

const FIELDS = ['grant_type', 'client_id', 'client_secret', 'audience', 'scope'] as const;
type Field = (typeof FIELDS)[number];
type Fields = Partial<Record<Field, string>>;

const CHARSETS = new Set(['utf-8', 'utf8', 'us-ascii']);

/** Reads and checks the body and Authorization header; every problem is an OAuthError (400 or 413). */
export async function readTokenRequest(req: IncomingMessage): Promise<TokenRequest> {
  const mediaType = mediaTypeOf(req.headers['content-type']);
  const text = decodeUtf8(await readBody(req));
  if (text === null) throw invalidRequest('The body is not valid UTF-8.');
  const fields = mediaType === 'application/json' ? jsonFields(text) : formFields(text);
  const basic = basicCredentials(req.headers.authorization);
  if (basic) {
    const conflict =
      (fields.client_id !== undefined && fields.client_id !== basic.clientId) ||
      (fields.client_secret !== undefined && fields.client_secret !== basic.clientSecret);
    if (conflict) throw invalidRequest('The client credentials in the Authorization header and the body differ.');
    fields.client_id = basic.clientId || undefined;
    fields.client_secret = basic.clientSecret || undefined;
  }
  // Text the database cannot hold never reaches the client lookup (Postgres refuses NUL).
  const unsafe = FIELDS.filter((name) => fields[name] !== undefined && !isSafeText(fields[name]!));
  if (unsafe.length > 0) throw invalidRequest(`${unsafe.join(', ')} contains a character that is not allowed.`);
  const { grant_type: grantType, client_id: clientId, client_secret: clientSecret, audience, scope } = fields;
  if (!grantType || !clientId || !clientSecret || !audience) {
    const missing = (['grant_type', 'client_id', 'client_secret', 'audience'] as const).filter((name) => !fields[name]);
    throw invalidRequest(`Missing required parameter: ${missing.join(', ')}.`);
  }
  if (clientId.length > MAX_CLIENT_ID_LENGTH) throw invalidRequest('client_id is too long.');
  return { grantType, clientId, clientSecret, audience, scope, usedBasic: basic !== undefined };
}

function mediaTypeOf(header: string | undefined): 'application/json' | 'application/x-www-form-urlencoded' {
  const [type = '', ...params] = (header ?? '').split(';');
  const mediaType = type.trim().toLowerCase();
  // OAuth clients expect 400 invalid_request for a wrong media type, not 415.
  if (mediaType !== 'application/json' && mediaType !== 'application/x-www-form-urlencoded') {
    throw invalidRequest('The body must be application/json or application/x-www-form-urlencoded.');
  }
  for (const param of params) {
    const [name = '', value = ''] = param.split('=');
    const charset = value.trim().replace(/^"(.*)"$/, '$1').toLowerCase();
    if (name.trim().toLowerCase() === 'charset' && !CHARSETS.has(charset)) {
      throw invalidRequest('The body must be encoded as UTF-8.');
    }
  }
  return mediaType;
}

function payloadTooLarge(): OAuthError {
  return new OAuthError(413, 'invalid_request', 'The request body is larger than 16 KiB.', { Connection: 'close' });
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > TOKEN_BODY_LIMIT) {
      reject(payloadTooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    // After an oversized chunk the listener stays, so the rest of the body is read and dropped.
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > TOKEN_BODY_LIMIT) settle(payloadTooLarge());
      else if (!settled) chunks.push(chunk);
    });
    req.on('end', () => settle());
    req.on('error', (error) => settle(error));
    req.on('close', () => settle(new Error('request closed before its body was read')));
  });
}

function jsonFields(text: string): Fields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidRequest('The body is not valid JSON.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalidRequest('The body must be a JSON object.');
  }
  const fields: Fields = {};
  for (const name of FIELDS) {
    const value: unknown = (parsed as Record<string, unknown>)[name];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw invalidRequest(`${name} must be a string.`);
    fields[name] = value;
  }
  return fields;
}

function formFields(text: string): Fields {
  const params = new URLSearchParams(text);
  const fields: Fields = {};
  for (const name of FIELDS) {
    const values = params.getAll(name);
    // RFC 6749 3.1: parameters must not be repeated.
    if (values.length > 1) throw invalidRequest(`${name} is repeated.`);
    if (values[0]) fields[name] = values[0];
  }
  return fields;
}

/** RFC 6749 2.3.1: both parts are form-urlencoded before they are joined and base64-encoded. */
function basicCredentials(header: string | undefined): { clientId: string; clientSecret: string } | undefined {
  if (header === undefined || !/^basic(\s|$)/i.test(header)) return undefined;
  const encoded = /^basic +([A-Za-z0-9+/]+=*) *$/i.exec(header)?.[1];
  if (!encoded) throw invalidRequest('The Basic Authorization header is malformed.');
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(encoded, 'base64'));
  } catch {
    throw invalidRequest('The Basic Authorization header is malformed.');
  }
  const colon = decoded.indexOf(':');
  if (colon < 0) throw invalidRequest('The Basic Authorization header is malformed.');
  try {
    return { clientId: formDecode(decoded.slice(0, colon)), clientSecret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw invalidRequest('The Basic Authorization header is malformed.');
  }
}

function formDecode(part: string): string {
  return decodeURIComponent(part.replace(/\+/g, ' '));
}
