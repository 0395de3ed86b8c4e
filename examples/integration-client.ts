/**
 * An integration as any language would write it: plain HTTP, a token cached for its
 * `expires_in`, problem bodies read on failure. It walks one trip the way a carrier's
 * system does: read a stop, record the arrival, add a reference, update it with If-Match,
 * change a load document's type and download the file.
 *
 * Run against `npm start` (demo data):  npx tsx examples/integration-client.ts
 * It can be run again: a second run finds its seal reference and updates it instead of adding one.
 */

export interface ClientOptions {
  apiUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  audience: string;
  /** For tests: the clock that decides when a cached token is stale. */
  now?: () => number;
}

export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly problem: { Type?: string; Title?: string; Detail?: string; Errors?: Record<string, string[]> },
  ) {
    super(`${status} ${problem.Title ?? ''} ${problem.Detail ?? ''}`.trim());
  }
}

export interface CallOptions {
  body?: unknown;
  /** An X12 interchange sent as the body (`application/edi-x12`) instead of JSON. */
  x12?: string;
  ifMatch?: string;
  /** Sent as `Idempotency-Key` (POST): a retry with the same key answers the first result. */
  idempotencyKey?: string;
}

export interface ApiAnswer<T> {
  body: T;
  etag: string | null;
  headers: Headers;
}

export class FreightApi {
  private token: { value: string; expiresAt: number } | null = null;
  /** How many times a token was requested: the token endpoint allows 30 a minute per client. */
  tokenRequests = 0;
  private readonly now: () => number;

  constructor(private readonly options: ClientOptions) {
    this.now = options.now ?? Date.now;
  }

  private async accessToken(): Promise<string> {
    // Renew a minute early so a request never leaves with a token about to expire.
    if (this.token && this.now() < this.token.expiresAt - 60_000) return this.token.value;
    this.tokenRequests += 1;
    const response = await fetch(`${this.options.authUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: this.options.clientId,
        client_secret: this.options.clientSecret,
        audience: this.options.audience,
        grant_type: 'client_credentials',
      }),
    });
    const body = (await response.json()) as { access_token: string; expires_in: number; error?: string };
    if (!response.ok) throw new Error(`token request failed: ${response.status} ${body.error}`);
    this.token = { value: body.access_token, expiresAt: this.now() + body.expires_in * 1000 };
    return body.access_token;
  }

  /** One API call; answers the parsed body, the ETag and the headers, throws ApiProblem on 4xx/5xx. */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.accessToken()}`, 'api-version': '1.0' };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.x12 !== undefined) headers['content-type'] = 'application/edi-x12';
    if (options.ifMatch) headers['if-match'] = options.ifMatch;
    if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
    const response = await fetch(`${this.options.apiUrl}/api/p/v1.0${path}`, {
      method,
      headers,
      body: options.x12 ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    const body = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new ApiProblem(response.status, body ?? {});
    return { body: body as T, etag: response.headers.get('etag'), headers: response.headers };
  }
}

/** Failures after which a write may or may not have happened: retrying the identical request is safe. */
export function retryable(error: unknown): boolean {
  if (error instanceof ApiProblem) return error.status === 429 || error.status >= 500;
  return error instanceof TypeError || (error instanceof Error && /timeout|ECONNRESET|socket|fetch failed/i.test(error.message));
}

export interface RetryOptions {
  attempts?: number;
  backoffMs?: number;
}

/**
 * A call retried after a lost answer (a timeout, a dropped connection, a 429 or 5xx), each
 * attempt the identical request: with an `idempotencyKey` (or an ExternalId the route treats
 * as one) the API performs the write once and answers a retry with the first result and
 * `Idempotent-Replayed: true`. A 4xx other than 429 is an answer, thrown at once.
 */
export async function callWithRetries<T>(api: FreightApi, method: string, path: string, options: CallOptions & RetryOptions = {}): Promise<ApiAnswer<T> & { attempts: number }> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt++) {
    try {
      return { ...(await api.call<T>(method, path, options)), attempts: attempt };
    } catch (error) {
      if (attempt >= attempts || !retryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, (options.backoffMs ?? 500) * 2 ** (attempt - 1)));
    }
  }
}

export interface WalkResult {
  stopStatusBefore: string;
  stopAfterArrival: { Status: string; ArrivedAt: string };
  reference: { Id: string; Value: string };
  updatedReference: { Value: string };
  documentType: string;
  downloaded: { contentType: string | null; bytes: number };
}

/** The walk itself, on the demo data's trip T-1001-1 and load L-1001. */
export async function walkTrip(api: FreightApi): Promise<WalkResult> {
  const tripId = 'trp_1001_a';
  const stop = await api.call<{ Status: string }>('GET', `/trips/${tripId}/stops/stp_1001_2`);

  // Offset-less times are the stop's local time (America/Chicago for this stop).
  const arrival = await api.call<{ Status: string; ArrivedAt: string }>('PUT', `/trips/${tripId}/stops/stp_1001_2/arrival`, {
    body: { ArrivedAt: '2026-11-22T08:05:00' },
  });

  const created = await addSeal(api, tripId, 'SEAL-0042');

  // The write answered the trip's refreshed ETag: the update must name it.
  const updated = await api.call<{ Value: string }>('PUT', `/trips/${tripId}/references/${created.body.Id}`, {
    body: { Name: 'Seal Number', Value: 'SEAL-0043', ReferenceId: 'refdef_seal' },
    ifMatch: created.etag ?? undefined,
  });

  const document = await api.call<{ AttachmentType: string; DownloadUrl: string }>('PATCH', '/loads/L-1001/documents/doc_1001_bol', {
    body: { DocumentType: 'proof of delivery' },
  });
  const file = await fetch(document.body.DownloadUrl);
  const bytes = (await file.arrayBuffer()).byteLength;

  return {
    stopStatusBefore: stop.body.Status,
    stopAfterArrival: arrival.body,
    reference: created.body,
    updatedReference: updated.body,
    documentType: document.body.AttachmentType,
    downloaded: { contentType: file.headers.get('content-type'), bytes },
  };
}

/**
 * Adds the trip's Seal Number. A trip holds one value per definition, so on a second run (the
 * seal from the first is still there, 409 Conflict/DuplicateReference) it sets the existing
 * one instead, with the trip's ETag: the walk can be run again and again.
 */
async function addSeal(api: FreightApi, tripId: string, value: string): Promise<{ body: { Id: string; Value: string }; etag: string | null }> {
  const body = { Name: 'Seal Number', Value: value, ReferenceId: 'refdef_seal' };
  try {
    return await api.call<{ Id: string; Value: string }>('POST', `/trips/${tripId}/references`, { body });
  } catch (error) {
    if (!(error instanceof ApiProblem) || error.status !== 409) throw error;
    const trip = await api.call<{ References: Array<{ Id: string; ReferenceId: string | null }> }>('GET', `/trips/${tripId}`);
    const seal = trip.body.References.find((reference) => reference.ReferenceId === 'refdef_seal');
    if (!seal) throw error;
    return api.call<{ Id: string; Value: string }>('PUT', `/trips/${tripId}/references/${seal.Id}`, { body, ifMatch: trip.etag ?? undefined });
  }
}

/** A client of `npm start`'s demo data, as the examples run it. */
export function demoApi(): FreightApi {
  return new FreightApi({
    apiUrl: process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3000',
    authUrl: process.env.PUBLIC_AUTH_URL ?? 'http://127.0.0.1:3001',
    clientId: 'prairie-integration',
    clientSecret: 'demo-secret-prairie-all-0001',
    audience: process.env.API_AUDIENCE ?? 'https://api.freight.local',
  });
}

async function main(): Promise<void> {
  const api = demoApi();
  console.log(JSON.stringify(await walkTrip(api), null, 2));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
