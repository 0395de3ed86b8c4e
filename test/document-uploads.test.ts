import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { UPLOAD_STAGING_DIR } from '../adapters/rest/multipart-upload.js';
import { createDocument } from '../core/documents/create-document.js';
import { CHUNK_BYTES } from '../core/documents/document-content.js';
import { findLoadOwner } from '../core/documents/document.repository.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { documentFixture, HEARTLAND_VISIBILITY_URL } from './support/document-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: documentFixture() });
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';
const MiB = 1024 * 1024;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(64), Buffer.from([0xff, 0xd9])]);

/** A multipart body as an integration's HTTP client builds it. */
function form(parts: { file?: { bytes: Buffer; name: string; type?: string }; DocumentType?: string; extra?: Record<string, string> }): FormData {
  const data = new FormData();
  if (parts.file) data.append('File', new Blob([parts.file.bytes], { type: parts.file.type ?? 'application/octet-stream' }), parts.file.name);
  if (parts.DocumentType !== undefined) data.append('DocumentType', parts.DocumentType);
  for (const [name, value] of Object.entries(parts.extra ?? {})) data.append(name, value);
  return data;
}

const pdfForm = (DocumentType = 'Bill of Lading', name = 'bol.pdf') => form({ file: { bytes: PDF, name, type: 'application/pdf' }, DocumentType });

function upload(path: string, body: FormData | string, as = 'tn_prairie-all', headers: Record<string, string> = {}) {
  return t.api(path, { method: 'POST', as, body, headers });
}

/** Document rows and their pieces of bytes: a refused upload adds to neither. */
async function documentCount(): Promise<{ documents: number; pieces: number }> {
  const documents = await t.db.selectFrom('documents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  const pieces = await t.db.selectFrom('document_chunks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return { documents: Number(documents.n), pieces: Number(pieces.n) };
}

async function stagedFiles(): Promise<number> {
  try {
    return (await readdir(UPLOAD_STAGING_DIR)).length;
  } catch {
    return 0;
  }
}

/** Staged files are removed just after the answer is written: wait (briefly) until they are. */
async function expectNoStagedFiles() {
  await vi.waitFor(async () => expect(await stagedFiles()).toBe(0), { timeout: 2000, interval: 20 });
}

/** Whatever `action` answers, it stores nothing: no row and no staged bytes are left behind. */
async function expectNothingStored(action: () => Promise<{ status: number; body: any }>, status: number, field?: string) {
  await expectNoStagedFiles();
  const rows = await documentCount();
  const response = await action();
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.Status).toBe(status);
  if (field) expect(Object.keys(response.body.Errors ?? {})).toContain(field);
  expect(await documentCount()).toEqual(rows);
  await expectNoStagedFiles();
  return response;
}

async function outboxOf(documentId: string) {
  const rows = await t.db.selectFrom('outbox').selectAll().execute();
  return rows
    .map((row) => ({ ...row, payload: JSON.parse(row.payload) }))
    .filter((row) => row.payload.id === documentId || JSON.stringify(row.payload.diff ?? '').includes(documentId))
    .sort((a, b) => a.type.localeCompare(b.type));
}

describeAuthCases(() => t, {
  method: 'POST',
  path: `${V}/loads/L-1001/documents`,
  scope: 'load:update',
  body: pdfForm(),
  okStatus: 201,
  otherTenantPath: `${V}/loads/H-1/documents`,
  missingPath: `${V}/loads/L-0000/documents`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/loads/L-2001/documents` },
});
describeAuthCases(() => t, {
  method: 'POST',
  path: `${V}/trips/trp_1001_a/documents`,
  scope: 'trip:update',
  body: pdfForm(),
  okStatus: 201,
  otherTenantPath: `${V}/trips/trp_h_1/documents`,
  missingPath: `${V}/trips/trp_nowhere/documents`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/trips/trp_2001_a/documents` },
});
describeAuthCases(() => t, {
  method: 'POST',
  path: `${V}/carriers/car_redriver/documents`,
  scope: 'carrier:update',
  body: pdfForm('Carrier Agreement'),
  okStatus: 201,
  otherTenantPath: `${V}/carriers/car_harbor_tow/documents`,
  missingPath: `${V}/carriers/car_nowhere/documents`,
});
describeAuthCases(() => t, {
  method: 'DELETE',
  path: `${V}/loads/L-1001/documents/doc_1001_ratecon`,
  scope: 'load:update',
  okStatus: 204,
  otherTenantPath: `${V}/loads/H-1/documents/doc_h_1_bol`,
  missingPath: `${V}/loads/L-0000/documents/doc_h_1_bol`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/loads/L-2001/documents/doc_2001_pod` },
});
describeAuthCases(() => t, {
  method: 'DELETE',
  path: `${V}/trips/trp_1001_a/documents/doc_1001_a_pop`,
  scope: 'trip:update',
  okStatus: 204,
  otherTenantPath: `${V}/trips/trp_h_1/documents/doc_h_1_a_pod`,
  missingPath: `${V}/trips/trp_nowhere/documents/doc_h_1_a_pod`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/trips/trp_2001_a/documents/doc_h_1_a_pod` },
});
describeAuthCases(() => t, {
  method: 'DELETE',
  path: `${V}/carriers/car_redriver/documents/doc_car_authority`,
  scope: 'carrier:update',
  okStatus: 204,
  otherTenantPath: `${V}/carriers/car_harbor_tow/documents/doc_h_car_agreement`,
  missingPath: `${V}/carriers/car_nowhere/documents/doc_h_car_agreement`,
});

describe('POST /loads/{loadNumber}/documents', () => {
  it('stores the file and answers 201 with the Document of docs/api-rules.md#documents', async () => {
    const response = await upload(`${V}/loads/L-1001/documents`, pdfForm('bill of lading', 'scan 7.pdf'));
    expect(response.status, response.text).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^doc_/),
      AttachmentPath: 'scan 7_20261122120000.pdf',
      AttachmentType: 'Bill of Lading',
      AttachmentSize: PDF.length,
      UploadedAt: '2026-11-22T12:00:00.000Z',
      ParentId: 'L-1001',
      ParentType: 'Load',
      UploadedBy: 'tn_prairie-all',
      DownloadUrl: expect.stringMatching(new RegExp(`^${t.apiUrl}/files/`)),
      ExpiresAt: '2026-11-22T12:10:00.000Z',
    });
    const download = await fetch(response.body.DownloadUrl);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toMatch(/^application\/pdf/);
    expect(Buffer.from(await download.arrayBuffer()).equals(PDF)).toBe(true);

    const list = await t.api(`${V}/loads/L-1001/documents`, { as: 'tn_prairie-all' });
    expect(list.body.map((d: any) => d.id)).toContain(response.body.id);
    const events = await outboxOf(response.body.id);
    expect(events.map((row) => row.type)).toEqual(['document.created', 'load.changed']);
    expect(events[0]!.subsidiary_id).toBe('sub_kc');
    await expectNoStagedFiles();
  });

  it('decides the type from the bytes: a PNG declared text/plain and named .txt is a PNG', async () => {
    const response = await upload(`${V}/loads/L-1001/documents`, form({ file: { bytes: PNG, name: 'notes.txt', type: 'text/plain' }, DocumentType: 'Shipping Labels' }));
    expect(response.status, response.text).toBe(201);
    const download = await fetch(response.body.DownloadUrl);
    expect(download.headers.get('content-type')).toMatch(/^image\/png/);
  });

  it('takes a JPEG', async () => {
    const response = await upload(`${V}/loads/L-1001/documents`, form({ file: { bytes: JPEG, name: 'pickup.jpg', type: 'image/jpeg' }, DocumentType: 'Proof of Pickup' }));
    expect(response.status, response.text).toBe(201);
  });

  it('refuses a text file named .pdf and declared application/pdf with 415, storing nothing', async () => {
    const response = await expectNothingStored(
      () => upload(`${V}/loads/L-1001/documents`, form({ file: { bytes: Buffer.from('just some text, honest'), name: 'bol.pdf', type: 'application/pdf' }, DocumentType: 'Bill of Lading' })),
      415,
    );
    expect(response.body.Type).toMatch(/\/errors\/UnsupportedMediaType$/);
  });

  it('refuses an empty file with 415', async () => {
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, form({ file: { bytes: Buffer.alloc(0), name: 'empty.pdf' }, DocumentType: 'Bill of Lading' })), 415);
  });

  it('refuses a body that is not multipart with 415', async () => {
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, JSON.stringify({ DocumentType: 'Bill of Lading' })), 415);
  });

  it('names a missing File or DocumentType part (400), storing nothing', async () => {
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, form({ DocumentType: 'Bill of Lading' })), 400, 'File');
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, form({ file: { bytes: PDF, name: 'bol.pdf' } })), 400, 'DocumentType');
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, form({ extra: { File: 'not a file' }, DocumentType: 'Bill of Lading' })), 400, 'File');
  });

  it('refuses unknown parts, unknown types and carrier types with 400, invoice-family types with 422', async () => {
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, form({ file: { bytes: PDF, name: 'a.pdf' }, DocumentType: 'Bill of Lading', extra: { Note: 'x' } })), 400, 'Note');
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, pdfForm('Napkin Sketch')), 400, 'DocumentType');
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, pdfForm('Carrier Agreement')), 400, 'DocumentType');
    const invoice = await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, pdfForm('Customer Invoice')), 422);
    expect(invoice.body.Type).toMatch(/\/errors\/Unprocessable\/ProtectedDocumentType$/);
  });

  it('checks the body before the load (400 for a missing load), and the load before the business rule (404, not 422)', async () => {
    await expectNothingStored(() => upload(`${V}/loads/L-0000/documents`, pdfForm('Napkin Sketch')), 400, 'DocumentType');
    await expectNothingStored(() => upload(`${V}/loads/L-0000/documents`, pdfForm('Invoice')), 404);
    await expectNothingStored(() => upload(`${V}/loads/L-0000/documents`, pdfForm()), 404);
  });

  it('answers 413 for a 10 MiB + 1 byte file, from the declared length, before reading it', async () => {
    const rows = await documentCount();
    const body = await new Response(form({ file: { bytes: Buffer.concat([PDF, Buffer.alloc(10 * MiB + 1 - PDF.length)]), name: 'big.pdf' }, DocumentType: 'Bill of Lading' })).arrayBuffer();
    const result = await rawDeclaredUpload(`${V}/loads/L-1001/documents`, body.byteLength, Buffer.from(body));
    expect(result.status).toBe(413);
    expect(result.body.Type).toMatch(/\/errors\/PayloadTooLarge$/);
    expect(await documentCount()).toEqual(rows);
    await expectNoStagedFiles();
  });

  it('takes exactly 10 MiB', async () => {
    const exact = form({ file: { bytes: Buffer.concat([PDF, Buffer.alloc(10 * MiB - PDF.length)]), name: 'exact.pdf' }, DocumentType: 'Bill of Lading' });
    const response = await upload(`${V}/loads/L-1001/documents`, exact);
    expect(response.status, response.text).toBe(201);
    expect(response.body.AttachmentSize).toBe(10 * MiB);
  });

  it('answers 413 without a Content-Length once the file passes 10 MiB, without reading the rest', async () => {
    const rows = await documentCount();
    const result = await rawChunkedUpload(`${V}/loads/L-1001/documents`, 40 * MiB);
    expect(result.status).toBe(413);
    // The server answered while the client was still sending: it stopped reading near the limit.
    expect(result.bytesSent).toBeLessThan(20 * MiB);
    expect(await documentCount()).toEqual(rows);
    await expectNoStagedFiles();
  });

  it('answers 413 on a declared length over the limit before the body arrives', async () => {
    const result = await rawDeclaredUpload(`${V}/loads/L-1001/documents`, 11 * MiB);
    expect(result.status).toBe(413);
    expect(result.bytesSent).toBeLessThan(MiB);
  });

  it('refuses a malformed multipart body with 400', async () => {
    const body = '--XYZ\r\nContent-Disposition: form-data; name="DocumentType"\r\n\r\nBill of Lading\r\n--XYZ\r\nContent-Disposition: form-data; name="File"; filename="a.pdf"\r\n\r\n%PDF-1.4 truncated';
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, body, 'tn_prairie-all', { 'content-type': 'multipart/form-data; boundary=XYZ' }), 400);
  });

  it('refuses a multipart content type without a boundary with 415', async () => {
    await expectNothingStored(() => upload(`${V}/loads/L-1001/documents`, 'x', 'tn_prairie-all', { 'content-type': 'multipart/form-data' }), 415);
  });
});

describe('storage in pieces', () => {
  /** A PDF file-type recognises, of `size` bytes, none of them alike. */
  const bigPdf = (size: number) => Buffer.concat([PDF, randomBytes(size - PDF.length)]);

  it('keeps a file in 256 KiB pieces of its tenant and serves it back whole', async () => {
    const bytes = bigPdf(2 * CHUNK_BYTES + 1000);
    const response = await upload(`${V}/loads/L-1001/documents`, form({ file: { bytes, name: 'long.pdf' }, DocumentType: 'Bill of Lading' }));
    expect(response.status, response.text).toBe(201);
    const pieces = await t.db.selectFrom('document_chunks').selectAll().where('document_id', '=', response.body.id).orderBy('seq').execute();
    expect(pieces.map((piece) => [piece.seq, piece.content.length, piece.tenant_id])).toEqual([
      [0, CHUNK_BYTES, 'tn_prairie'],
      [1, CHUNK_BYTES, 'tn_prairie'],
      [2, 1000, 'tn_prairie'],
    ]);
    const download = await fetch(response.body.DownloadUrl);
    expect(download.headers.get('content-length')).toBe(String(bytes.length));
    expect(Buffer.from(await download.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('stores parallel uploads each whole and apart', async () => {
    const files = Array.from({ length: 6 }, (_, index) => bigPdf(CHUNK_BYTES + 100 * index + 1));
    const answers = await Promise.all(
      files.map((bytes, index) => upload(`${V}/loads/L-1001/documents`, form({ file: { bytes, name: `parallel-${index}.pdf` }, DocumentType: 'Bill of Lading' }))),
    );
    for (const [index, answer] of answers.entries()) {
      expect(answer.status, answer.text).toBe(201);
      expect(answer.body.AttachmentSize).toBe(files[index]!.length);
      const download = await fetch(answer.body.DownloadUrl);
      expect(Buffer.from(await download.arrayBuffer()).equals(files[index]!)).toBe(true);
    }
    await expectNoStagedFiles();
  });

  it('leaves neither a row nor a piece when the write fails halfway through the bytes', async () => {
    const load = await findLoadOwner(t.db, { tenantId: 'tn_prairie', subsidiaryId: null }, 'L-1001');
    const before = await documentCount();
    async function* failing() {
      yield bigPdf(CHUNK_BYTES);
      throw new Error('the staged file went away');
    }
    const ctx = {
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'ops-app', Scopes: [] },
    };
    const file = { AttachmentType: 'Bill of Lading', FileName: 'gone.pdf', Size: 2 * CHUNK_BYTES, openContent: failing };
    await expect(createDocument(ctx, { kind: 'load', load: load! }, file)).rejects.toThrow('the staged file went away');
    expect(await documentCount()).toEqual(before);
  });
});

describe('POST /trips/{tripId}/documents', () => {
  it("stores a trip document, listed with the load's, and posts a Proof of Delivery to the visibility integration", async () => {
    const response = await upload(`${V}/trips/trp_1001_a/documents`, pdfForm('Proof of Delivery', 'pod.pdf'));
    expect(response.status, response.text).toBe(201);
    expect(response.body).toMatchObject({ ParentType: 'Trip', ParentId: 'trp_1001_a', AttachmentType: 'Proof of Delivery' });
    const loadList = await t.api(`${V}/loads/L-1001/documents`, { as: 'tn_prairie-all' });
    expect(loadList.body.map((d: any) => d.id)).toContain(response.body.id);
    const rows = await outboxOf(response.body.id);
    expect(rows.map((row) => `${row.kind}:${row.type}`)).toEqual(expect.arrayContaining(['event:document.created', 'event:load.changed']));
    const post = rows.find((row) => row.kind === 'visibility');
    expect(post).toMatchObject({ customer_id: 'cus_heartland' });
    expect(post!.payload).toMatchObject({ id: response.body.id, LoadNumber: 'L-1001', AttachmentType: 'Proof of Delivery' });
    expect(HEARTLAND_VISIBILITY_URL).toMatch(/^https:/);
  });

  it('posts nothing to visibility for other types', async () => {
    const response = await upload(`${V}/trips/trp_1001_a/documents`, pdfForm('Bill of Lading'));
    expect(response.status).toBe(201);
    expect((await outboxOf(response.body.id)).some((row) => row.kind === 'visibility')).toBe(false);
  });
});

describe('POST /carriers/{carrierId}/documents', () => {
  it('takes the carrier types, announced to every subscription of the tenant', async () => {
    for (const type of ['Carrier Agreement', 'Carrier Application', 'Carrier Authority', 'Carrier Onboarding', 'Other Documents']) {
      const response = await upload(`${V}/carriers/car_redriver/documents`, pdfForm(type.toUpperCase()));
      expect(response.status, response.text).toBe(201);
      expect(response.body).toMatchObject({ AttachmentType: type, ParentType: 'Carrier', ParentId: 'car_redriver' });
    }
    const response = await upload(`${V}/carriers/car_redriver/documents`, pdfForm('Other Documents'), 'sub_kc-all');
    expect(response.status).toBe(201);
    const rows = await outboxOf(response.body.id);
    expect(rows.map((row) => row.type)).toEqual(['carrier.document.created']);
    expect(rows[0]!.subsidiary_id).toBeNull();
  });

  it('refuses load and invoice types with 400', async () => {
    await expectNothingStored(() => upload(`${V}/carriers/car_redriver/documents`, pdfForm('Bill of Lading')), 400, 'DocumentType');
    await expectNothingStored(() => upload(`${V}/carriers/car_redriver/documents`, pdfForm('Carrier Invoice')), 400, 'DocumentType');
  });
});

describe('DELETE .../documents/{documentId}', () => {
  it('soft-deletes a load document: 204, then 404 everywhere and in no list, links dead, events emitted', async () => {
    const created = (await upload(`${V}/loads/L-1001/documents`, pdfForm())).body;
    const path = `${V}/loads/L-1001/documents/${created.id}`;
    const response = await t.api(path, { method: 'DELETE', as: 'tn_prairie-all' });
    expect(response.status, response.text).toBe(204);
    expect(response.text).toBe('');

    const list = await t.api(`${V}/loads/L-1001/documents`, { as: 'tn_prairie-all' });
    expect(list.body.map((d: any) => d.id)).not.toContain(created.id);
    expect((await t.api(path, { method: 'PATCH', as: 'tn_prairie-all', body: { DocumentType: 'Bill of Lading' } })).status).toBe(404);
    expect((await t.api(`${path}/history`, { as: 'tn_prairie-all' })).status).toBe(404);
    expect((await t.api(path, { method: 'DELETE', as: 'tn_prairie-all' })).status).toBe(404);
    expect((await fetch(created.DownloadUrl)).status).toBe(404);

    const rows = await outboxOf(created.id);
    const deleted = rows.find((row) => row.type === 'document.deleted');
    expect(deleted?.payload).toMatchObject({ id: created.id, LoadNumber: 'L-1001', DownloadUrl: null });
    expect(deleted?.subsidiary_id).toBe('sub_kc');
  });

  it('soft-deletes a trip document: gone from the trip list and the load list', async () => {
    const created = (await upload(`${V}/trips/trp_1001_a/documents`, pdfForm('Proof of Pickup'))).body;
    // A trip's document is not the load's own: the load route does not reach it.
    expect((await t.api(`${V}/loads/L-1001/documents/${created.id}`, { method: 'DELETE', as: 'tn_prairie-all' })).status).toBe(404);
    expect((await t.api(`${V}/trips/trp_1001_a/documents/${created.id}`, { method: 'DELETE', as: 'tn_prairie-all' })).status).toBe(204);
    for (const list of [`${V}/trips/trp_1001_a/documents`, `${V}/loads/L-1001/documents`]) {
      expect((await t.api(list, { as: 'tn_prairie-all' })).body.map((d: any) => d.id)).not.toContain(created.id);
    }
  });

  it('soft-deletes a carrier document with carrier.document.deleted', async () => {
    const created = (await upload(`${V}/carriers/car_redriver/documents`, pdfForm('Carrier Onboarding'))).body;
    expect((await t.api(`${V}/carriers/car_redriver/documents/${created.id}`, { method: 'DELETE', as: 'tn_prairie-all' })).status).toBe(204);
    const list = await t.api(`${V}/carriers/car_redriver/documents`, { as: 'tn_prairie-all' });
    expect(list.body.map((d: any) => d.id)).not.toContain(created.id);
    const rows = await outboxOf(created.id);
    expect(rows.map((row) => row.type)).toEqual(['carrier.document.created', 'carrier.document.deleted']);
    expect(rows[1]!.subsidiary_id).toBeNull();
  });

  it('refuses invoice-family documents with 422 and keeps them', async () => {
    const response = await t.api(`${V}/loads/L-1001/documents/doc_1001_invoice`, { method: 'DELETE', as: 'tn_prairie-all' });
    expect(response.status).toBe(422);
    expect(response.body.Type).toMatch(/\/errors\/Unprocessable\/ProtectedDocumentType$/);
    const list = await t.api(`${V}/loads/L-1001/documents`, { as: 'tn_prairie-all' });
    expect(list.body.map((d: any) => d.id)).toContain('doc_1001_invoice');
  });

  it('needs no If-Match', async () => {
    const created = (await upload(`${V}/loads/L-1001/documents`, pdfForm())).body;
    const response = await t.api(`${V}/loads/L-1001/documents/${created.id}`, { method: 'DELETE', as: 'tn_prairie-all', headers: { 'if-match': '"whatever"' } });
    expect(response.status).toBe(204);
  });
});

describe('OpenAPI document', () => {
  it('describes the multipart bodies and the answers of the upload routes', async () => {
    const doc = (await fetch(`${t.apiUrl}/openapi.json`).then((r) => r.json())) as any;
    for (const [path, types] of [
      ['/api/p/v{version}/loads/{loadNumber}/documents', 'Proof of Delivery'],
      ['/api/p/v{version}/trips/{tripId}/documents', 'Bill of Lading'],
      ['/api/p/v{version}/carriers/{carrierId}/documents', 'Carrier Onboarding'],
    ] as const) {
      const operation = doc.paths[path].post;
      const multipart = operation.requestBody.content['multipart/form-data'];
      expect(Object.keys(operation.requestBody.content)).toEqual(['multipart/form-data']);
      expect(multipart.schema.required).toEqual(['File', 'DocumentType']);
      expect(multipart.schema.properties.File).toMatchObject({ type: 'string', format: 'binary' });
      expect(multipart.schema.properties.DocumentType.enum).toContain(types);
      expect(multipart.encoding.File.contentType).toBe('application/pdf, image/jpeg, image/png');
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '404', '413', '415', '429']));
    }
    expect(doc.paths['/api/p/v{version}/loads/{loadNumber}/documents'].post.responses['422']).toBeDefined();
    expect(Object.keys(doc.paths['/api/p/v{version}/loads/{loadNumber}/documents/{documentId}'].delete.responses)).toEqual(
      expect.arrayContaining(['204', '404', '422']),
    );
  });
});

/** Streams a multipart upload of `fileBytes` with chunked encoding until the server answers. */
async function rawChunkedUpload(path: string, fileBytes: number): Promise<{ status: number; bytesSent: number }> {
  const token = await t.token('tn_prairie-all');
  const url = new URL(t.apiUrl + path);
  return new Promise((resolve, reject) => {
    let bytesSent = 0;
    let answered = false;
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'multipart/form-data; boundary=XYZ' } },
      (res) => {
        answered = true;
        res.resume();
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, bytesSent });
        });
      },
    );
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const head = Buffer.from('--XYZ\r\nContent-Disposition: form-data; name="DocumentType"\r\n\r\nBill of Lading\r\n--XYZ\r\nContent-Disposition: form-data; name="File"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n');
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    const pump = () => {
      while (!answered && bytesSent < fileBytes) {
        const piece = bytesSent === 0 ? Buffer.concat([head, PDF]) : chunk;
        bytesSent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!answered) req.end('\r\n--XYZ--\r\n');
    };
    pump();
  });
}

/** Declares `declared` bytes, sends only the first part, and waits for the answer. */
async function rawDeclaredUpload(path: string, declared: number, whole?: Buffer): Promise<{ status: number; bytesSent: number; body: any }> {
  const token = await t.token('tn_prairie-all');
  const url = new URL(t.apiUrl + path);
  return new Promise((resolve, reject) => {
    const head = whole ?? Buffer.from('--XYZ\r\nContent-Disposition: form-data; name="File"; filename="big.pdf"\r\n\r\n%PDF-1.4\n');
    const boundary = whole ? whole.toString('latin1', 0, 200).split('\r\n')[0]!.slice(2) : 'XYZ';
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(declared) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, bytesSent: head.length, body: JSON.parse(text) });
        });
      },
    );
    req.on('error', (error) => (whole ? undefined : reject(error)));
    req.write(head);
  });
}
