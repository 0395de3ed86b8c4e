import type { IncomingMessage, ServerResponse } from 'node:http';
import { edgeKinds, problemKinds, type ProblemKind } from '../http/problem.js';

/**
 * The pages behind problem `Type` URLs (`{PUBLIC_BASE_URL}/errors/<Category>[/<Code>]`,
 * docs/api-rules.md#problems): a developer who pastes a Type into a browser learns what went wrong and
 * what to do. HTML by default, JSON for `Accept: application/json`. Every category of the error
 * table and every code the core raises has a page (test/error-pages.test.ts reads the source
 * for codes, so a new one without a page fails the suite).
 */

interface ErrorPage {
  status: number;
  title: string;
  explanation: string;
  whatToDo: string;
}

const CATEGORY_HELP: Record<string, Pick<ErrorPage, 'explanation' | 'whatToDo'>> = {
  Validation: {
    explanation: 'A field of the request (path, query, header or body) is missing, malformed or out of range. `Errors` names each field with what is wrong.',
    whatToDo: 'Fix the fields named in `Errors` and send the request again. Nothing was written.',
  },
  Unauthorized: {
    explanation: 'The request carried no bearer token, or the token is expired, malformed, signed by an unknown key or meant for another audience.',
    whatToDo: 'Get a token from the token host (POST /oauth/token with client credentials and the API audience) and send it as `Authorization: Bearer <token>`.',
  },
  Forbidden: {
    explanation: "The token is valid but its scopes do not include the one this operation needs (listed in the operation's description in /docs).",
    whatToDo: 'Ask the tenant operator to grant the scope to your client, then request a new token.',
  },
  NotFound: {
    explanation: 'No record with this id is visible to your client. A record of another tenant, or of another subsidiary for a subsidiary-bound client, answers the same way.',
    whatToDo: "Check the id and the path. If the record should exist, check that your client's tenant and subsidiary own it.",
  },
  Conflict: {
    explanation: "The request is valid but conflicts with the record's current state. The code at the end of the Type says which rule.",
    whatToDo: "Read the record again, then decide whether to retry with other values. The Detail explains the conflict.",
  },
  PreconditionFailed: {
    explanation: 'The `If-Match` ETag does not match the current version: someone changed the record after you read it.',
    whatToDo: 'GET the record again, apply your change to the current version, and send it with the new ETag.',
  },
  PreconditionRequired: {
    explanation: 'This write changes a record that has an ETag, and it must say which version it changes.',
    whatToDo: 'GET the record, then send the write with `If-Match: <ETag>`.',
  },
  Unprocessable: {
    explanation: 'The request is well formed, but a rule on stored data refuses it (for example a value that must match a related record).',
    whatToDo: 'Read the Detail and the named fields, adjust the request, and send it again. Nothing was written.',
  },
  RateLimited: {
    explanation: 'Your client, tenant or address sent more requests than the limit allows in the current window.',
    whatToDo: 'Wait for the seconds in `Retry-After`, then retry. The `RateLimit` headers of every answer show what is left.',
  },
  Gone: {
    explanation: 'The resource existed but is no longer available: an expired link, or an events-feed cursor older than the oldest retained event (events are kept 30 days).',
    whatToDo: 'Ask for a new link. For the events feed, start again without After and re-read what you mirror.',
  },
  WriteNotConfirmed: {
    explanation: 'The write may or may not have been stored: its commit did not answer in time.',
    whatToDo: 'Retry the identical request with the same ExternalId: it answers the record if the first one was stored, and creates it otherwise.',
  },
  MethodNotAllowed: {
    explanation: 'The path exists but not with this HTTP method. The `Allow` header lists the methods it takes.',
    whatToDo: 'Use one of the methods in `Allow`.',
  },
  UnsupportedMediaType: {
    explanation: 'The body is not in a media type this operation accepts (JSON for most operations, multipart/form-data for uploads).',
    whatToDo: 'Send the body with a supported `Content-Type`, as the operation in /docs shows.',
  },
  PayloadTooLarge: {
    explanation: "The body is larger than this operation's limit.",
    whatToDo: 'Send a smaller body: split a batch, or compress a file before uploading it.',
  },
  UnsupportedApiVersion: {
    explanation: 'The version in the path or the `api-version` header is not one this server supports. The Detail lists the supported versions.',
    whatToDo: 'Use a supported version, for example `/api/p/v1.0/...`.',
  },
  Internal: {
    explanation: 'The server failed unexpectedly. Nothing about your request caused a known refusal.',
    whatToDo: 'Retry later. If it persists, report the `X-Request-Id` of the answer to the operator.',
  },
  Unavailable: {
    explanation: 'The service or its database is not reachable right now.',
    whatToDo: 'Retry after a short wait.',
  },
};

/** Codes after the category (`/errors/Conflict/<Code>`): what the core raises. */
const CODE_HELP: Record<string, Pick<ErrorPage, 'explanation' | 'whatToDo'>> = {
  'Conflict/Duplicate': {
    explanation: 'Another record of the tenant already has this unique value (for example a CompanyNumber or ExternalId).',
    whatToDo: 'Use another value, or read and update the existing record.',
  },
  'Conflict/DuplicateReference': {
    explanation: 'The record already has a reference of this type with this value.',
    whatToDo: 'Update the existing reference instead of adding a second one.',
  },
  'Conflict/IdempotencyKeyReuse': {
    explanation: 'The idempotency key (an ExternalId, an import key or an `Idempotency-Key` header) was already used with other values. `ConflictingFields` lists what differs when known.',
    whatToDo: 'Use a new key for a new request; repeat the first request unchanged to get its answer again.',
  },
  'Conflict/RequestInProgress': {
    explanation: 'A request with the same `Idempotency-Key` is still being processed.',
    whatToDo: 'Wait a moment and retry the identical request: it answers the first one once it has finished.',
  },
  'Conflict/InUse': {
    explanation: 'Other records still depend on this one (for example open loads of a customer, a driver on a trip still running, or a load already on an invoice).',
    whatToDo: 'Finish or move the dependent records first, then retry.',
  },
  'Conflict/InvalidState': {
    explanation: "The record's status does not allow this change (for example answering a tender that is no longer Pending, or writing a stop of a finished trip).",
    whatToDo: 'Read the record to see its status; the Detail names the rule.',
  },
  'Conflict/Overpayment': {
    explanation: "The payment is larger than the invoice's remaining balance.",
    whatToDo: 'Read the invoice and pay at most its RemainingBalance.',
  },
  'Conflict/SettledRecord': {
    explanation: 'The record is already part of a settled or paid statement, so it can no longer change.',
    whatToDo: 'Post a correcting credit or deduction instead.',
  },
  'Conflict/StaleLocation': {
    explanation: 'A newer position of the asset is already held: positions older than the held one are not applied.',
    whatToDo: 'Nothing, if the reading was a late duplicate. Otherwise check the device clock.',
  },
  'Conflict/WebhookDisabled': {
    explanation: 'The webhook subscription is disabled, so nothing can be queued for it.',
    whatToDo: 'Enable it (POST /webhooks/{id}/enable) once the receiver answers, then replay what it missed.',
  },
  'Conflict/WebhookNotActive': {
    explanation: 'The webhook subscription is not active yet (its URL has not been verified), so nothing can be queued for it.',
    whatToDo: "Finish the subscription's verification, then retry.",
  },
  'Conflict/DeliveryInFlight': {
    explanation: 'This delivery is being attempted right now.',
    whatToDo: 'Wait for the attempt to finish (see the delivery logs), then resend it if it failed.',
  },
  'Unprocessable/FutureRecordedAt': {
    explanation: "The reading's RecordedAt is ahead of the server's clock by more than the allowed skew.",
    whatToDo: "Check the device clock, then send the reading with its real time.",
  },
  'Unprocessable/MixedCurrencies': {
    explanation: "The loads' line items and accessorials are priced in more than one currency; an invoice has one. `LoadNumber` names the load that differs.",
    whatToDo: 'Invoice the loads of each currency separately.',
  },
  'Unprocessable/UnknownPartner': {
    explanation: "The interchange's sender (ISA05/ISA06) is not an Active trading partner of your tenant (or of your subsidiary), or its receiver (ISA07/ISA08) is not our ids for that partner. Nothing was stored.",
    whatToDo: 'Check the ISA sender and receiver against GET /edi/partners (Their and Our), or ask the carrier to create or activate the partner, then send the interchange again.',
  },
  'Unprocessable/ProtectedDocumentType': {
    explanation: 'Invoice-family document types are managed by billing and cannot be set, changed or deleted through the API.',
    whatToDo: 'Use a non-invoice document type, or change invoice documents in the billing system.',
  },
};

const KINDS: ProblemKind[] = [...Object.values(problemKinds), ...Object.values(edgeKinds)];

/** The page of a Type path after `/errors/`, or undefined when no problem has that Type. */
export function errorPageFor(name: string): ErrorPage | undefined {
  const [category, code, ...rest] = name.split('/');
  if (rest.length > 0) return undefined;
  const kind = KINDS.find((candidate) => candidate.category === category);
  const help = code === undefined ? CATEGORY_HELP[category!] : CODE_HELP[`${category}/${code}`];
  if (!kind || !help) return undefined;
  return { status: kind.status, title: code === undefined ? kind.title : `${kind.title} (${code})`, ...help };
}

/** Every Type path a page exists for, for tests and the index page. */
export function errorPageNames(): string[] {
  return [...KINDS.map((kind) => kind.category), ...Object.keys(CODE_HELP)];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
// `code` in the texts becomes <code>, after escaping.
const richText = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

function renderHtml(name: string, page: ErrorPage): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(name)}: Waybill API error</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 42rem; margin: 2rem auto; padding: 0 1rem; color: #1b1f24; }
h1 { font-size: 1.4rem; } code { background: #f1f3f5; padding: 0 .25rem; border-radius: 3px; }
.status { color: #57606a; }
</style>
</head>
<body>
<p class="status">HTTP ${page.status} · <code>/errors/${escapeHtml(name)}</code></p>
<h1>${escapeHtml(page.title)}</h1>
<h2>What happened</h2>
<p>${richText(page.explanation)}</p>
<h2>What to do</h2>
<p>${richText(page.whatToDo)}</p>
<p>The problem body's <code>Detail</code> and <code>Errors</code> say more about your request. The full reference is at <a href="/docs">/docs</a>.</p>
</body>
</html>
`;
}

/** Answers GET/HEAD `/errors/...`; false when the path is not a known error Type. */
export function serveErrorPage(req: IncomingMessage, res: ServerResponse, path: string): boolean {
  if (!path.startsWith('/errors/')) return false;
  const name = path.slice('/errors/'.length);
  const page = errorPageFor(name);
  if (!page) return false;
  const wantsJson = /\bapplication\/(problem\+)?json\b/.test(req.headers.accept ?? '');
  const body = wantsJson
    ? JSON.stringify({ Type: name, Status: page.status, Title: page.title, Explanation: page.explanation, WhatToDo: page.whatToDo })
    : renderHtml(name, page);
  res.writeHead(200, {
    'Content-Type': wantsJson ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'public, max-age=3600',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
    Vary: 'Accept',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
