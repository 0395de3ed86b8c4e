import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { map204 } from '../core/edi/inbound/map-204.js';
import { emitInterchange, parseInterchange, type TransactionSet } from '../core/edi/x12/index.js';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { testDatabaseKind } from './support/database.js';
import { seedPartners } from './support/edi-partners.js';
import { snapshotDatabase } from './support/hostile-cases.js';
import { DELIVERY_STOP, PICKUP_STOP, buildInterchange, interchangeOf204s, tender204, type TenderSpec } from './edi/inbound-builder.js';

/**
 * POST /edi/inbound over HTTP (docs/edi.md#inbound, docs/edi.md#204-to-tender): the edge, the
 * receipt (partner, replay, per-set outcomes, the 997), every row of the 204 table, 997s
 * received, and hostile interchanges; SQLite and Postgres.
 */

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  await seedPartners(t.db, t.config);
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const kind = testDatabaseKind();
let control = 100;
const nextControl = () => ++control;

const submit = (text: string, options: { as?: string; contentType?: string; headers?: Record<string, string> } = {}) =>
  t.api(`${base}/edi/inbound`, {
    method: 'POST',
    as: options.as ?? ALL,
    body: text,
    headers: { 'content-type': options.contentType ?? 'application/edi-x12', ...options.headers },
  });
const tenderOf = async (id: string) => (await t.api(`${base}/tenders/${encodeURIComponent(id)}`, { as: ALL })).body;
const eventsOf = async (id: string, type: string) =>
  (await t.db.selectFrom('outbox').selectAll().where('type', '=', type).execute()).filter((row) => JSON.parse(row.payload).Id === id);

/** Posts one 204 and answers its one transaction. */
async function post204(spec: TenderSpec): Promise<{ response: ApiResponse; set: any }> {
  const response = await submit(interchangeOf204s(nextControl(), [spec]));
  expect(response.status, response.text).toBe(200);
  return { response, set: response.body.Transactions[0] };
}

async function received(spec: TenderSpec): Promise<any> {
  const { set } = await post204(spec);
  expect(set.Errors).toEqual([]);
  expect(set.Status).toBe('Accepted');
  return tenderOf(set.TenderId);
}

/** The database apart from the mailbox and the partners' control numbers, which every receipt writes. */
async function businessSnapshot() {
  const { edi_documents: _documents, edi_partners: _partners, ...rest } = await snapshotDatabase(t.db, kind);
  return rest;
}

async function expectRefusedUnchanged(status: number, refused: () => Promise<ApiResponse>): Promise<ApiResponse> {
  const before = await snapshotDatabase(t.db, kind);
  const response = await refused();
  expect(response.status, response.text).toBe(status);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}

const codesOf = (set: any) => set.Errors.map((e: any) => `${e.Code} ${e.Segment}@${e.Position}${e.Element === null ? '' : `.${e.Element}`}`);

/** The segments of the 997 an answer carries, as `id*elements`. */
function ackSegments(answer: any): string[] {
  const parsed = parseInterchange(answer.Acknowledgment);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.interchange.groups.flatMap((group) => group.sets.flatMap((set) => set.segments.map((s) => [s.id, ...s.elements].join('*'))));
}

describeAuthCases(() => t, {
  method: 'POST',
  path: `${base}/edi/inbound`,
  scope: 'edi:submit',
  body: interchangeOf204s(90, [{ shipment: 'AUTH-1' }]),
  headers: { 'content-type': 'application/edi-x12' },
});

describe('POST /edi/inbound: the edge', () => {
  it('is documented with its raw body in both media types, at most 1 MiB, and its 413, 415 and 422', async () => {
    const operation = (await t.api('/openapi.json')).body.paths['/api/p/v{version}/edi/inbound'].post;
    const schema = { type: 'string', minLength: 106, maxLength: 1048576, pattern: '^ISA', description: expect.any(String) };
    expect(operation.requestBody).toMatchObject({ required: true, content: { 'application/edi-x12': { schema }, 'text/plain': { schema } } });
    expect(Object.keys(operation.requestBody.content)).toEqual(['application/edi-x12', 'text/plain']);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400', '413', '415', '422']));
    expect(operation.responses['200'].content['application/json'].schema).toBeDefined();
  });

  it('takes application/edi-x12 and text/plain with any charset; other media types are 415', async () => {
    expect((await submit(interchangeOf204s(nextControl(), [{ shipment: 'EDGE-1' }]), { contentType: 'text/plain; charset=ISO-8859-1' })).status).toBe(200);
    expect((await submit(interchangeOf204s(nextControl(), [{ shipment: 'EDGE-2' }]), { contentType: 'Application/EDI-X12;charset=utf-8' })).status).toBe(200);
    const refused = await expectRefusedUnchanged(415, () => submit(interchangeOf204s(nextControl(), [{ shipment: 'EDGE-3' }]), { contentType: 'application/json' }));
    expect(refused.body.Type).toMatch(/UnsupportedMediaType$/);
  });

  it('refuses a body over 1 MiB with 413, bytes that are not UTF-8 and an empty body with 400, all changing nothing', async () => {
    const huge = interchangeOf204s(nextControl(), [{ shipment: 'EDGE-BIG', header: [['NTE', 'GEN', 'x'.repeat(1024 * 1024)]] }]);
    await expectRefusedUnchanged(413, () => submit(huge));
    const bytes = Buffer.concat([Buffer.from(interchangeOf204s(nextControl(), [{ shipment: 'EDGE-UTF' }]).slice(0, 200)), Buffer.from([0xc3, 0x28])]);
    const notUtf8 = await expectRefusedUnchanged(400, async () => {
      const response = await fetch(`${t.apiUrl}${base}/edi/inbound`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await t.token(ALL)}`, 'content-type': 'application/edi-x12' },
        body: bytes,
      });
      return { status: response.status, headers: response.headers, body: await response.json(), text: '' };
    });
    expect(notUtf8.body.Detail).toMatch(/UTF-8/);
    const empty = await expectRefusedUnchanged(400, () => submit(''));
    expect(Object.keys(empty.body.Errors)).toEqual(['Interchange']);
  });

  it('answers a body that is not an interchange, a truncated ISA and a NUL with 400, changing nothing', async () => {
    const notOne = await expectRefusedUnchanged(400, () => submit('Hello, this is not X12.'));
    expect(notOne.body.Errors.Interchange).toHaveLength(1);
    const text = interchangeOf204s(nextControl(), [{ shipment: 'EDGE-TRUNC' }]);
    await expectRefusedUnchanged(400, () => submit(text.slice(0, 60)));
    await expectRefusedUnchanged(400, () => submit(text.replace('Acme Foods Plant 3', 'Acme\u0000Foods')));
  });

  it('keeps Idempotency-Key: a retry with the same body is replayed, another body under the key is 409', async () => {
    const text = interchangeOf204s(nextControl(), [{ shipment: 'EDGE-KEY' }]);
    const first = await submit(text, { headers: { 'Idempotency-Key': 'edi-key-1' } });
    expect(first.status).toBe(200);
    const again = await submit(text, { headers: { 'Idempotency-Key': 'edi-key-1' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    const other = await submit(interchangeOf204s(nextControl(), [{ shipment: 'EDGE-KEY-2' }]), { headers: { 'Idempotency-Key': 'edi-key-1' } });
    expect(other.status).toBe(409);
  });
});

describe('POST /edi/inbound: receipt', () => {
  it('receives a 204 as a Pending tender, stores the interchange and answers with the 997 it sends', async () => {
    const isa13 = nextControl();
    const response = await submit(interchangeOf204s(isa13, [{ shipment: 'SHP-RECEIPT' }]));
    expect(response.status, response.text).toBe(200);
    const answer = response.body;
    expect(answer).toEqual({
      Id: expect.stringMatching(/^edd_/),
      ControlNumber: String(isa13).padStart(9, '0'),
      Transactions: [{ Set: '204', ControlNumber: '0001', Status: 'Accepted', Errors: [], TenderId: expect.stringMatching(/^tnd_/) }],
      Acknowledgment: expect.stringContaining('ST*997*'),
    });
    const tenderRow = await t.db.selectFrom('tenders').selectAll().where('id', '=', answer.Transactions[0].TenderId).executeTakeFirstOrThrow();
    expect(tenderRow.edi_partner_id).toBe('edp_kc');
    expect(tenderRow.subsidiary_id).toBe('sub_kc');
    expect(await eventsOf(tenderRow.id, 'tender.received')).toHaveLength(1);

    const inbound = await t.db.selectFrom('edi_documents').selectAll().where('id', '=', answer.Id).executeTakeFirstOrThrow();
    expect(inbound).toMatchObject({ direction: 'Inbound', status: 'Received', set_id: '204', partner_id: 'edp_kc', tender_id: tenderRow.id });
    expect(JSON.parse(inbound.answer_json!)).toEqual(answer);
    const sent = await t.db.selectFrom('edi_documents').selectAll().where('direction', '=', 'Outbound').where('x12', '=', answer.Acknowledgment).execute();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ set_id: '997', status: 'Pending', partner_id: 'edp_kc' });
    expect(ackSegments(answer)).toEqual([
      expect.stringMatching(/^ST\*997\*/),
      `AK1*SM*${isa13 * 10}`,
      'AK2*204*0001',
      'AK5*A',
      'AK9*A*1*1*1',
      expect.stringMatching(/^SE\*6\*/),
    ]);
  });

  it('answers the same ISA13 again byte for byte and changes nothing, even with other content', async () => {
    const isa13 = nextControl();
    const first = await submit(interchangeOf204s(isa13, [{ shipment: 'SHP-REPLAY' }]));
    expect(first.status).toBe(200);
    const before = await snapshotDatabase(t.db, kind);
    const again = await submit(interchangeOf204s(isa13, [{ shipment: 'SHP-REPLAY' }]));
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    const otherContent = await submit(interchangeOf204s(isa13, [{ shipment: 'SHP-REPLAY-OTHER' }]));
    expect(otherContent.text).toBe(first.text);
    expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  });

  it('applies two identical interchanges posted at once exactly once', async () => {
    const text = interchangeOf204s(nextControl(), [{ shipment: 'SHP-RACE' }]);
    const [a, b] = await Promise.all([submit(text), submit(text)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.text).toBe(b.text);
    expect(await t.db.selectFrom('tenders').select('id').where('external_id', '=', 'SHP-RACE').execute()).toHaveLength(1);
    expect(await t.db.selectFrom('edi_documents').select('id').where('direction', '=', 'Inbound').where('control_number', '=', a.body.ControlNumber).execute()).toHaveLength(1);
    expect(await t.db.selectFrom('edi_documents').select('id').where('x12', '=', a.body.Acknowledgment).execute()).toHaveLength(1);
  });

  it('answers 422 UnknownPartner for an unknown sender, an Inactive partner, wrong ISA08 and another subsidiary, changing nothing', async () => {
    const unknown = await expectRefusedUnchanged(422, () => submit(interchangeOf204s(nextControl(), [{ shipment: 'P-1' }], 'NOBODY')));
    expect(unknown.body.Type).toMatch(/\/errors\/Unprocessable\/UnknownPartner$/);
    const wrongReceiver = buildInterchange({ control: nextControl(), receiver: 'SOMEONEELSE', groups: [{ functionalId: 'SM', sets: [{ id: '204', body: tender204({ shipment: 'P-2' }) }] }] });
    expect((await expectRefusedUnchanged(422, () => submit(wrongReceiver))).body.Type).toMatch(/UnknownPartner$/);
    const otherSubsidiary = await expectRefusedUnchanged(422, () => submit(interchangeOf204s(nextControl(), [{ shipment: 'P-3' }]), { as: 'sub_dal-all' }));
    expect(otherSubsidiary.body.Type).toMatch(/UnknownPartner$/);
    expect((await submit(interchangeOf204s(nextControl(), [{ shipment: 'P-4' }]), { as: 'sub_kc-all' })).status).toBe(200);

    const partner = await t.api(`${base}/edi/partners`, {
      method: 'POST',
      as: ALL,
      body: { Name: 'Sleepy', CustomerId: 'cus_heartland', Their: { IsaQualifier: 'ZZ', IsaId: 'SLEEPY', GsId: 'SLEEPY' }, Our: { IsaQualifier: 'ZZ', IsaId: 'WAYBILL', GsId: 'WAYBILL', Scac: 'WYBL' }, Transactions: ['204'], UsageIndicator: 'T' },
    });
    expect(partner.status, partner.text).toBe(201);
    const patched = await t.api(`${base}/edi/partners/${partner.body.Id}`, { method: 'PATCH', as: ALL, body: { Status: 'Inactive' }, headers: { 'If-Match': partner.headers.get('etag')! } });
    expect(patched.status, patched.text).toBe(200);
    const inactive = await expectRefusedUnchanged(422, () => submit(interchangeOf204s(nextControl(), [{ shipment: 'P-5' }], 'SLEEPY')));
    expect(inactive.body.Type).toMatch(/UnknownPartner$/);
  });

  it('rejects a failing set with its located errors and changes nothing for it, while the other set applies', async () => {
    const before = await t.db.selectFrom('tenders').select('id').execute();
    const nameless = [['S5', '2', 'UL', '42000', 'L'], ['G62', '68', '20261129', 'I', '0900', 'ET']];
    const response = await submit(interchangeOf204s(nextControl(), [{ shipment: 'MIX-BAD', stops: [PICKUP_STOP, nameless] }, { shipment: 'MIX-GOOD' }]));
    expect(response.status).toBe(200);
    const [bad, good] = response.body.Transactions;
    expect(bad).toMatchObject({ Status: 'Rejected', TenderId: null });
    expect(codesOf(bad)).toEqual(['StopPlaceMissing N1@15.1']);
    expect(good).toMatchObject({ Status: 'Accepted', Errors: [] });
    const after = await t.db.selectFrom('tenders').select(['id', 'external_id']).execute();
    expect(after.filter((row) => !before.some((old) => old.id === row.id)).map((row) => row.external_id)).toEqual(['MIX-GOOD']);
    expect(ackSegments(response.body)).toEqual([
      expect.stringMatching(/^ST\*997/),
      expect.stringMatching(/^AK1\*SM\*/),
      'AK2*204*0001',
      'AK3*N1*15',
      'AK5*R*5',
      'AK2*204*0002',
      'AK5*A',
      'AK9*P*2*2*1',
      expect.stringMatching(/^SE\*/),
    ]);
  });

  it('rejects a 204 whose stops name nothing, naming the element, and changes nothing but the mailbox', async () => {
    const before = await businessSnapshot();
    const noN4 = [['S5', '2', 'UL'], ['G62', '68', '20261129', 'I', '0900', 'ET'], ['N1', 'CN', 'Fresh Market DC']];
    const { set } = await post204({ shipment: 'NAMELESS', stops: [PICKUP_STOP, noN4] });
    expect(set.Status).toBe('Rejected');
    expect(codesOf(set)).toEqual(['StopAddressMissing N3@17.1', 'StopAddressMissing N4@17.1']);
    expect(await businessSnapshot()).toEqual(before);
  });

  it('rejects a 204 from a partner that does not exchange 204s, and a 204 in a group that is not SM', async () => {
    const partner = await t.api(`${base}/edi/partners`, {
      method: 'POST',
      as: ALL,
      body: { Name: 'Outbound only', CustomerId: 'cus_heartland', Their: { IsaQualifier: 'ZZ', IsaId: 'ONLY214', GsId: 'ONLY214' }, Our: { IsaQualifier: 'ZZ', IsaId: 'WAYBILL', GsId: 'WAYBILL', Scac: 'WYBL' }, Transactions: ['214'], UsageIndicator: 'T' },
    });
    expect(partner.status, partner.text).toBe(201);
    const before = await businessSnapshot();
    const notExchanged = await submit(interchangeOf204s(nextControl(), [{ shipment: 'NX-1' }], 'ONLY214'));
    expect(codesOf(notExchanged.body.Transactions[0])).toEqual(['TransactionNotExchanged ST@1.1']);
    const wrongGroup = await submit(buildInterchange({ control: nextControl(), groups: [{ functionalId: 'QM', sets: [{ id: '204', body: tender204({ shipment: 'NX-2' }) }] }] }));
    expect(wrongGroup.body.Transactions[0].Status).toBe('Rejected');
    expect(codesOf(wrongGroup.body.Transactions[0])[0]).toBe('SetNotSupported ST@1.1');
    expect(await businessSnapshot()).toEqual(before);
  });
});

describe('POST /edi/inbound: 204 to tender', () => {
  it('maps B2-04, G62 64, L11, L3-05, N7-11 and the S5 loops (N1, N3, N4, L11, G62) to the tender', async () => {
    const tender = await received({ shipment: 'MAP-FULL' });
    expect(tender).toMatchObject({
      ExternalId: 'MAP-FULL',
      CustomerId: 'cus_heartland',
      Status: 'Pending',
      RespondBy: '2026-11-28T12:00:00.000Z',
      Rate: { Amount: 1850, Currency: 840 },
      Equipment: 'Reefer',
      References: [
        { Name: 'PO Number', Value: 'PO-55123' },
        { Name: 'Bill of Lading', Value: 'BOL889' },
        { Name: 'ZZ', Value: 'X9-1' },
      ],
    });
    expect(tender.Stops).toEqual([
      {
        StopType: 'Pickup',
        ScheduleType: 'APPT',
        // 08:00 Central (CT) in late November is 14:00 UTC.
        AppointmentDate: '2026-11-28T14:00:00.000Z',
        StopWindow: null,
        LoadingType: null,
        Address: { Street: '2400 W Industrial Dr Dock 4', City: 'Chicago', State: 'IL', ZipCode: '60608', Country: 'US' },
        Coordinates: null,
        LocationId: null,
        CompanyName: 'Acme Foods Plant 3',
        References: [{ Name: 'Customer Reference', Value: 'PU-7781' }],
      },
      {
        StopType: 'Delivery',
        ScheduleType: 'FCFS',
        AppointmentDate: null,
        // LT in Ohio: Eastern, UTC-5 in late November.
        StopWindow: { Begin: '2026-11-29T14:00:00.000Z', End: '2026-11-29T22:00:00.000Z' },
        LoadingType: null,
        Address: { Street: '55 Harbor Rd', City: 'Columbus', State: 'OH', ZipCode: '43215', Country: 'US' },
        Coordinates: null,
        LocationId: null,
        CompanyName: 'Fresh Market DC',
        References: [],
      },
    ]);
  });

  it('names equipment and references by their codes', async () => {
    const equipmentOf = async (code: string) =>
      (await received({ shipment: `EQ-${code}`, header: [['N7', '', 'NONE', '', '', '', '', '', '', '', '', code]] })).Equipment;
    expect([await equipmentOf('TF'), await equipmentOf('TV'), await equipmentOf('RT'), await equipmentOf('FT'), await equipmentOf('CN')]).toEqual(['Dry Van', 'Dry Van', 'Reefer', 'Flatbed', 'CN']);
    const none = await received({ shipment: 'EQ-NONE', header: [['L11', 'S-1', 'SI'], ['L11', 'C-1', 'CR']] });
    expect(none.Equipment).toBeNull();
    expect(none.RespondBy).toBeNull();
    expect(none.References).toEqual([
      { Name: "Shipper's Identifying Number", Value: 'S-1' },
      { Name: 'Customer Reference', Value: 'C-1' },
    ]);
  });

  it('reads G62 times in their time code: UT/GM, the US zones, and LT or none as the stop\'s state zone (else UTC)', async () => {
    const at = async (code: string[], state = 'IL', country?: string) => {
      const pickup = [['S5', '1', 'CL'], ['G62', '69', '20260715', 'I', '1000', ...code], ['N1', 'SF', 'X'], ['N3', '1 A St'], ['N4', 'Town', state, '00001', ...(country ? [country] : [])]];
      return (await received({ shipment: `TZ-${control}`, stops: [pickup, DELIVERY_STOP] })).Stops[0].AppointmentDate;
    };
    expect(await at(['UT'])).toBe('2026-07-15T10:00:00.000Z');
    expect(await at(['GM'])).toBe('2026-07-15T10:00:00.000Z');
    expect(await at(['ET'])).toBe('2026-07-15T14:00:00.000Z');
    expect(await at(['ED'])).toBe('2026-07-15T14:00:00.000Z');
    expect(await at(['CT'])).toBe('2026-07-15T15:00:00.000Z');
    expect(await at(['MD'])).toBe('2026-07-15T16:00:00.000Z');
    expect(await at(['PT'])).toBe('2026-07-15T17:00:00.000Z');
    expect(await at(['LT'], 'CA')).toBe('2026-07-15T17:00:00.000Z');
    expect(await at([], 'AZ')).toBe('2026-07-15T17:00:00.000Z');
    expect(await at(['LT'], 'ON', 'CA')).toBe('2026-07-15T14:00:00.000Z');
    expect(await at([], 'XX')).toBe('2026-07-15T10:00:00.000Z');
  });

  it('takes stops in S5-01 order, delivery appointments (68, 70) and pickup windows (37, 38)', async () => {
    const delivery = [['S5', '2', 'CU'], ['G62', '70', '20261130', 'I', '1530', 'UT'], ['N1', 'ST', 'Store 9'], ['N3', '9 Elm St'], ['N4', 'Dallas', 'TX', '75201', 'US']];
    const pickup = [['S5', '1', 'PL'], ['G62', '37', '20261129', 'I', '0800', 'UT'], ['G62', '38', '20261129', 'K', '1200', 'UT'], ['N1', 'SH', 'Mill'], ['N3', '1 Mill Rd'], ['N4', 'Wichita', 'KS', '67202']];
    const tender = await received({ shipment: 'ORDER-1', stops: [delivery, pickup] });
    expect(tender.Stops.map((stop: any) => [stop.StopType, stop.ScheduleType, stop.AppointmentDate, stop.StopWindow])).toEqual([
      ['Pickup', 'FCFS', null, { Begin: '2026-11-29T08:00:00.000Z', End: '2026-11-29T12:00:00.000Z' }],
      ['Delivery', 'APPT', '2026-11-30T15:30:00.000Z', null],
    ]);
  });

  it('rejects stops the tender cannot take, located at the 204 element, changing nothing', async () => {
    const before = await businessSnapshot();
    const lone = (spec: Omit<TenderSpec, 'shipment'>) => post204({ shipment: `BAD-${control}`, ...spec }).then(({ set }) => codesOf(set));
    // First stop a delivery: the tender's own rule, at the first S5.
    const deliveryFirst = [['S5', '1', 'UL'], ...PICKUP_STOP.slice(1, 2), ['G62', '68', '20261128', 'I', '0800', 'CT'], ...PICKUP_STOP.slice(3)];
    const secondPickup = [['S5', '2', 'LD'], ['G62', '10', '20261129', 'I', '0800', 'CT'], ...DELIVERY_STOP.slice(3)];
    expect(await lone({ stops: [deliveryFirst, secondPickup] })).toEqual(['TenderRuleViolated S5@9.2', 'TenderRuleViolated S5@15.2']);
    expect(await lone({ stops: [PICKUP_STOP] })).toEqual(['TenderRuleViolated S5@9']);
    const windowHalf = [['S5', '2', 'UL'], ['G62', '53', '20261129', 'I', '0900', 'ET'], ...DELIVERY_STOP.slice(3)];
    expect(await lone({ stops: [PICKUP_STOP, windowHalf] })).toEqual(['StopWindowIncomplete G62@16.1']);
    const undated = [['S5', '2', 'UL'], ...DELIVERY_STOP.slice(3)];
    expect(await lone({ stops: [PICKUP_STOP, undated] })).toEqual(['StopScheduleMissing G62@15.1']);
    const pickupDate = [['S5', '2', 'UL'], ['G62', '10', '20261129', 'I', '0900', 'ET'], ...DELIVERY_STOP.slice(3)];
    expect(await lone({ stops: [PICKUP_STOP, pickupDate] })).toEqual(['DateQualifierNotForStop G62@16.1']);
    const sameSequence = [['S5', '1', 'UL'], ...DELIVERY_STOP.slice(1)];
    expect(await lone({ stops: [PICKUP_STOP, sameSequence] })).toEqual(['DuplicateStopSequence S5@15.1']);
    expect(await lone({ l3: null })).toEqual(['RateMissing L3@21.5']);
    expect(await businessSnapshot()).toEqual(before);
  });

  it('treats an original for an existing shipment id as the tender when the terms match, else ShipmentIdReused', async () => {
    const first = await post204({ shipment: 'DUP-1' });
    const events = await eventsOf(first.set.TenderId, 'tender.received');
    const same = await post204({ shipment: 'DUP-1' });
    expect(same.set).toMatchObject({ Status: 'Accepted', TenderId: first.set.TenderId });
    expect(await eventsOf(first.set.TenderId, 'tender.received')).toHaveLength(events.length);
    const before = await businessSnapshot();
    const other = await post204({ shipment: 'DUP-1', l3: ['L3', '42000', 'G', '', '', '199900'] });
    expect(other.set.Status).toBe('Rejected');
    expect(codesOf(other.set)).toEqual(['ShipmentIdReused B2@2.4']);
    expect(other.set.Errors[0].Message).toMatch(/Rate/);
    expect(await businessSnapshot()).toEqual(before);
  });

  it('changes a Pending tender with 04 (tender.changed), and rejects a change of an accepted one with TenderNotPending', async () => {
    const original = await received({ shipment: 'CHG-1' });
    const changed = await post204({ shipment: 'CHG-1', purpose: '04', header: [['L11', 'PO-2', 'PO'], ['N7', '', 'NONE', '', '', '', '', '', '', '', '', 'FT']], l3: ['L3', '', '', '', '', '210050'] });
    expect(changed.set).toMatchObject({ Status: 'Accepted', TenderId: original.Id });
    const tender = await tenderOf(original.Id);
    expect(tender).toMatchObject({ Rate: { Amount: 2100.5, Currency: 840 }, Equipment: 'Flatbed', References: [{ Name: 'PO Number', Value: 'PO-2' }], RespondBy: null, Status: 'Pending' });
    const events = await eventsOf(original.Id, 'tender.changed');
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload).Rate).toEqual({ Amount: 2100.5, Currency: 840 });
    // A resend of the change is the tender as it now stands.
    expect((await post204({ shipment: 'CHG-1', header: [['L11', 'PO-2', 'PO'], ['N7', '', 'NONE', '', '', '', '', '', '', '', '', 'FT']], l3: ['L3', '', '', '', '', '210050'] })).set.TenderId).toBe(original.Id);

    expect((await t.api(`${base}/tenders/${original.Id}/accept`, { method: 'POST', as: ALL })).status).toBe(200);
    const before = await businessSnapshot();
    const late = await post204({ shipment: 'CHG-1', purpose: '04' });
    expect(codesOf(late.set)).toEqual(['TenderNotPending B2A@3.1']);
    expect(await businessSnapshot()).toEqual(before);
    const missing = await post204({ shipment: 'CHG-NOWHERE', purpose: '04' });
    expect(codesOf(missing.set)).toEqual(['TenderNotFound B2@2.4']);
  });

  it('cancels a tender with 01 (tender.cancelled), and rejects cancelling it again with TenderNotCancellable', async () => {
    const original = await received({ shipment: 'CXL-1' });
    const cancel = await post204({ shipment: 'CXL-1', purpose: '01' });
    expect(cancel.set).toMatchObject({ Status: 'Accepted', TenderId: original.Id });
    expect((await tenderOf(original.Id)).Status).toBe('Cancelled');
    expect(await eventsOf(original.Id, 'tender.cancelled')).toHaveLength(1);
    const before = await businessSnapshot();
    const again = await post204({ shipment: 'CXL-1', purpose: '01' });
    expect(codesOf(again.set)).toEqual(['TenderNotCancellable B2A@3.1']);
    expect(await businessSnapshot()).toEqual(before);
  });
});

describe('POST /edi/inbound: 997s received', () => {
  it('marks the documents a 997 acknowledges, lists unknown control numbers, and sends no 997 back', async () => {
    const a = await submit(interchangeOf204s(nextControl(), [{ shipment: 'ACK-1' }]));
    const b = await submit(interchangeOf204s(nextControl(), [{ shipment: 'ACK-2' }]));
    const numberOf = (answer: any) => Number(parseInterchange(answer.Acknowledgment).ok && (parseInterchange(answer.Acknowledgment) as any).interchange.controlNumber);
    const [na, nb] = [numberOf(a.body), numberOf(b.body)];
    const ack997 = buildInterchange({
      control: nextControl(),
      groups: [
        {
          functionalId: 'FA',
          sets: [
            { id: '997', body: [['AK1', 'FA', String(na)], ['AK2', '997', String(na).padStart(4, '0')], ['AK5', 'A'], ['AK9', 'A', '1', '1', '1']] },
            { id: '997', body: [['AK1', 'FA', String(nb)], ['AK2', '997', String(nb).padStart(4, '0')], ['AK3', 'AK2', '3', '', '8'], ['AK4', '1', '143', '7', 'X'], ['AK5', 'R', '5'], ['AK9', 'R', '1', '1', '0']] },
            { id: '997', body: [['AK1', 'FA', '987654'], ['AK9', 'A', '1', '1', '1']] },
          ],
        },
      ],
    });
    const outboundBefore = await t.db.selectFrom('edi_documents').select('id').where('direction', '=', 'Outbound').execute();
    const response = await submit(ack997);
    expect(response.status, response.text).toBe(200);
    expect(response.body.Acknowledgment).toBeNull();
    expect(response.body.Transactions.map((set: any) => [set.Status, codesOf(set)])).toEqual([
      ['Accepted', []],
      ['Accepted', []],
      ['Accepted', ['UnknownControlNumber AK1@2.2']],
    ]);
    const statusOf = async (x12: string) => (await t.db.selectFrom('edi_documents').select(['status', 'errors_json']).where('x12', '=', x12).executeTakeFirstOrThrow());
    expect((await statusOf(a.body.Acknowledgment)).status).toBe('Acknowledged');
    const rejected = await statusOf(b.body.Acknowledgment);
    expect(rejected.status).toBe('Rejected');
    expect(JSON.parse(rejected.errors_json!)[0]).toMatchObject({ segment: 'AK2', position: 3, element: 1 });
    expect(await t.db.selectFrom('edi_documents').select('id').where('direction', '=', 'Outbound').execute()).toHaveLength(outboundBefore.length);
    expect((await t.db.selectFrom('edi_documents').select('set_id').where('id', '=', response.body.Id).executeTakeFirstOrThrow()).set_id).toBe('997');
  });
});

describe('POST /edi/inbound: hostile interchanges', () => {
  it('rejects wrong counts and control numbers with located errors in the answer and the 997, changing nothing', async () => {
    const before = await businessSnapshot();
    const seCount = await submit(buildInterchange({ control: nextControl(), groups: [{ functionalId: 'SM', sets: [{ id: '204', body: tender204({ shipment: 'H-SE' }), seCount: '7' }] }] }));
    expect(seCount.body.Transactions[0].Status).toBe('Rejected');
    expect(codesOf(seCount.body.Transactions[0])).toContain('SegmentCountMismatch SE@22.1');
    expect(ackSegments(seCount.body)).toContain('AK5*R*4');

    const geCount = await submit(buildInterchange({ control: nextControl(), groups: [{ functionalId: 'SM', geCount: '3', sets: [{ id: '204', body: tender204({ shipment: 'H-GE' }) }] }] }));
    expect(codesOf(geCount.body.Transactions[0])).toEqual(['SetCountMismatch GE@25.1']);
    expect(ackSegments(geCount.body)).toContain('AK9*R*3*1*0*5');

    const ieaCount = await submit(buildInterchange({ control: nextControl(), ieaCount: '2', groups: [{ functionalId: 'SM', sets: [{ id: '204', body: tender204({ shipment: 'H-IEA' }) }] }] }));
    expect(codesOf(ieaCount.body.Transactions[0])).toEqual(['GroupCountMismatch IEA@26.1']);
    expect(ieaCount.body.Transactions[0].Status).toBe('Rejected');
    expect(await businessSnapshot()).toEqual(before);
  });

  it('never answers 5xx: mismatched separators, 10,000 segments and a segment near 1 MiB', async () => {
    const before = await businessSnapshot();
    const text = interchangeOf204s(nextControl(), [{ shipment: 'H-SEP' }]);
    const mismatched = await submit(text.replace(/^(GS|ST|B2)\*/gm, '$1|'));
    expect([200, 400]).toContain(mismatched.status);
    if (mismatched.status === 200) expect(mismatched.body.Transactions.every((set: any) => set.Status === 'Rejected')).toBe(true);

    const many = interchangeOf204s(nextControl(), [{ shipment: 'H-MANY', header: Array.from({ length: 10_000 }, (_, i) => ['NTE', 'GEN', `note ${i}`]) }]);
    const manyAnswer = await submit(many);
    expect([200, 400]).toContain(manyAnswer.status);
    if (manyAnswer.status === 200) expect(manyAnswer.body.Transactions[0].Status).toBe('Rejected');

    const long = interchangeOf204s(nextControl(), [{ shipment: 'H-LONG', header: [['NTE', 'GEN', 'y'.repeat(1024 * 1024 - 2000)]] }]);
    const longAnswer = await submit(long);
    expect([200, 400, 413]).toContain(longAnswer.status);
    if (longAnswer.status === 200) expect(longAnswer.body.Transactions[0].Status).toBe('Rejected');
    expect(await businessSnapshot()).toEqual(before);
  });
});

const sample = (name: string) => readFileSync(new URL(`./edi/samples/${name}`, import.meta.url), 'utf8');
const INBOUND_SAMPLES = ['inbound-204-original.x12', 'inbound-204-change.x12', 'inbound-204-cancel.x12'];

function onlySet(text: string): TransactionSet {
  const parsed = parseInterchange(text);
  if (!parsed.ok) throw new Error(parsed.message);
  expect(parsed.envelopeErrors).toEqual([]);
  return parsed.interchange.groups[0]!.sets[0]!;
}
/** Segments as `[id, ...elements]` without trailing empty elements (the emitter trims them). */
const trimmed = (set: TransactionSet) =>
  set.segments.map((segment) => {
    const elements = [...segment.elements];
    while (elements.length > 0 && elements[elements.length - 1] === '') elements.pop();
    return [segment.id, ...elements];
  });

describe('POST /edi/inbound: the sample interchanges', () => {
  it.each(INBOUND_SAMPLES)('%s round-trips: parse, map, emit, parse again, map again, compare', (name) => {
    const first = onlySet(sample(name));
    const mapped = map204(first);
    expect(mapped.ok).toBe(true);
    const emitted = emitInterchange(
      {
        sender: { qualifier: 'ZZ', id: 'HEARTLANDKC' },
        receiver: { qualifier: 'ZZ', id: 'WAYBILL' },
        senderGsId: 'HEARTLANDKC',
        receiverGsId: 'WAYBILL',
        usage: 'T',
        controlNumber: Number(first.controlNumber),
        at: new Date('2026-11-27T09:15:00Z'),
        functionalId: 'SM',
      },
      { id: '204', body: trimmed(first).slice(1, -1) },
    );
    const second = onlySet(emitted);
    expect(trimmed(second)).toEqual(trimmed(first));
    expect(map204(second)).toEqual(mapped);
  });

  it('applies the samples in turn over HTTP: original (three stops), change, cancel', async () => {
    const original = await submit(sample('inbound-204-original.x12'));
    expect(original.status, original.text).toBe(200);
    const [set] = original.body.Transactions;
    expect(set).toMatchObject({ Set: '204', ControlNumber: '7001', Status: 'Accepted', Errors: [] });
    const tender = await tenderOf(set.TenderId);
    expect(tender).toMatchObject({ ExternalId: 'HK-SAMPLE-1', Rate: { Amount: 2640.75, Currency: 840 }, Equipment: 'Reefer', RespondBy: '2026-11-28T00:00:00.000Z' });
    expect(tender.Stops.map((stop: any) => [stop.StopType, stop.CompanyName, stop.Address.City])).toEqual([
      ['Pickup', 'Heartland Bakery Plant', 'Kansas City'],
      ['Delivery', 'Prairie Grocers DC 4', 'Omaha'],
      ['Delivery', 'Prairie Grocers DC 7', 'Des Moines'],
    ]);
    const change = await submit(sample('inbound-204-change.x12'));
    expect(change.body.Transactions[0]).toMatchObject({ Status: 'Accepted', TenderId: set.TenderId });
    expect((await tenderOf(set.TenderId)).Stops).toHaveLength(2);
    const cancel = await submit(sample('inbound-204-cancel.x12'));
    expect(cancel.body.Transactions[0]).toMatchObject({ Status: 'Accepted', TenderId: set.TenderId });
    expect((await tenderOf(set.TenderId)).Status).toBe('Cancelled');
  });
});
