import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../core/auth/scopes.js';
import { createCaller } from '../core/router.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { documentFixture, PDF_BASE64 } from './support/document-fixture.js';
import { storedContent } from './support/stored-content.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: documentFixture() });
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';
const loadDoc = (loadNumber: string, documentId: string) => `${V}/loads/${loadNumber}/documents/${documentId}`;
const tripDoc = (tripId: string, documentId: string) => `${V}/trips/${tripId}/documents/${documentId}`;
const patch = (path: string, body: unknown, as = 'prairie-integration', headers?: Record<string, string>) =>
  t.api(path, { method: 'PATCH', as, body, ...(headers ? { headers } : {}) });

/** Internal apps create documents through the tRPC procedures, acting for a client. */
function internal(options: { tenantId?: string; subsidiaryId?: string | null; clientId?: string; scopes?: string[] } = {}) {
  return createCaller({
    db: t.db,
    clock: t.clock,
    config: t.config,
    principal: {
      TenantId: options.tenantId ?? 'tn_prairie',
      SubsidiaryId: options.subsidiaryId ?? null,
      ClientId: options.clientId ?? 'ops-app',
      Scopes: options.scopes ?? [...SCOPES],
    },
  });
}

async function newLoadDocument(loadNumber = 'L-1001', AttachmentType = 'Bill of Lading') {
  return internal().documents.createLoadDocument({ LoadNumber: loadNumber, AttachmentType, FileName: 'scan.pdf', ContentBase64: PDF_BASE64 });
}

async function newTripDocument(tripId = 'trp_1001_a', AttachmentType = 'Proof of Pickup') {
  return internal().documents.createTripDocument({ TripId: tripId, AttachmentType, FileName: 'trip-scan.jpg', ContentBase64: PDF_BASE64 });
}

async function outbox(filter: { kind?: string; type?: string; customerId?: string } = {}) {
  let query = t.db.selectFrom('outbox').selectAll().orderBy('created_at').orderBy('id');
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.type) query = query.where('type', '=', filter.type);
  if (filter.customerId) query = query.where('customer_id', '=', filter.customerId);
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) }));
}

/** Outbox rows that mention a document (events and visibility posts carry its id), by type. */
async function outboxFor(documentId: string) {
  return (await outbox())
    .filter((row) => row.payload.id === documentId || JSON.stringify(row.payload.diff ?? '').includes(documentId))
    .sort((a, b) => a.type.localeCompare(b.type));
}

/** Rows appended by `action` (rows of one instant have no order among themselves, so by type). */
async function appendedBy(action: () => Promise<unknown>) {
  const before = new Set((await outbox()).map((row) => row.id));
  await action();
  return (await outbox()).filter((row) => !before.has(row.id)).sort((a, b) => a.type.localeCompare(b.type));
}

function expectProblem(response: { status: number; body: any; headers: Headers }, status: number, category: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body.Status).toBe(status);
  expect(response.body.Type).toBe(`${t.apiUrl}/errors/${category}`);
}

const ok = { DocumentType: 'Bill of Lading' };

describeAuthCases(() => t, {
  method: 'GET',
  path: `${V}/loads/L-1001/documents`,
  scope: 'load:read',
  otherTenantPath: `${V}/loads/H-1/documents`,
  missingPath: `${V}/loads/L-0000/documents`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/loads/L-2001/documents` },
});

describeAuthCases(() => t, {
  method: 'PATCH',
  path: loadDoc('L-1001', 'doc_1001_bol'),
  scope: 'load:update',
  body: ok,
  otherTenantPath: loadDoc('H-1', 'doc_h_1_bol'),
  missingPath: loadDoc('L-0000', 'doc_h_1_bol'),
  otherSubsidiary: { as: 'sub_kc-all', path: loadDoc('L-2001', 'doc_2001_pod') },
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${loadDoc('L-1001', 'doc_1001_bol')}/history`,
  scope: 'load:read',
  otherTenantPath: `${loadDoc('H-1', 'doc_h_1_bol')}/history`,
  missingPath: `${loadDoc('L-0000', 'doc_h_1_bol')}/history`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${loadDoc('L-2001', 'doc_2001_pod')}/history` },
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${V}/trips/trp_1001_a/documents`,
  scope: 'trip:read',
  otherTenantPath: `${V}/trips/trp_h_1/documents`,
  missingPath: `${V}/trips/trp_nowhere/documents`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/trips/trp_2001_a/documents` },
});

describeAuthCases(() => t, {
  method: 'PATCH',
  path: tripDoc('trp_1001_a', 'doc_1001_a_pop'),
  scope: 'trip:update',
  body: { DocumentType: 'Proof of Pickup' },
  otherTenantPath: tripDoc('trp_h_1', 'doc_h_1_a_pod'),
  missingPath: tripDoc('trp_nowhere', 'doc_h_1_a_pod'),
  otherSubsidiary: { as: 'sub_kc-all', path: tripDoc('trp_2001_a', 'doc_2001_pod') },
});

describeAuthCases(() => t, {
  method: 'GET',
  path: `${tripDoc('trp_1001_a', 'doc_1001_a_pop')}/history`,
  scope: 'trip:read',
  otherTenantPath: `${tripDoc('trp_h_1', 'doc_h_1_a_pod')}/history`,
  missingPath: `${tripDoc('trp_nowhere', 'doc_h_1_a_pod')}/history`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${tripDoc('trp_2001_a', 'doc_2001_pod')}/history` },
});

describe('GET /loads/{loadNumber}/documents', () => {
  it("lists the load's own documents and its trips' documents, each with its owner", async () => {
    const response = await t.api(`${V}/loads/L-1001/documents`, { as: 'prairie-readonly' });
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    const rows = response.body.filter((d: any) => d.id.startsWith('doc_1001'));
    expect(rows.map((d: any) => [d.id, d.ParentType, d.ParentId])).toEqual([
      ['doc_1001_ratecon', 'Load', 'L-1001'],
      ['doc_1001_bol', 'Load', 'L-1001'],
      ['doc_1001_invoice', 'Load', 'L-1001'],
      ['doc_1001_a_pop', 'Trip', 'trp_1001_a'],
    ]);
  });

  it('returns the Document shape of docs/api-rules.md#documents exactly', async () => {
    const response = await t.api(`${V}/loads/L-1001/documents`, { as: 'prairie-readonly' });
    const ratecon = response.body.find((d: any) => d.id === 'doc_1001_ratecon');
    expect(Object.keys(ratecon).sort()).toEqual(
      ['id', 'AttachmentPath', 'AttachmentType', 'AttachmentSize', 'UploadedAt', 'ParentId', 'ParentType', 'UploadedBy', 'DownloadUrl', 'ExpiresAt'].sort(),
    );
    expect(ratecon).toEqual({
      id: 'doc_1001_ratecon',
      AttachmentPath: 'ratecon_20261118140000.pdf',
      AttachmentType: 'Customer Rate Confirmation',
      AttachmentSize: Buffer.from(PDF_BASE64, 'base64').length,
      UploadedAt: '2026-11-18T14:00:00.000Z',
      ParentId: 'L-1001',
      ParentType: 'Load',
      UploadedBy: 'usr_ops_1',
      DownloadUrl: expect.stringMatching(new RegExp(`^${t.apiUrl}/files/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$`)),
      ExpiresAt: '2026-11-22T12:10:00.000Z',
    });
  });

  it('leaves deleted documents out', async () => {
    const response = await t.api(`${V}/loads/L-1001/documents`, { as: 'prairie-readonly' });
    const ids = response.body.map((d: any) => d.id);
    expect(ids).not.toContain('doc_1001_deleted');
    expect(ids).not.toContain('doc_1001_a_deleted');
  });

  it('answers a load without documents with an empty array', async () => {
    const response = await t.api(`${V}/loads/L-1990/documents`, { as: 'prairie-readonly' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it("shows a subsidiary-bound client its own subsidiary's load", async () => {
    const response = await t.api(`${V}/loads/L-2001/documents`, { as: 'sub_dal-all' });
    expect(response.status).toBe(200);
    expect(response.body.map((d: any) => d.id)).toEqual(['doc_2001_pod']);
  });
});

describe('PATCH /loads/{loadNumber}/documents/{documentId} (docs/api-rules.md#documents)', () => {
  it('200: changes the type and keeps id, file and upload facts', async () => {
    const created = await newLoadDocument();
    const response = await patch(loadDoc('L-1001', created.id), { DocumentType: 'Customer Load Confirmation' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual({ ...created, AttachmentType: 'Customer Load Confirmation', DownloadUrl: expect.any(String) });
    // Signed over id and expiry only: the same instant gives the same link as before the change.
    expect(response.body.DownloadUrl).toBe(created.DownloadUrl);
    const row = await t.db.selectFrom('documents').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.attachment_type).toBe('Customer Load Confirmation');
    expect(row.file_name).toBe('scan.pdf');
    expect((await storedContent(t.db, created.id)).toString('base64')).toBe(PDF_BASE64);
  });

  it.each([
    ['proof of delivery', 'Proof of Delivery'],
    ['BILL OF LADING', 'Bill of Lading'],
    ['customer RATE and load CONFIRMATION', 'Customer Rate and Load Confirmation'],
    ['signed customer rate confirmation', 'Signed Customer Rate Confirmation'],
    ['Shipping labels', 'Shipping Labels'],
    ['PROOF of pickup', 'Proof of Pickup'],
    ['customer rate confirmation', 'Customer Rate Confirmation'],
    ['Customer Load Confirmation', 'Customer Load Confirmation'],
  ])('accepts %j case-insensitively and stores %j', async (given, stored) => {
    const created = await newLoadDocument('L-2001', 'Bill of Lading');
    const response = await patch(loadDoc('L-2001', created.id), { DocumentType: given });
    expect(response.status, response.text).toBe(200);
    expect(response.body.AttachmentType).toBe(stored);
    const row = await t.db.selectFrom('documents').select('attachment_type').where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row.attachment_type).toBe(stored);
  });

  it('accepts the four JSON media types of docs/api-rules.md#requests-and-responses', async () => {
    for (const type of ['application/json', 'text/json', 'application/vnd.waybill+json', 'application/json-patch+json']) {
      const response = await patch(loadDoc('L-1001', 'doc_1001_bol'), ok, 'prairie-integration', { 'content-type': type });
      expect(response.status, `${type}: ${response.text}`).toBe(200);
    }
  });

  describe('400', () => {
    it.each([
      ['missing', {}],
      ['empty', { DocumentType: '' }],
      ['unrecognised', { DocumentType: 'Pizza Menu' }],
      ['not a load type (a carrier type)', { DocumentType: 'Carrier Agreement' }],
      ['not a load type, any casing', { DocumentType: 'carrier authority' }],
      ['surrounded by blanks', { DocumentType: ' Bill of Lading ' }],
      ['not a string', { DocumentType: 42 }],
      ['null', { DocumentType: null }],
    ])('DocumentType %s', async (_label, body) => {
      const response = await patch(loadDoc('L-1001', 'doc_1001_bol'), body);
      expectProblem(response, 400, 'Validation');
      expect(Object.keys(response.body.Errors)).toEqual(['DocumentType']);
    });

    it('any other body property', async () => {
      const response = await patch(loadDoc('L-1001', 'doc_1001_bol'), { DocumentType: 'Bill of Lading', AttachmentPath: 'x.pdf' });
      expectProblem(response, 400, 'Validation');
      expect(response.body.Errors).toHaveProperty('AttachmentPath');
    });

    it('comes before the record lookup (a bad type on a missing load is 400, not 404)', async () => {
      const response = await patch(loadDoc('L-0000', 'doc_nowhere'), { DocumentType: 'Pizza Menu' });
      expectProblem(response, 400, 'Validation');
    });

    it('changes nothing', async () => {
      await patch(loadDoc('L-1001', 'doc_1001_ratecon'), { DocumentType: 'Carrier Agreement' });
      const row = await t.db.selectFrom('documents').select('attachment_type').where('id', '=', 'doc_1001_ratecon').executeTakeFirstOrThrow();
      expect(row.attachment_type).toBe('Customer Rate Confirmation');
    });
  });

  describe('404', () => {
    const cases: Array<[string, string]> = [
      ['the load does not exist', loadDoc('L-0000', 'doc_1001_bol')],
      ['the document does not exist', loadDoc('L-1001', 'doc_nowhere')],
      ['the document is deleted', loadDoc('L-1001', 'doc_1001_deleted')],
      ["the document belongs to the load's trip", loadDoc('L-1001', 'doc_1001_a_pop')],
      ['the document belongs to another load', loadDoc('L-1001', 'doc_2001_pod')],
      ["the document belongs to another tenant's load", loadDoc('L-1001', 'doc_h_1_bol')],
      ['the document is a carrier document', loadDoc('L-1001', 'doc_car_agreement')],
    ];
    it.each(cases)('when %s', async (_label, path) => {
      const response = await patch(path, ok);
      expectProblem(response, 404, 'NotFound');
    });

    it('refuses a trip document sent to the load route without changing it', async () => {
      await patch(loadDoc('L-1001', 'doc_1001_a_pop'), { DocumentType: 'Bill of Lading' });
      const row = await t.db.selectFrom('documents').select('attachment_type').where('id', '=', 'doc_1001_a_pop').executeTakeFirstOrThrow();
      expect(row.attachment_type).toBe('Proof of Pickup');
    });
  });

  describe('422', () => {
    it.each(['Invoice', 'customer invoice', 'Supplemental Invoice', 'SUMMARY INVOICE', 'Summary Excel', 'Merged', 'Merged Invoice', 'Carrier Invoice'])(
      'refuses the invoice-family target type %j',
      async (type) => {
        const response = await patch(loadDoc('L-1001', 'doc_1001_ratecon'), { DocumentType: type });
        expectProblem(response, 422, 'Unprocessable/ProtectedDocumentType');
      },
    );

    it('refuses to change a document whose current type is invoice-family', async () => {
      const response = await patch(loadDoc('L-1001', 'doc_1001_invoice'), { DocumentType: 'Bill of Lading' });
      expectProblem(response, 422, 'Unprocessable/ProtectedDocumentType');
      const row = await t.db.selectFrom('documents').select('attachment_type').where('id', '=', 'doc_1001_invoice').executeTakeFirstOrThrow();
      expect(row.attachment_type).toBe('Invoice');
    });

    it('comes after the lookup (a protected type on a missing document is 404)', async () => {
      const response = await patch(loadDoc('L-1001', 'doc_nowhere'), { DocumentType: 'Invoice' });
      expectProblem(response, 404, 'NotFound');
    });

    it('writes no history and no outbox rows', async () => {
      const before = (await outbox()).length;
      await patch(loadDoc('L-1001', 'doc_1001_invoice'), { DocumentType: 'Proof of Delivery' });
      expect((await outbox()).length).toBe(before);
      const history = await t.api(`${loadDoc('L-1001', 'doc_1001_invoice')}/history`, { as: 'prairie-integration' });
      expect(history.body.Total).toBe(0);
    });
  });

  it('429 with Retry-After when the rate limit is passed', async () => {
    const limited = await startTestApp({ fixture: documentFixture(), env: { RATE_LIMITS: 'on' } });
    try {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<TestApp['api']>> | undefined;
      for (let i = 0; i < 11; i++) {
        last = await limited.api(loadDoc('L-1001', 'doc_1001_bol'), { method: 'PATCH', as: 'prairie-integration', body: ok });
        statuses.push(last.status);
      }
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
      expect(statuses[10]).toBe(429);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(last!.body.Type).toBe(`${limited.apiUrl}/errors/RateLimited`);
    } finally {
      await limited.close();
    }
  });
});

describe('document history', () => {
  it('records each actual change with From, To, ChangedAt and the client id, oldest first', async () => {
    const created = await newLoadDocument();
    await patch(loadDoc('L-1001', created.id), { DocumentType: 'proof of pickup' });
    t.clock.advance(60_000);
    await patch(loadDoc('L-1001', created.id), { DocumentType: 'Proof of Pickup' }, 'prairie-integration');
    await patch(loadDoc('L-1001', created.id), { DocumentType: 'Shipping Labels' }, 'tn_prairie-all');
    const response = await t.api(`${loadDoc('L-1001', created.id)}/history`, { as: 'prairie-readonly' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      Items: [
        { From: 'Bill of Lading', To: 'Proof of Pickup', ChangedAt: '2026-11-22T12:00:00.000Z', ChangedBy: 'prairie-integration' },
        { From: 'Proof of Pickup', To: 'Shipping Labels', ChangedAt: '2026-11-22T12:01:00.000Z', ChangedBy: 'tn_prairie-all' },
      ],
      Page: 0,
      PageSize: 50,
      Total: 2,
      NextCursor: null,
    });
    t.clock.set('2026-11-22T12:00:00Z');
  });

  it('pages', async () => {
    const created = await newLoadDocument();
    for (const type of ['Proof of Pickup', 'Shipping Labels', 'Bill of Lading']) await patch(loadDoc('L-1001', created.id), { DocumentType: type });
    const response = await t.api(`${loadDoc('L-1001', created.id)}/history?Page=1&PageSize=2`, { as: 'prairie-readonly' });
    expect(response.body).toEqual({
      Items: [{ From: 'Shipping Labels', To: 'Bill of Lading', ChangedAt: expect.any(String), ChangedBy: 'prairie-integration' }],
      Page: 1,
      PageSize: 2,
      Total: 3,
      NextCursor: null,
    });
  });

  it('is empty for a document never changed', async () => {
    const response = await t.api(`${loadDoc('L-1001', 'doc_1001_ratecon')}/history`, { as: 'prairie-readonly' });
    expect(response.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 0, NextCursor: null });
  });

  it.each([
    ['a deleted document', loadDoc('L-1001', 'doc_1001_deleted')],
    ["a trip's document through the load route", loadDoc('L-1001', 'doc_1001_a_pop')],
    ["another load's document", loadDoc('L-1001', 'doc_2001_pod')],
  ])('is 404 for %s', async (_label, path) => {
    expectProblem(await t.api(`${path}/history`, { as: 'prairie-readonly' }), 404, 'NotFound');
  });
});

describe('events and visibility posts', () => {
  it('emits document.updated and load.changed, routed to the load subsidiary, when the type changes', async () => {
    const created = await newLoadDocument();
    let response: Awaited<ReturnType<typeof patch>> | undefined;
    const rows = await appendedBy(async () => {
      response = await patch(loadDoc('L-1001', created.id), { DocumentType: 'Shipping Labels' });
    });
    expect(rows.map((row) => [row.kind, row.type, row.tenant_id, row.subsidiary_id])).toEqual([
      ['event', 'document.updated', 'tn_prairie', 'sub_kc'],
      ['event', 'load.changed', 'tn_prairie', 'sub_kc'],
    ]);
    const [updated, changed] = rows;
    expect(updated!.payload).toEqual({
      ...response!.body,
      LoadNumber: 'L-1001',
      diff: { changes: [{ Field: 'AttachmentType', From: 'Bill of Lading', To: 'Shipping Labels' }] },
    });
    expect(changed!.payload).toEqual({
      LoadNumber: 'L-1001',
      Status: expect.any(String),
      diff: { changes: [{ Field: `Documents[${created.id}].AttachmentType`, From: 'Bill of Lading', To: 'Shipping Labels' }] },
    });
  });

  it('emits nothing when the type does not change (other than Proof of Delivery)', async () => {
    const created = await newLoadDocument();
    const before = (await outbox()).length;
    const response = await patch(loadDoc('L-1001', created.id), { DocumentType: 'bill of lading' });
    expect(response.status).toBe(200);
    expect((await outbox()).length).toBe(before);
    const history = await t.api(`${loadDoc('L-1001', created.id)}/history`, { as: 'prairie-readonly' });
    expect(history.body.Total).toBe(0);
  });

  it("posts to the customer's visibility integration on every Proof of Delivery call, changed or not", async () => {
    const created = await newLoadDocument();
    const first = await patch(loadDoc('L-1001', created.id), { DocumentType: 'Proof of Delivery' });
    const second = await patch(loadDoc('L-1001', created.id), { DocumentType: 'proof of delivery' });
    const third = await patch(loadDoc('L-1001', created.id), { DocumentType: 'PROOF OF DELIVERY' });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    const posts = (await outbox({ kind: 'visibility' })).filter((row) => row.payload.id === created.id);
    expect(posts).toHaveLength(3);
    for (const [index, post] of posts.entries()) {
      expect(post).toMatchObject({ type: 'document', tenant_id: 'tn_prairie', subsidiary_id: 'sub_kc', customer_id: 'cus_heartland', dispatched_at: null });
      expect(post.payload).toEqual({ ...[first, second, third][index]!.body, LoadNumber: 'L-1001' });
    }
    // Only the first call changed the type: one history entry, one pair of change events.
    const history = await t.api(`${loadDoc('L-1001', created.id)}/history`, { as: 'prairie-readonly' });
    expect(history.body.Items).toEqual([expect.objectContaining({ From: 'Bill of Lading', To: 'Proof of Delivery' })]);
    const updates = (await outbox({ type: 'document.updated' })).filter((row) => row.payload.id === created.id);
    expect(updates).toHaveLength(1);
  });

  it('posts nothing for other types', async () => {
    const created = await newLoadDocument();
    const before = (await outbox({ kind: 'visibility' })).length;
    await patch(loadDoc('L-1001', created.id), { DocumentType: 'Proof of Pickup' });
    expect((await outbox({ kind: 'visibility' })).length).toBe(before);
  });

  it('posts nothing when the customer has no visibility integration', async () => {
    const before = (await outbox({ kind: 'visibility' })).length;
    const response = await patch(loadDoc('L-2001', 'doc_2001_pod'), { DocumentType: 'Proof of Delivery' });
    expect(response.status).toBe(200);
    expect((await outbox({ kind: 'visibility' })).length).toBe(before);
  });
});

describe('trip documents', () => {
  it('GET /trips/{tripId}/documents lists the trip documents', async () => {
    const response = await t.api(`${V}/trips/trp_1001_a/documents`, { as: 'prairie-readonly' });
    expect(response.status).toBe(200);
    const pop = response.body.find((d: any) => d.id === 'doc_1001_a_pop');
    expect(pop).toMatchObject({ ParentType: 'Trip', ParentId: 'trp_1001_a', AttachmentType: 'Proof of Pickup', AttachmentPath: expect.stringMatching(/^pop_\d{14}\.jpg$/) });
    expect(response.body.every((d: any) => d.ParentType === 'Trip')).toBe(true);
    expect(response.body.map((d: any) => d.id)).not.toContain('doc_1001_a_deleted');
  });

  it('an empty trip lists nothing', async () => {
    const response = await t.api(`${V}/trips/trp_1990_a/documents`, { as: 'prairie-readonly' });
    expect(response.body).toEqual([]);
  });

  it("PATCH changes a trip document's type with the load route's rules", async () => {
    const created = await newTripDocument();
    const response = await patch(tripDoc('trp_1001_a', created.id), { DocumentType: 'bill of LADING' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ...created, AttachmentType: 'Bill of Lading' });
    const history = await t.api(`${tripDoc('trp_1001_a', created.id)}/history`, { as: 'prairie-readonly' });
    expect(history.body.Items).toEqual([
      { From: 'Proof of Pickup', To: 'Bill of Lading', ChangedAt: '2026-11-22T12:00:00.000Z', ChangedBy: 'prairie-integration' },
    ]);
    const events = (await outboxFor(created.id)).filter((row) => row.type === 'document.updated');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ subsidiary_id: 'sub_kc', payload: { ParentType: 'Trip', ParentId: 'trp_1001_a', LoadNumber: 'L-1001' } });
  });

  it('posts a trip Proof of Delivery to the load customer on every call', async () => {
    const created = await newTripDocument();
    await patch(tripDoc('trp_1001_a', created.id), { DocumentType: 'Proof of Delivery' });
    await patch(tripDoc('trp_1001_a', created.id), { DocumentType: 'Proof of Delivery' });
    const posts = (await outbox({ kind: 'visibility', customerId: 'cus_heartland' })).filter((row) => row.payload.id === created.id);
    expect(posts).toHaveLength(2);
    expect(posts[0]!.payload).toMatchObject({ ParentType: 'Trip', LoadNumber: 'L-1001', AttachmentType: 'Proof of Delivery' });
  });

  it.each([
    ['a load document', tripDoc('trp_1001_a', 'doc_1001_bol'), ok, 404, 'NotFound'],
    ["another trip's document", tripDoc('trp_1990_a', 'doc_1001_a_pop'), ok, 404, 'NotFound'],
    ['a deleted document', tripDoc('trp_1001_a', 'doc_1001_a_deleted'), ok, 404, 'NotFound'],
    ['a missing trip', tripDoc('trp_nowhere', 'doc_1001_a_pop'), ok, 404, 'NotFound'],
    ['an unrecognised type', tripDoc('trp_1001_a', 'doc_1001_a_pop'), { DocumentType: 'Pizza' }, 400, 'Validation'],
    ['a carrier type', tripDoc('trp_1001_a', 'doc_1001_a_pop'), { DocumentType: 'Carrier Agreement' }, 400, 'Validation'],
    ['an invoice-family type', tripDoc('trp_1001_a', 'doc_1001_a_pop'), { DocumentType: 'Merged Invoice' }, 422, 'Unprocessable/ProtectedDocumentType'],
  ] as const)('refuses %s', async (_label, path, body, status, category) => {
    expectProblem(await patch(path, body), status, category);
  });

  it('refuses to change a trip document whose type is invoice-family', async () => {
    const invoice = await newTripDocument('trp_1001_a', 'Carrier Invoice');
    expectProblem(await patch(tripDoc('trp_1001_a', invoice.id), ok), 422, 'Unprocessable/ProtectedDocumentType');
  });

  it("the load's list shows a new trip document under its trip", async () => {
    const created = await newTripDocument();
    const response = await t.api(`${V}/loads/L-1001/documents`, { as: 'prairie-readonly' });
    expect(response.body.find((d: any) => d.id === created.id)).toMatchObject({ ParentType: 'Trip', ParentId: 'trp_1001_a' });
  });
});

describe('internal procedures: create documents with their bytes', () => {
  it('stores a load document with a timestamped AttachmentPath and the canonical type, and announces it', async () => {
    t.clock.set('2026-11-22T12:34:56.789Z');
    try {
      const created = await internal({ clientId: 'ops-app' }).documents.createLoadDocument({
        LoadNumber: 'L-1001',
        AttachmentType: 'signed customer rate confirmation',
        FileName: 'signed ratecon.PDF',
        ContentBase64: Buffer.from('hello').toString('base64'),
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^doc_/),
        AttachmentPath: 'signed ratecon_20261122123456.PDF',
        AttachmentType: 'Signed Customer Rate Confirmation',
        AttachmentSize: 5,
        UploadedAt: '2026-11-22T12:34:56.789Z',
        ParentId: 'L-1001',
        ParentType: 'Load',
        UploadedBy: 'ops-app',
        DownloadUrl: expect.stringContaining('/files/'),
        ExpiresAt: '2026-11-22T12:44:56.789Z',
      });
      const row = await t.db.selectFrom('documents').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: 'sub_kc', load_id: 'lod_1001', trip_id: null, content_type: 'application/pdf' });
      const events = await outboxFor(created.id);
      expect(events.map((e) => [e.type, e.subsidiary_id])).toEqual([
        ['document.created', 'sub_kc'],
        ['load.changed', 'sub_kc'],
      ]);
      expect(events[0]!.payload).toEqual({ ...created, LoadNumber: 'L-1001' });
    } finally {
      t.clock.set('2026-11-22T12:00:00Z');
    }
  });

  it('stores the given content type', async () => {
    const created = await internal().documents.createTripDocument({
      TripId: 'trp_1001_a',
      AttachmentType: 'Proof of Pickup',
      FileName: 'photo',
      ContentBase64: PDF_BASE64,
      ContentType: 'image/heic',
    });
    const row = await t.db.selectFrom('documents').select(['content_type', 'load_id', 'trip_id', 'parent_id']).where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ content_type: 'image/heic', load_id: 'lod_1001', trip_id: 'trp_1001_a', parent_id: 'trp_1001_a' });
  });

  it('refuses unknown types, carrier types on loads, and bad file names', async () => {
    const caller = internal();
    const base = { LoadNumber: 'L-1001', FileName: 'a.pdf', ContentBase64: PDF_BASE64 };
    await expect(caller.documents.createLoadDocument({ ...base, AttachmentType: 'Pizza' })).rejects.toMatchObject({ appCode: 'VALIDATION' });
    await expect(caller.documents.createLoadDocument({ ...base, AttachmentType: 'Carrier Agreement' })).rejects.toMatchObject({
      appCode: 'VALIDATION',
      fieldErrors: { AttachmentType: [expect.any(String)] },
    });
    await expect(caller.documents.createLoadDocument({ ...base, AttachmentType: 'Invoice', FileName: '../etc/passwd' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(caller.documents.createLoadDocument({ ...base, AttachmentType: 'Invoice', ContentBase64: 'not base64!' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('lets internal apps store invoice-family documents (only the public type change refuses them)', async () => {
    const created = await internal().documents.createLoadDocument({ LoadNumber: 'L-1001', AttachmentType: 'customer invoice', FileName: 'inv.pdf', ContentBase64: PDF_BASE64 });
    expect(created.AttachmentType).toBe('Customer Invoice');
  });

  it('keeps scopes, tenants and subsidiaries as the REST routes do', async () => {
    const args = { LoadNumber: 'L-2001', AttachmentType: 'Bill of Lading', FileName: 'a.pdf', ContentBase64: PDF_BASE64 };
    await expect(internal({ scopes: ['load:read'] }).documents.createLoadDocument(args)).rejects.toMatchObject({ appCode: 'FORBIDDEN' });
    await expect(internal({ subsidiaryId: 'sub_kc' }).documents.createLoadDocument(args)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await expect(internal({ tenantId: 'tn_harbor' }).documents.createLoadDocument(args)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    const tripArgs = { TripId: 'trp_2001_a', AttachmentType: 'Bill of Lading', FileName: 'a.pdf', ContentBase64: PDF_BASE64 };
    await expect(internal({ tenantId: 'tn_harbor' }).documents.createTripDocument(tripArgs)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await expect(internal({ subsidiaryId: 'sub_kc' }).documents.createTripDocument(tripArgs)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
  });

  it('are not REST routes', async () => {
    const spec = await t.api('/openapi.json');
    const paths = Object.keys(spec.body.paths);
    expect(paths).toContain('/api/p/v{version}/loads/{loadNumber}/documents/{documentId}');
    expect(paths.some((path) => /create/i.test(path))).toBe(false);
    const operation = spec.body.paths['/api/p/v{version}/loads/{loadNumber}/documents/{documentId}'].patch;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '404', '422', '429']));
  });
});
