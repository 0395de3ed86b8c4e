/**
 * A scanning service or driver app uploading a signed document to a load, as an integrator
 * does it: a client-credentials token, one `multipart/form-data` POST with a `File` part and
 * a `DocumentType` part, and an `Idempotency-Key` so a retry after a timeout never stores the
 * file twice (the retry answers the first Document with `Idempotent-Replayed: true`).
 *
 * The server decides the file type from the bytes (PDF, JPEG or PNG; anything else is 415),
 * takes at most 10 MiB (413) and answers 201 with the Document and a fresh DownloadUrl.
 *
 * Run against `npm start` (demo data); each run uploads a new document:
 *   npx tsx examples/uploader.ts [file.pdf] [LoadNumber] [DocumentType]
 */
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';

export interface UploaderOptions {
  apiUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  audience: string;
}

export interface UploadedDocument {
  Id: string;
  AttachmentType: string;
  AttachmentPath: string;
  AttachmentSize: number;
  DownloadUrl: string;
  [field: string]: unknown;
}

async function tokenFor(options: UploaderOptions): Promise<string> {
  const response = await fetch(`${options.authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: options.clientId, client_secret: options.clientSecret, audience: options.audience, grant_type: 'client_credentials' }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token) throw new Error(`token request failed: ${response.status} ${body.error}`);
  return body.access_token;
}

/**
 * Uploads `content` as a document of the load. The same `idempotencyKey` makes a retry safe:
 * the first upload's answer comes back and nothing is stored twice.
 */
export async function uploadLoadDocument(
  options: UploaderOptions,
  upload: { loadNumber: string; documentType: string; fileName: string; content: Uint8Array; idempotencyKey?: string },
): Promise<{ status: number; replayed: boolean; document: UploadedDocument }> {
  const form = new FormData();
  form.set('DocumentType', upload.documentType);
  // The declared type is only a hint: the server reads the bytes.
  form.set('File', new Blob([upload.content], { type: 'application/octet-stream' }), upload.fileName);
  const idempotencyKey = upload.idempotencyKey ?? randomUUID();
  const token = await tokenFor(options);
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(`${options.apiUrl}/api/p/v1.0/loads/${encodeURIComponent(upload.loadNumber)}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'idempotency-key': idempotencyKey },
      body: form,
    });
    const body = (await response.json()) as UploadedDocument & { Title?: string; Detail?: string; Errors?: unknown };
    // The first attempt may still be running (a retry after a timeout): wait and ask again.
    if (response.status === 409 && String(body.Type ?? '').endsWith('/RequestInProgress') && attempt < 5) {
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      continue;
    }
    if (response.status !== 201) throw new Error(`upload refused: ${response.status} ${body.Title ?? ''} ${body.Detail ?? ''} ${JSON.stringify(body.Errors ?? {})}`);
    return { status: response.status, replayed: response.headers.get('idempotent-replayed') === 'true', document: body };
  }
}

/** A tiny valid PDF, for trying the uploader without a file at hand. */
export function samplePdf(): Uint8Array {
  return new TextEncoder().encode('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n');
}

async function main(): Promise<void> {
  const [file, loadNumber = 'L-1001', documentType = 'Proof of Delivery'] = process.argv.slice(2);
  const options: UploaderOptions = {
    apiUrl: process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3000',
    authUrl: process.env.PUBLIC_AUTH_URL ?? 'http://127.0.0.1:3001',
    clientId: process.env.CLIENT_ID ?? 'prairie-integration',
    clientSecret: process.env.CLIENT_SECRET ?? 'demo-secret-prairie-all-0001',
    audience: process.env.API_AUDIENCE ?? 'https://api.freight.local',
  };
  const content = file ? new Uint8Array(await readFile(file)) : samplePdf();
  const result = await uploadLoadDocument(options, { loadNumber, documentType, fileName: file ? basename(file) : 'pod.pdf', content });
  console.log(JSON.stringify(result.document, null, 2));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
