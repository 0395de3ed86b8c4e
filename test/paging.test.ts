import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { moneyFixture } from './support/money-fixture.js';

/**
 * Keyset paging (Cursor / NextCursor) beside Page, on every list that answers
 * { Items, Page, PageSize, Total }, as an integration walking everything calls it.
 */

let t: TestApp;
const V = '/api/p/v1.0';
const AS = 'tn_prairie-all';

beforeAll(async () => {
  const fixture = moneyFixture();
  const prairie = fixture.Tenants.find((tenant: any) => tenant.Id === 'tn_prairie');
  // Enough drivers for many pages, added out of id order.
  for (let n = 24; n >= 0; n--) {
    const id = String((n * 7) % 25).padStart(2, '0');
    prairie.Drivers.push({ Id: `drv_p${id}`, FirstName: `P${id}`, LastName: 'Paging', Type: n % 2 ? 'COMPANY' : 'EXTERNAL', SubsidiaryId: n % 3 ? 'sub_kc' : 'sub_dal' });
  }
  // Deductions sharing Dates: the list is newest Date first, then by id, so ties decide pages.
  for (let n = 0; n < 9; n++) {
    prairie.Deductions.push({
      Id: `ded_p${8 - n}`,
      Type: 'Deduction',
      GroupId: 'grp_p',
      Description: 'Paging',
      Category: 'Paging',
      Amount: { Amount: -1, Currency: 840 },
      Date: `2026-11-0${1 + (n % 3)}T00:00:00Z`,
      IsPaid: false,
      CreatedAt: '2026-11-01T00:00:00Z',
      DriverId: 'drv_ana',
    });
  }
  // Loads (and their trips) all created at the same instant: the id decides their order.
  const template = JSON.stringify(prairie.Loads.find((load: any) => load.Id === 'lod_1001'));
  for (let n = 1; n <= 8; n++) prairie.Loads.push(JSON.parse(template.replaceAll('1001', `500${n}`)));
  for (const id of ['wh_p3', 'wh_p1', 'wh_p4', 'wh_p2', 'wh_p0']) {
    prairie.Webhooks.push({ Id: id, Name: id, Url: `http://127.0.0.1:9/${id}`, SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] });
  }
  t = await startTestApp({ fixture });

  // Histories, written as integrations and the dispatcher write them; some share a timestamp.
  for (const minute of [10, 20, 30, 40, 50, 55, 58]) {
    const reading = { Coordinates: { Latitude: `39.${minute}`, Longitude: '-94.5' }, RecordedAt: `2026-11-22T11:${minute}:00.000Z` };
    const response = await post('/assets/trk_101/locations', reading);
    if (response.status !== 201) throw new Error(response.text);
  }
  for (const minute of [10, 10, 20, 20, 20, 30, 40]) {
    const response = await post('/visibility/assets/truck/trk_101/telemetry', { RecordedAt: `2026-11-22T11:${minute}:00Z`, Speed: minute });
    if (response.status !== 201) throw new Error(response.text);
  }
  for (const type of ['Proof of Pickup', 'Shipping Labels', 'Bill of Lading', 'Proof of Pickup', 'Shipping Labels']) {
    const response = await t.api(`${V}/loads/L-1001/documents/doc_1001_bol`, { method: 'PATCH', as: AS, body: { DocumentType: type } });
    if (response.status !== 200) throw new Error(response.text);
  }
  await t.db
    .insertInto('webhook_delivery_attempts')
    .values(
      [5, 5, 4, 3, 3, 3, 1].map((minutesAgo, n) => ({
        id: `att_p${n}`,
        tenant_id: 'tn_prairie',
        delivery_id: `msg_p${n}`,
        webhook_id: 'wh_p1',
        customer_id: null,
        event_type: 'trip.changed',
        attempt: 1,
        status: 'success',
        http_status: 200,
        duration_ms: 10,
        reason: null,
        response_body: null,
        attempted_at: new Date(Date.parse('2026-11-22T12:00:00Z') - minutesAgo * 60_000).toISOString(),
      })),
    )
    .execute();
});
afterAll(async () => {
  await t?.close();
});

const get = (path: string) => t.api(`${V}${path}`, { as: AS });
const post = (path: string, body: object) => t.api(`${V}${path}`, { method: 'POST', as: AS, body });
const withQuery = (path: string, query: Record<string, string | number>) =>
  `${path}${path.includes('?') ? '&' : '?'}${new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]))}`;

/** How an item is told apart in each list (statements have a Number, most an Id, the rest only their content). */
const keyOf = (item: any): string | number => item.Id ?? item.Number ?? JSON.stringify(item);

interface ListCase {
  name: string;
  /** One page: GET with query parameters or POST with body fields. */
  page(paging: { PageSize: number; Page?: number; Cursor?: string }): Promise<ApiResponse>;
}

const getList = (name: string, path: string): ListCase => ({ name, page: (paging) => get(withQuery(path, paging)) });
const postList = (name: string, path: string, filters: object = {}): ListCase => ({
  name,
  page: (paging) => post(path, { ...filters, ...paging }),
});

const LISTS: ListCase[] = [
  getList('GET /trips', '/trips'),
  postList('POST /trips/search with a load filter', '/trips/search', { CustomerId: 'cus_heartland' }),
  getList('GET /trips/{id}/stops', '/trips/trp_5003_a/stops'),
  getList('GET /loads', '/loads'),
  postList('POST /loads/search', '/loads/search', { Status: ['InTransit'] }),
  getList('GET /drivers', '/drivers'),
  postList('POST /drivers/search', '/drivers/search', { Type: ['EXTERNAL'] }),
  getList('GET /trucks', '/trucks'),
  getList('GET /trailers', '/trailers'),
  postList('POST /deductions/search', '/deductions/search'),
  postList('POST /carrier-settlement-statements/search', '/carrier-settlement-statements/search'),
  postList('POST /driver-settlement-statements/search', '/driver-settlement-statements/search'),
  getList('GET /references', '/references'),
  getList('GET /accessorials/accessorial-types', '/accessorials/accessorial-types?includeDeleted=true'),
  getList('GET /subsidiaries', '/subsidiaries'),
  postList('POST /drivers/events/search', '/drivers/events/search'),
  postList('POST /maintenance/search', '/maintenance/search'),
  getList('GET /assets/{id}/locations', '/assets/trk_101/locations'),
  getList('GET /visibility/assets/{type}/{id}/locations', '/visibility/assets/truck/trk_101/locations?From=2026-11-22T11:15:00Z'),
  getList('GET /visibility/assets/{type}/{id}/telemetry', '/visibility/assets/truck/trk_101/telemetry'),
  getList('GET /loads/{n}/documents/{id}/history', '/loads/L-1001/documents/doc_1001_bol/history'),
  getList('GET /trips/{id}/documents/{id}/history', '/trips/trp_1001_a/documents/doc_1001_a_pop/history'),
  getList('GET /webhooks', '/webhooks'),
  getList('GET /webhooks/{id}/delivery-logs', '/webhooks/wh_p1/delivery-logs'),
];

/** Every item of a list, following NextCursor from the first page until it is null. */
async function walk(list: ListCase, pageSize: number) {
  const items: any[] = [];
  const totals = new Set<number>();
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const response = await list.page(cursor === undefined ? { PageSize: pageSize } : { PageSize: pageSize, Cursor: cursor });
    expect(response.status, response.text).toBe(200);
    expect(response.body.Page).toBe(0);
    expect(response.body.Items.length).toBeLessThanOrEqual(pageSize);
    items.push(...response.body.Items);
    totals.add(response.body.Total);
    if (response.body.NextCursor === null) return { items, totals };
    expect(response.body.Items).toHaveLength(pageSize);
    cursor = response.body.NextCursor;
  }
  throw new Error(`${list.name}: NextCursor never became null`);
}

describe.each(LISTS)('$name', (list) => {
  it('walks with Cursor: every item exactly once, in the list order, ending with NextCursor null', async () => {
    const all = await list.page({ PageSize: 100 });
    expect(all.status, all.text).toBe(200);
    expect(all.body.NextCursor).toBeNull();
    const { items, totals } = await walk(list, 2);
    expect(items.map(keyOf)).toEqual(all.body.Items.map(keyOf));
    expect(items).toEqual(all.body.Items);
    // Total is the whole filtered list on every page, cursor or not.
    expect([...totals]).toEqual([all.body.Total]);
  });

  it('answers NextCursor on Page-based pages: non-null before the last page, null on it and beyond', async () => {
    const total: number = (await list.page({ PageSize: 100 })).body.Total;
    const pageSize = 2;
    const last = Math.max(0, Math.ceil(total / pageSize) - 1);
    for (let page = 0; page <= last + 1; page++) {
      const response = await list.page({ PageSize: pageSize, Page: page });
      expect(response.status, response.text).toBe(200);
      if (page < last) expect(response.body.NextCursor, `page ${page} of ${total} items`).toEqual(expect.any(String));
      else expect(response.body.NextCursor, `page ${page} of ${total} items`).toBeNull();
    }
  });
});

it('walks enough of the lists to mean something', async () => {
  // The fixture makes the walks above cross many pages and ties.
  expect((await get('/drivers?PageSize=1')).body.Total).toBe(28);
  expect((await get('/trips?PageSize=1')).body.Total).toBe(11);
  expect((await post('/deductions/search', { PageSize: 1 })).body.Total).toBe(11);
  expect((await post('/carrier-settlement-statements/search', { PageSize: 1 })).body.Total).toBe(2);
  expect((await post('/drivers/events/search', { PageSize: 1 })).body.Total).toBeGreaterThan(4);
  expect((await get('/assets/trk_101/locations?PageSize=1')).body.Total).toBe(7);
  expect((await get('/visibility/assets/truck/trk_101/telemetry?PageSize=1')).body.Total).toBe(7);
  expect((await get('/loads/L-1001/documents/doc_1001_bol/history?PageSize=1')).body.Total).toBe(5);
  expect((await get('/webhooks?PageSize=1')).body.Total).toBe(6);
  expect((await get('/webhooks/wh_p1/delivery-logs?PageSize=1')).body.Total).toBe(7);
});

describe('the cursor continues after its position, in the list order', () => {
  it('orders trips created at one instant by id and continues after the cursor', async () => {
    const first = await get('/trips?PageSize=3');
    const ids = first.body.Items.map(keyOf);
    expect(ids).toEqual([...ids].sort());
    const next = await get(withQuery('/trips', { PageSize: 3, Cursor: first.body.NextCursor }));
    expect(next.body.Items.map(keyOf)).toEqual((await get('/trips?PageSize=3&Page=1')).body.Items.map(keyOf));
  });

  it('keeps the newest-first order of deductions across pages with equal Dates', async () => {
    const { items } = await walk(postList('deductions', '/deductions/search'), 4);
    const expected = [...items].sort((a, b) => (a.Date === b.Date ? (a.Id < b.Id ? -1 : 1) : a.Date < b.Date ? 1 : -1));
    expect(items.map(keyOf)).toEqual(expected.map(keyOf));
  });

  it('neither repeats nor skips an item when one is added before the position while walking', async () => {
    const first = await get('/drivers?PageSize=5');
    await t.db
      .insertInto('drivers')
      .values({
        id: 'drv_a_late',
        tenant_id: 'tn_prairie',
        subsidiary_id: 'sub_kc',
        first_name: 'Late',
        last_name: 'Comer',
        type: 'COMPANY',
        owner_operator_id: null,
        created_at: '2026-11-22T12:00:00.000Z',
        updated_at: '2026-11-22T12:00:00.000Z',
      })
      .execute();
    try {
      const rest: any[] = [];
      let cursor: string | null = first.body.NextCursor;
      while (cursor !== null) {
        const response = await get(withQuery('/drivers', { PageSize: 5, Cursor: cursor }));
        rest.push(...response.body.Items);
        cursor = response.body.NextCursor;
      }
      const walked = [...first.body.Items, ...rest].map(keyOf);
      expect(new Set(walked).size).toBe(walked.length);
      expect(walked).not.toContain('drv_a_late');
      expect(walked).toHaveLength(first.body.Total);
    } finally {
      await t.db.deleteFrom('drivers').where('id', '=', 'drv_a_late').execute();
    }
  });

  it('compares integer keys as integers, even past what the column holds', async () => {
    const stops = await get('/trips/trp_5003_a/stops?PageSize=1');
    expect(stops.body.Items.map(keyOf)).toEqual(['stp_5003_1']);
    const next = await get(withQuery('/trips/trp_5003_a/stops', { PageSize: 1, Cursor: stops.body.NextCursor }));
    expect(next.body.Items.map(keyOf)).toEqual(['stp_5003_2']);
    const far = cursorOf('stops', [Number.MAX_SAFE_INTEGER, 'stp_x']);
    const beyond = await get(withQuery('/trips/trp_5003_a/stops', { Cursor: far }));
    expect(beyond.status, beyond.text).toBe(200);
    expect(beyond.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 2, NextCursor: null });
  });
});

describe('a GET list and its POST search twin answer the same page', () => {
  const twins: Array<[string, string, object]> = [
    ['/trips?Status=InTransit&PageSize=2', '/trips/search', { Status: ['InTransit'], PageSize: 2 }],
    ['/loads?CustomerId=cus_heartland&PageSize=2', '/loads/search', { CustomerId: 'cus_heartland', PageSize: 2 }],
    ['/drivers?Type=COMPANY,EXTERNAL&PageSize=3', '/drivers/search', { Type: ['COMPANY', 'EXTERNAL'], PageSize: 3 }],
    ['/trucks?PageSize=1', '/trucks/search', { PageSize: 1 }],
    ['/trailers?CompanyOwnedAsset=null&PageSize=1', '/trailers/search', { CompanyOwnedAsset: null, PageSize: 1 }],
    ['/trailers?PageSize=2', '/trailers/search', { PageSize: 2 }],
  ];
  it.each(twins)('GET %s and POST %s', async (query, path, body) => {
    const viaGet = await get(query);
    const viaPost = await post(path, body);
    expect(viaGet.status, viaGet.text).toBe(200);
    expect(viaPost.body).toEqual(viaGet.body);
    expect(viaGet.body.Items.length).toBeGreaterThan(0);
    if (viaGet.body.NextCursor === null) return;
    // The cursor of either continues both: it is the list's, not the method's.
    const nextGet = await get(withQuery(query, { Cursor: viaPost.body.NextCursor }));
    const nextPost = await post(path, { ...body, Cursor: viaGet.body.NextCursor });
    expect(nextGet.status, nextGet.text).toBe(200);
    expect(nextPost.body).toEqual(nextGet.body);
    expect(nextGet.body.Items.map(keyOf)).not.toContain(viaGet.body.Items.at(-1).Id);
  });
});

/** A cursor as the server writes one: base64url of JSON. Tests use it to forge cursors. */
function cursorOf(list: string, after: unknown[]): string {
  return Buffer.from(JSON.stringify({ list, after })).toString('base64url');
}

describe('a cursor that is not this list’s is a 400 naming Cursor', () => {
  const namesCursor = (response: ApiResponse) => {
    expect(response.status, response.text).toBe(400);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(Object.keys(response.body.Errors)).toEqual(['Cursor']);
  };

  it('refuses Page above 0 with a Cursor, on GET and POST', async () => {
    const first = await get('/trips?PageSize=1');
    namesCursor(await get(withQuery('/trips', { PageSize: 1, Page: 1, Cursor: first.body.NextCursor })));
    namesCursor(await post('/trips/search', { PageSize: 1, Page: 2, Cursor: first.body.NextCursor }));
    // Page 0 with it is fine.
    expect((await get(withQuery('/trips', { PageSize: 1, Page: 0, Cursor: first.body.NextCursor }))).status).toBe(200);
  });

  it('refuses garbage', async () => {
    const garbage = ['not-a-cursor', 'e30', '!!!', 'eyJsaXN0IjoidHJpcHMi', Buffer.from('null').toString('base64url'), 'x'.repeat(513), ''];
    for (const cursor of garbage) {
      namesCursor(await get(withQuery('/trips', { Cursor: cursor })));
      namesCursor(await post('/trips/search', { Cursor: cursor }));
    }
    namesCursor(await post('/trips/search', { Cursor: 42 }));
    // Also where the filters alone rule everything out.
    namesCursor(await post('/drivers/search', { Type: [], Cursor: 'not-a-cursor' }));
    namesCursor(await post('/drivers/events/search', { DriverIds: [], Cursor: 'not-a-cursor' }));
    const problem = await get(withQuery('/trips', { Cursor: 'not-a-cursor' }));
    expect(problem.body.Errors.Cursor).toEqual(['The cursor is not valid for this list.']);
  });

  it("refuses another list's cursor, even with the same order columns", async () => {
    const loads = await get('/loads?PageSize=1');
    namesCursor(await get(withQuery('/trips', { Cursor: loads.body.NextCursor })));
    const drivers = await get('/drivers?PageSize=1');
    namesCursor(await get(withQuery('/trucks', { Cursor: drivers.body.NextCursor })));
    const driverEvents = await post('/drivers/events/search', { PageSize: 1 });
    namesCursor(await post('/trucks/events/search', { Cursor: driverEvents.body.NextCursor }));
  });

  it('refuses a cursor of the right list with values of the wrong type or count', async () => {
    const forged = [
      cursorOf('trips', ['2026-11-22T12:00:00.000Z']),
      cursorOf('trips', ['2026-11-22T12:00:00.000Z', 7]),
      cursorOf('trips', ['2026-11-22T12:00:00.000Z', 'trp_1001_a', 'extra']),
      cursorOf('trips', [null, 'trp_1001_a']),
      cursorOf('trips', ['2026-11-22T12:00:00.000Z\u0000', 'trp_1001_a']),
    ];
    for (const cursor of forged) namesCursor(await get(withQuery('/trips', { Cursor: cursor })));
    for (const after of [['1', 'stp_x'], [1.5, 'stp_x'], [2 ** 60, 'stp_x']]) {
      namesCursor(await get(withQuery('/trips/trp_5003_a/stops', { Cursor: cursorOf('stops', after) })));
    }
    // The same shape with the right types is accepted: only the types made those 400s.
    expect((await get(withQuery('/trips', { Cursor: cursorOf('trips', ['2026-11-22T12:00:00.000Z', 'trp_1001_a']) }))).status).toBe(200);
  });

  it('checks the cursor before looking up the parent record (validation before 404)', async () => {
    const paths = [
      '/trips/trp_missing/stops',
      '/assets/trk_missing/locations',
      '/visibility/assets/truck/trk_missing/telemetry',
      '/webhooks/wh_missing/delivery-logs',
      '/trips/trp_missing/documents/doc_missing/history',
      '/loads/missing/documents/doc_missing/history',
    ];
    for (const path of paths) {
      namesCursor(await get(withQuery(path, { Cursor: 'not-a-cursor' })));
      expect((await get(path)).status, path).toBe(404);
    }
  });
});

describe('OpenAPI', () => {
  it('documents Cursor and NextCursor', async () => {
    const doc = (await t.api('/openapi.json')).body;
    const parameters = doc.paths['/api/p/v{version}/trips'].get.parameters;
    const cursor = parameters.find((parameter: any) => parameter.name === 'Cursor');
    expect(cursor.in).toBe('query');
    expect(cursor.description ?? cursor.schema.description).toMatch(/same filters/);
    const page = doc.components.schemas.TripPage;
    expect(page.properties.NextCursor.description).toMatch(/null when this page is the last/);
  });
});
