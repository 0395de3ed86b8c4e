import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findInboundByControlNumber, insertInboundDocument, markAcknowledged, newEdiDocumentId } from '../core/edi/document.repository.js';
import { getPartnerById } from '../core/edi/partner.repository.js';
import { sendEdiDocument } from '../core/edi/send-edi-document.js';
import { parseInterchange } from '../core/edi/x12/index.js';
import { formatStoredDateTime } from '../core/shared/datetime.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { ACCEPT_990, sendTo } from './support/edi-documents.js';
import { seedPartners } from './support/edi-partners.js';
import { snapshotDatabase } from './support/hostile-cases.js';

let t: TestApp;
/** Documents sent in beforeAll: two to edp_kc, one to edp_dal, one to tn_harbor's partner. */
const sent: Record<string, string> = {};
/** Received interchanges with fixed ids, for the shared auth cases. */
const inboundId = 'edd_inbound_kc';
const harborInboundId = 'edd_inbound_harbor';
beforeAll(async () => {
  t = await startTestApp();
  await seedPartners(t.db, t.config);
  sent.kc1 = (await sendTo(t.db, t.clock, 'tn_prairie', 'edp_kc')).id;
  t.clock.advance(60_000);
  sent.dal1 = (await sendTo(t.db, t.clock, 'tn_prairie', 'edp_dal', '214', [['B10', 'L-1002', 'SHP-2', 'WYBL']])).id;
  t.clock.advance(60_000);
  sent.kc2 = (await sendTo(t.db, t.clock, 'tn_prairie', 'edp_kc', '997', [['AK1', 'SM', '7'], ['AK9', 'A', '1', '1', '1']])).id;
  sent.harbor = (await sendTo(t.db, t.clock, 'tn_harbor', 'edp_harbor')).id;
  t.clock.advance(60_000);
  const received = (id: string, tenantId: string, subsidiaryId: string, partnerId: string) =>
    insertInboundDocument(t.db, {
      id,
      tenantId,
      subsidiaryId,
      partnerId,
      sets: ['997', '204', '204'],
      controlNumber: '000000042',
      x12: 'ISA*…',
      json: { Segments: [] },
      answer: { Id: id },
      createdAt: formatStoredDateTime(t.clock.now()),
    });
  expect(await received(inboundId, 'tn_prairie', 'sub_kc', 'edp_kc')).toBe(true);
  expect(await received(harborInboundId, 'tn_harbor', 'sub_harbor_main', 'edp_harbor')).toBe(true);
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0/edi/documents';
const ALL = 'tn_prairie-all';
const list = (query = '', as = ALL) => t.api(`${base}${query}`, { as });
const ids = (response: { body: { Items: Array<{ Id: string }> } }) => response.body.Items.map((item) => item.Id);

describeAuthCases(() => t, { method: 'GET', path: base, scope: 'edi:read' });
describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/${inboundId}`,
  scope: 'edi:read',
  otherTenantPath: `${base}/${harborInboundId}`,
  missingPath: `${base}/edd_nowhere`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${base}/${inboundId}` },
});

describe('insertInboundDocument and findInboundByControlNumber', () => {
  it("keeps one document per partner's control number and answers the stored answer for replays", async () => {
    const again = await insertInboundDocument(t.db, {
      id: newEdiDocumentId(),
      tenantId: 'tn_prairie',
      subsidiaryId: 'sub_kc',
      partnerId: 'edp_kc',
      sets: ['204'],
      controlNumber: '000000042',
      x12: 'ISA*…',
      json: {},
      answer: {},
      createdAt: formatStoredDateTime(t.clock.now()),
    });
    expect(again).toBe(false);
    expect(await findInboundByControlNumber(t.db, 'tn_prairie', 'edp_kc', '000000042')).toEqual({ id: inboundId, answer: { Id: inboundId } });
    expect(await findInboundByControlNumber(t.db, 'tn_prairie', 'edp_dal', '000000042')).toBeUndefined();
  });
});

describe('sendEdiDocument', () => {
  it('numbers each partner from 1, ISA13 = GS06 = ST02, stores the interchange Pending with its Json', async () => {
    const rows = await t.db.selectFrom('edi_documents').selectAll().where('direction', '=', 'Outbound').where('partner_id', '=', 'edp_kc').orderBy('created_at').execute();
    expect(rows.map((row) => [row.set_id, row.control_number, row.status])).toEqual([
      ['990', '1', 'Pending'],
      ['997', '2', 'Pending'],
    ]);
    const dal = await t.db.selectFrom('edi_documents').select('control_number').where('id', '=', sent.dal1!).executeTakeFirstOrThrow();
    expect(dal.control_number).toBe('1');

    const parsed = parseInterchange(rows[1]!.x12);
    if (!parsed.ok) throw new Error(parsed.message);
    const { interchange } = parsed;
    expect(interchange.controlNumber).toBe('000000002');
    expect(interchange.usage).toBe('T');
    expect(interchange.sender).toEqual({ qualifier: 'ZZ', id: 'WAYBILL' });
    expect(interchange.receiver).toEqual({ qualifier: 'ZZ', id: 'HEARTLANDKC' });
    expect(interchange.isa.elements[5]).toBe('WAYBILL        ');
    const [group] = interchange.groups;
    expect(group).toMatchObject({ functionalId: 'FA', controlNumber: '2', senderId: 'WAYBILL', receiverId: 'HEARTLANDKC' });
    expect(group!.sets[0]).toMatchObject({ id: '997', controlNumber: '0002' });
    expect(JSON.parse(rows[1]!.json)).toBeTruthy();
    const partner = await t.db.selectFrom('edi_partners').select('last_control_number').where('id', '=', 'edp_kc').executeTakeFirstOrThrow();
    expect(Number(partner.last_control_number)).toBe(2);
  });

  it('uses no number and stores nothing when the caller rolls back', async () => {
    const before = await snapshotDatabase(t.db, testDatabaseKind());
    await expect(
      t.db.transaction().execute(async (trx) => {
        const partner = await getPartnerById(trx, 'tn_prairie', 'edp_dal');
        await sendEdiDocument(trx, t.clock, { partner: partner!, set: '990', body: ACCEPT_990 });
        throw new Error('the write that caused it failed');
      }),
    ).rejects.toThrow('the write that caused it failed');
    expect(await snapshotDatabase(t.db, testDatabaseKind())).toEqual(before);
  });

  it('never gives two concurrent sends the same number', async () => {
    const created = await t.api('/api/p/v1.0/edi/partners', {
      method: 'POST',
      as: ALL,
      body: {
        Name: 'Concurrent',
        CustomerId: 'cus_flint_hills',
        Their: { IsaQualifier: 'ZZ', IsaId: 'FLINTHILLS', GsId: 'FLINTHILLS' },
        Our: { IsaQualifier: 'ZZ', IsaId: 'WAYBILL', GsId: 'WAYBILL', Scac: 'WYBL' },
        Transactions: ['204', '990'],
        UsageIndicator: 'P',
      },
    });
    expect(created.status, created.text).toBe(201);
    const results = await Promise.all(Array.from({ length: 8 }, () => sendTo(t.db, t.clock, 'tn_prairie', created.body.Id)));
    expect(results.map((result) => result.controlNumber).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });
});

describe('GET /edi/documents', () => {
  it('lists inbound and outbound documents newest first, X12 and Json on each', async () => {
    const response = await list('?PartnerId=edp_kc');
    expect(response.status, response.text).toBe(200);
    expect(ids(response)).toEqual([inboundId, sent.kc2, sent.kc1]);
    const [inbound, ack] = response.body.Items;
    expect(inbound).toEqual({
      Id: inboundId,
      PartnerId: 'edp_kc',
      Direction: 'Inbound',
      Set: '204,997',
      ControlNumber: '000000042',
      Status: 'Received',
      Errors: [],
      CreatedAt: expect.any(String),
      X12: 'ISA*…',
      Json: { Segments: [] },
    });
    expect(ack).toMatchObject({ Direction: 'Outbound', Set: '997', ControlNumber: '2', Status: 'Pending' });
    expect(ack.X12).toMatch(/^ISA\*/);
    expect(ack.Json).toBeTruthy();
  });

  it('filters by Direction, Set (a document holding it), Status and CreatedAt, combined', async () => {
    expect(ids(await list('?Direction=Inbound'))).toEqual([inboundId]);
    expect(ids(await list('?Set=204'))).toEqual([inboundId]);
    expect(ids(await list('?Set=997&PartnerId=edp_kc'))).toEqual([inboundId, sent.kc2]);
    expect(ids(await list('?Set=214'))).toEqual([sent.dal1]);
    expect(ids(await list('?Status=Received'))).toEqual([inboundId]);
    const first = await t.api(`${base}/${sent.kc1}`, { as: ALL });
    const start = encodeURIComponent(first.body.CreatedAt);
    const dal = await t.api(`${base}/${sent.dal1}`, { as: ALL });
    const end = encodeURIComponent(dal.body.CreatedAt);
    expect(ids(await list(`?CreatedAtStart=${start}&CreatedAtEnd=${end}&Direction=Outbound`))).toEqual([sent.kc1]);
  });

  it('answers 400 naming the filter for a reversed range or an unknown value', async () => {
    const reversed = await list('?CreatedAtStart=2026-11-23T00:00:00Z&CreatedAtEnd=2026-11-22T00:00:00Z');
    expect(reversed.status).toBe(400);
    expect(Object.keys(reversed.body.Errors)).toEqual(['CreatedAtEnd']);
    for (const [field, value] of [['Set', '850'], ['Direction', 'Sideways'], ['Status', 'Lost']]) {
      const response = await list(`?${field}=${value}`);
      expect(response.status, response.text).toBe(400);
      expect(Object.keys(response.body.Errors)).toContain(field);
    }
  });

  it('pages with a cursor', async () => {
    const first = await list('?PageSize=2');
    expect(first.body.Items).toHaveLength(2);
    const second = await list(`?PageSize=2&Cursor=${first.body.NextCursor}`);
    expect(ids(second)[0]).not.toBe(ids(first)[1]);
    expect(first.body.Total).toBe(second.body.Total);
  });

  it("shows a subsidiary-bound client only its subsidiary's documents, and no other tenant's", async () => {
    const dal = await list('', 'sub_dal-all');
    expect(ids(dal)).toEqual([sent.dal1]);
    expect(ids(await list('?PageSize=100'))).not.toContain(sent.harbor);
  });
});

describe('GET /edi/documents/{id}', () => {
  it('reads one document; another subsidiary’s or tenant’s is a 404 like a missing one', async () => {
    const response = await t.api(`${base}/${sent.kc1}`, { as: ALL });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Id: sent.kc1, PartnerId: 'edp_kc', Set: '990', ControlNumber: '1', Status: 'Pending' });
    const missing = await t.api(`${base}/edd_nowhere`, { as: ALL });
    expect(missing.status).toBe(404);
    for (const [id, as] of [[sent.kc1, 'sub_dal-all'], [sent.harbor, ALL]] as const) {
      const hidden = await t.api(`${base}/${id}`, { as });
      expect(hidden.status).toBe(404);
      expect({ ...hidden.body, Instance: undefined }).toEqual({ ...missing.body, Instance: undefined });
    }
  });

  it("shows a partner's 997 outcome: Acknowledged, or Rejected with its errors", async () => {
    const now = formatStoredDateTime(t.clock.now());
    const error = { segment: 'B1', position: 2, element: 2, code: 'MandatoryElementMissing', message: 'B1-02 is required.' };
    expect(await markAcknowledged(t.db, 'tn_prairie', 'edp_dal', '000000001', 'Rejected', [error], now)).toBe(sent.dal1);
    expect(await markAcknowledged(t.db, 'tn_prairie', 'edp_dal', '999', 'Acknowledged', [], now)).toBeUndefined();
    const rejected = await t.api(`${base}/${sent.dal1}`, { as: ALL });
    expect(rejected.body).toMatchObject({
      Status: 'Rejected',
      Errors: [{ Segment: 'B1', Position: 2, Element: 2, Code: 'MandatoryElementMissing', Message: 'B1-02 is required.' }],
    });
    expect(ids(await list('?Status=Rejected'))).toEqual([sent.dal1]);
    await markAcknowledged(t.db, 'tn_prairie', 'edp_dal', '1', 'Acknowledged', [], now);
    expect((await t.api(`${base}/${sent.dal1}`, { as: ALL })).body).toMatchObject({ Status: 'Acknowledged', Errors: [] });
  });
});

