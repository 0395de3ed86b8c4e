import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../core/auth/scopes.js';
import { createCaller } from '../core/router.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { documentFixture, PDF_BASE64 } from './support/document-fixture.js';

let t: TestApp;
beforeAll(async () => {
  const fixture = documentFixture();
  const redriver = fixture.Tenants[0].Carriers.find((c: any) => c.Id === 'car_redriver');
  redriver.Documents.push({ id: 'doc_car_deleted', AttachmentType: 'Carrier Authority', FileName: 'old.pdf', ContentBase64: PDF_BASE64, IsDeleted: true });
  fixture.Tenants[0].Carriers.push({ Id: 'car_empty', Name: 'Empty Lane Freight' });
  t = await startTestApp({ fixture });
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';

function internal(options: { tenantId?: string; subsidiaryId?: string | null; scopes?: string[] } = {}) {
  return createCaller({
    db: t.db,
    clock: t.clock,
    config: t.config,
    principal: {
      TenantId: options.tenantId ?? 'tn_prairie',
      SubsidiaryId: options.subsidiaryId ?? null,
      ClientId: 'ops-app',
      Scopes: options.scopes ?? [...SCOPES],
    },
  });
}

describeAuthCases(() => t, {
  method: 'GET',
  path: `${V}/carriers/car_redriver/documents`,
  scope: 'carrier:read',
  otherTenantPath: `${V}/carriers/car_harbor_tow/documents`,
  missingPath: `${V}/carriers/car_nowhere/documents`,
});

describe('GET /carriers/{carrierId}/documents (docs/api-rules.md#documents)', () => {
  it('returns a bare array of Documents with ParentType Carrier', async () => {
    const response = await t.api(`${V}/carriers/car_redriver/documents`, { as: 'prairie-readonly' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.body).toEqual([
      {
        id: 'doc_car_agreement',
        AttachmentPath: 'agreement_20260902150405.pdf',
        AttachmentType: 'Carrier Agreement',
        AttachmentSize: 78,
        UploadedAt: '2026-09-02T15:04:05.000Z',
        ParentId: 'car_redriver',
        ParentType: 'Carrier',
        UploadedBy: 'usr_ops_1',
        DownloadUrl: expect.stringMatching(new RegExp(`^${t.apiUrl}/files/`)),
        ExpiresAt: '2026-11-22T12:10:00.000Z',
      },
      {
        id: 'doc_car_authority',
        AttachmentPath: 'authority_20260902150600.pdf',
        AttachmentType: 'Carrier Authority',
        AttachmentSize: 15,
        UploadedAt: '2026-09-02T15:06:00.000Z',
        ParentId: 'car_redriver',
        ParentType: 'Carrier',
        UploadedBy: 'prairie-integration',
        DownloadUrl: expect.stringMatching(new RegExp(`^${t.apiUrl}/files/`)),
        ExpiresAt: '2026-11-22T12:10:00.000Z',
      },
    ]);
  });

  it('shows carriers to subsidiary-bound clients of either subsidiary (carriers are tenant-wide)', async () => {
    for (const client of ['sub_kc-all', 'sub_dal-all']) {
      const response = await t.api(`${V}/carriers/car_redriver/documents`, { as: client });
      expect(response.status, client).toBe(200);
      expect(response.body.map((d: any) => d.id)).toEqual(['doc_car_agreement', 'doc_car_authority']);
    }
  });

  it('answers a carrier without documents with an empty array', async () => {
    const response = await t.api(`${V}/carriers/car_empty/documents`, { as: 'prairie-readonly' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual([]);
  });

  it('answers a missing carrier with 404', async () => {
    const response = await t.api(`${V}/carriers/car_nowhere/documents`, { as: 'prairie-readonly' });
    expect(response.status).toBe(404);
    expect(response.body.Type).toBe(`${t.apiUrl}/errors/NotFound`);
  });

  it("does not list load documents under a carrier id, nor another tenant's carrier", async () => {
    const harbor = await t.api(`${V}/carriers/car_redriver/documents`, { as: 'harbor-integration' });
    expect(harbor.status).toBe(404);
    const own = await t.api(`${V}/carriers/car_harbor_tow/documents`, { as: 'harbor-integration' });
    expect(own.body.map((d: any) => d.id)).toEqual(['doc_h_car_agreement']);
  });
});

describe('internal procedure createCarrierDocument', () => {
  it('stores a carrier document and emits carrier.document.created to the whole tenant', async () => {
    const created = await internal().documents.createCarrierDocument({
      CarrierId: 'car_empty',
      AttachmentType: 'carrier authority',
      FileName: 'authority.pdf',
      ContentBase64: PDF_BASE64,
    });
    expect(created).toMatchObject({
      AttachmentType: 'Carrier Authority',
      AttachmentPath: 'authority_20261122120000.pdf',
      ParentType: 'Carrier',
      ParentId: 'car_empty',
      UploadedBy: 'ops-app',
    });
    const row = await t.db.selectFrom('documents').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: 'tn_prairie', subsidiary_id: null, carrier_id: 'car_empty', load_id: null, trip_id: null });
    const events = await t.db.selectFrom('outbox').selectAll().where('type', 'like', 'carrier.document.%').execute();
    const event = events.find((e) => JSON.parse(e.payload).id === created.id);
    expect(event).toMatchObject({ kind: 'event', type: 'carrier.document.created', tenant_id: 'tn_prairie', subsidiary_id: null });
    expect(JSON.parse(event!.payload)).toEqual({ ...created, CarrierId: 'car_empty' });

    const listed = await t.api(`${V}/carriers/car_empty/documents`, { as: 'sub_dal-all' });
    expect(listed.body.map((d: any) => d.id)).toEqual([created.id]);
  });

  it('accepts only carrier types', async () => {
    const args = { CarrierId: 'car_empty', FileName: 'x.pdf', ContentBase64: PDF_BASE64 };
    for (const AttachmentType of ['Bill of Lading', 'Invoice', 'Pizza']) {
      await expect(internal().documents.createCarrierDocument({ ...args, AttachmentType })).rejects.toMatchObject({
        appCode: 'VALIDATION',
        fieldErrors: { AttachmentType: [expect.stringContaining('Carrier Agreement')] },
      });
    }
  });

  it('needs carrier:read and load:update, and finds only the caller tenant’s carriers', async () => {
    const args = { CarrierId: 'car_redriver', AttachmentType: 'Carrier Agreement', FileName: 'x.pdf', ContentBase64: PDF_BASE64 };
    await expect(internal({ scopes: ['carrier:read'] }).documents.createCarrierDocument(args)).rejects.toMatchObject({ appCode: 'FORBIDDEN' });
    await expect(internal({ tenantId: 'tn_harbor' }).documents.createCarrierDocument(args)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    const bound = await internal({ subsidiaryId: 'sub_dal' }).documents.createCarrierDocument(args);
    expect(bound.ParentId).toBe('car_redriver');
  });

  it('is not a REST route: the REST upload at its path takes multipart only', async () => {
    const response = await t.api(`${V}/carriers/car_redriver/documents`, {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { CarrierId: 'car_redriver', AttachmentType: 'Carrier Agreement', FileName: 'a.pdf', ContentBase64: PDF_BASE64 },
    });
    expect(response.status).toBe(415);
  });
});
