import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../adapters/logger.js';
import { startTestApp, testFixture, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const LINK = `${V}/loads/L-1001/tracking-link`;
const INTERNAL_VALUE = 'RC-INTERNAL-7781';
const STOP_INTERNAL_VALUE = 'DOCK-CODE-4417';

/** The demo data plus internal references on L-1001 (trip and stop) that the page must never show. */
function trackingFixture() {
  const fixture = testFixture();
  const trip = fixture.Tenants[0].Loads.find((load: any) => load.LoadNumber === 'L-1001').Trips[0];
  trip.References.push({ Id: 'ref_1001_ratecon', Name: 'Rate Confirmation', Value: INTERNAL_VALUE, Access: 'Internal' });
  trip.Stops[1].References = [{ Id: 'ref_1001_dock', Name: 'Dock code', Value: STOP_INTERNAL_VALUE, Access: 'Internal' }];
  return fixture;
}

/** Values of the fixture that must not appear on the page: driver names and ids, assets, rates, phones, other loads. */
const FORBIDDEN = [
  'Ortiz',
  'Ana Ortiz',
  'drv_ana',
  'trk_101',
  'trl_5301',
  'TRK-101',
  '1850',
  '1,850',
  '555 0110',
  '555 0175',
  '555-',
  INTERNAL_VALUE,
  STOP_INTERNAL_VALUE,
  'Rate Confirmation',
  'L-2001',
  'San Antonio',
  'cus_heartland',
  'sub_kc',
  'trp_1001_a',
  'stp_1001',
];

let t: TestApp;
const logs: string[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logs.push(String(chunk));
      done();
    },
  });
  t = await startTestApp({ fixture: trackingFixture(), logger: createLogger('info', sink) });
  // A position of L-1001's truck on its trip, an hour before "now", near Wichita.
  const position = await t.api(`${V}/assets/trk_101/locations`, {
    method: 'POST',
    as: ALL,
    body: { Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' }, RecordedAt: '2026-11-22T11:00:00Z', TripId: 'trp_1001_a' },
  });
  expect(position.status, position.text).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

const createLink = async (path = LINK, as = ALL) => {
  const response = await t.api(path, { method: 'POST', as });
  expect(response.status, response.text).toBe(201);
  return response.body as { Url: string; ExpiresAt: string };
};
/** The page path of a link: the harness fetches paths relative to the API host. */
const pathOf = (url: string) => new URL(url).pathname;
const page = (path: string, accept = 'text/html,application/xhtml+xml') => t.api(path, { headers: { accept } });

describeAuthCases(() => t, {
  method: 'POST',
  path: LINK,
  scope: 'load:update',
  okStatus: 201,
  otherTenantPath: `${V}/loads/H-1/tracking-link`,
  missingPath: `${V}/loads/NOPE-1/tracking-link`,
  otherSubsidiary: { as: 'sub_dal-all', path: LINK },
});

describeAuthCases(() => t, {
  method: 'DELETE',
  path: `${V}/loads/L-2001/tracking-link`,
  scope: 'load:update',
  okStatus: 204,
  otherTenantPath: `${V}/loads/H-1/tracking-link`,
  missingPath: `${V}/loads/NOPE-1/tracking-link`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${V}/loads/L-2001/tracking-link` },
});

describe('POST /loads/{loadNumber}/tracking-link', () => {
  it('answers 201 { Url, ExpiresAt }: a 256-bit token under PUBLIC_BASE_URL, valid 30 days', async () => {
    const response = await t.api(LINK, { method: 'POST', as: ALL });
    expect(response.status, response.text).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['ExpiresAt', 'Url']);
    expect(response.body.ExpiresAt).toBe('2026-12-22T12:00:00.000Z');
    expect(response.body.Url).toMatch(new RegExp(`^${t.apiUrl.replace(/[.]/g, '\\.')}/track/[A-Za-z0-9_-]{43}$`));
  });

  it('accepts an empty object as the body and refuses unknown properties naming them', async () => {
    expect((await t.api(LINK, { method: 'POST', as: ALL, body: {} })).status).toBe(201);
    const refused = await t.api(LINK, { method: 'POST', as: ALL, body: { Days: 90 } });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Days');
  });

  it('makes a new token each time and stores only its hash', async () => {
    const first = await createLink();
    const second = await createLink();
    expect(first.Url).not.toBe(second.Url);
    const token = pathOf(first.Url).slice('/track/'.length);
    const rows = await t.db.selectFrom('tracking_links').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.every((row) => row.tenant_id === 'tn_prairie' && /^[A-Za-z0-9_-]{43}$/.test(row.token_hash))).toBe(true);
  });
});

describe('GET /track/{token}', () => {
  it('serves the page without a bearer token: load, Public references, stops in order, status, ETA, position and map', async () => {
    const { Url } = await createLink();
    const response = await page(pathOf(Url));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = response.text;
    expect(html).toContain('<span id="load-number">L-1001</span>');
    expect(html).toContain('In transit');
    expect(html).toContain('PO Number');
    expect(html).toContain('PO-55821');
    expect(html.indexOf('id="stop-1"')).toBeLessThan(html.indexOf('id="stop-2"'));
    expect(html).toMatch(/id="stop-1"[^]*Pickup[^]*Kansas City, MO[^]*Completed[^]*Appointment Sat Nov 21, 08:00 CST[^]*Arrived Sat Nov 21, 07:52 CST \(manual\) · Departed Sat Nov 21, 09:05 CST \(manual\)/);
    expect(html).toMatch(/id="stop-2"[^]*Delivery[^]*Oklahoma City, OK[^]*Open[^]*Window Sun Nov 22, 08:00–16:00 CST/);
    expect(html).toMatch(/id="eta-text">Arriving (Sun|Mon) Nov \d\d, \d\d:\d\d CST/);
    expect(html).toContain('Last known position near Wichita, KS: <strong>1 h ago</strong>');
    expect(html).toContain('<meta http-equiv="refresh" content="60">');
    // The map: states drawn, the route, one marker per stop and the truck; nothing loaded from elsewhere.
    expect(html).toMatch(/<svg class="map" id="route-map"[^>]*>/);
    expect(html).toContain('id="map-stop-1"');
    expect(html).toContain('id="map-stop-2"');
    expect(html).toContain('id="map-truck"');
    expect(html).toMatch(/<g class="map-states">(<path d="M[^"]+"\/>){3,}/);
    expect(html).not.toMatch(/<script|<link rel="stylesheet"|@import|url\(|src="http/);
    expect(html.match(/https?:\/\/[^"\s<]*/g)?.filter((url) => url !== 'http://www.w3.org/2000/svg') ?? []).toEqual([]);
  });

  it('sends a strict Content-Security-Policy whose nonce is the inline style sheet\'s, and keeps the token out of Referer', async () => {
    const { Url } = await createLink();
    const response = await page(pathOf(Url));
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'$/);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(response.text).toContain(`<style nonce="${nonce}">`);
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the same data as JSON for Accept: application/json', async () => {
    const { Url, ExpiresAt } = await createLink();
    const response = await page(pathOf(Url), 'application/json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = response.body;
    expect(Object.keys(body).sort()).toEqual(['DeliveryEta', 'ExpiresAt', 'GeneratedAt', 'LastPosition', 'LoadNumber', 'Notes', 'References', 'Status', 'Stops']);
    expect(body).toMatchObject({ LoadNumber: 'L-1001', Status: 'InTransit', References: [{ Name: 'PO Number', Value: 'PO-55821' }], Notes: [], ExpiresAt, GeneratedAt: '2026-11-22T12:00:00.000Z' });
    expect(body.Stops).toEqual([
      {
        Sequence: 1,
        StopType: 'Pickup',
        City: 'Kansas City',
        State: 'MO',
        TimeZone: 'America/Chicago',
        ScheduleType: 'APPT',
        AppointmentDate: '2026-11-21T14:00:00.000Z',
        StopWindow: null,
        Status: 'Completed',
        ArrivedAt: '2026-11-21T13:52:00.000Z',
        DepartedAt: '2026-11-21T15:05:00.000Z',
        ArrivalSource: 'Manual',
        DepartureSource: 'Manual',
        Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
      },
      {
        Sequence: 2,
        StopType: 'Delivery',
        City: 'Oklahoma City',
        State: 'OK',
        TimeZone: 'America/Chicago',
        ScheduleType: 'FCFS',
        AppointmentDate: null,
        StopWindow: { Begin: '2026-11-22T14:00:00.000Z', End: '2026-11-22T22:00:00.000Z' },
        Status: 'Open',
        ArrivedAt: null,
        DepartedAt: null,
        ArrivalSource: null,
        DepartureSource: null,
        Coordinates: { Latitude: '35.4676', Longitude: '-97.5164' },
      },
    ]);
    // The truck reported a position in transit (HosEta plan): the Live estimate leads.
    expect(body.DeliveryEta).toMatchObject({ Source: 'Live', StopSequence: 2, Target: '2026-11-22T22:00:00.000Z', TargetKind: 'Window' });
    expect(body.DeliveryEta.MinutesLate).toBe(Math.round((Date.parse(body.DeliveryEta.At) - Date.parse('2026-11-22T22:00:00Z')) / 60_000));
    expect(body.LastPosition).toEqual({
      Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' },
      City: 'Wichita',
      State: 'KS',
      RecordedAt: '2026-11-22T11:00:00.000Z',
    });
  });

  it('states a late delivery against its appointment in words, with the Planned estimate when there is no Live one', async () => {
    const appointment = await t.api(`${V}/trips/trp_2001_a/stops/stp_2001_3/appointment`, {
      method: 'PUT',
      as: ALL,
      headers: { 'if-match': '*' },
      body: { AppointmentDate: '2026-11-23T22:00:00Z' },
    });
    expect(appointment.status, appointment.text).toBe(200);
    const { Url } = await createLink(`${V}/loads/L-2001/tracking-link`);
    const json = (await page(pathOf(Url), 'application/json')).body;
    expect(json.DeliveryEta).toEqual({
      At: '2026-11-24T00:10:00.000Z',
      Source: 'Planned',
      StopSequence: 3,
      Target: '2026-11-23T22:00:00.000Z',
      TargetKind: 'Appointment',
      MinutesLate: 130,
    });
    expect(json.Stops.map((stop: any) => stop.StopType)).toEqual(['Pickup', 'Waypoint', 'Delivery']);
    const html = (await page(pathOf(Url))).text;
    expect(html).toContain('id="eta-text">Arriving Mon Nov 23, 18:10 CST, about 2 h late against the appointment</p>');
    expect(html).toContain('Planned estimate');
    expect(html).toContain('No position reported yet.');
    expect(html).not.toContain('id="map-truck"');
  });

  it('never shows rates, driver names, phone numbers, internal references, asset ids or another load', async () => {
    const { Url } = await createLink();
    const html = (await page(pathOf(Url))).text;
    const json = (await page(pathOf(Url), 'application/json')).text;
    for (const value of FORBIDDEN) {
      expect(html, value).not.toContain(value);
      expect(json, value).not.toContain(value);
    }
  });

  it('escapes every value it shows', async () => {
    const fixture = trackingFixture();
    const trip = fixture.Tenants[0].Loads.find((load: any) => load.LoadNumber === 'L-1001').Trips[0];
    trip.References[0].Value = '<img src=x>';
    trip.Stops[0].Address.City = '"><script>x</script>';
    const app = await startTestApp({ fixture });
    try {
      const created = await app.api(LINK, { method: 'POST', as: ALL });
      const html = (await app.api(pathOf(created.body.Url), { headers: { accept: 'text/html' } })).text;
      expect(html).not.toContain('<img src=x>');
      expect(html).not.toContain('<script>');
      expect(html).toContain('&lt;img src=x&gt;');
      expect(html).toContain('&quot;&gt;&lt;script&gt;x&lt;/script&gt;');
    } finally {
      await app.close();
    }
  });

  it('answers a forged token with a 404 page, or a 404 problem for Accept JSON, naming no token', async () => {
    const forged = `/track/${'A'.repeat(43)}`;
    const html = await page(forged);
    expect(html.status).toBe(404);
    expect(html.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(html.text).toContain('Tracking link not found');
    const json = await page(forged, 'application/json');
    expect(json.status).toBe(404);
    expect(json.headers.get('content-type')).toBe('application/problem+json');
    expect(json.body).toMatchObject({ Status: 404, Instance: '/track/[redacted]' });
    expect(json.body.Type).toMatch(/\/errors\/NotFound$/);
    for (const path of ['/track/', '/track/short', '/track/%ZZ', `/track/${'A'.repeat(43)}/more`]) {
      expect((await page(path)).status, path).toBe(404);
    }
  });

  it('answers other methods with 405 and Allow', async () => {
    const { Url } = await createLink();
    const response = await t.api(pathOf(Url), { method: 'POST', body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers every link of a load 404 once revoked (204), and leaves other loads\' links working', async () => {
    const first = await createLink();
    const second = await createLink();
    const other = await createLink(`${V}/loads/L-2001/tracking-link`);
    const revoked = await t.api(LINK, { method: 'DELETE', as: ALL });
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    for (const link of [first, second]) {
      expect((await page(pathOf(link.Url))).status).toBe(404);
      expect((await page(pathOf(link.Url), 'application/json')).status).toBe(404);
    }
    expect((await page(pathOf(other.Url))).status).toBe(200);
    // A new link after the revoke works.
    expect((await page(pathOf((await createLink()).Url))).status).toBe(200);
  });

  it('answers 410 once the 30 days have passed (HTML page or problem), and 200 the millisecond before', async () => {
    const { Url } = await createLink();
    try {
      t.clock.advance(30 * 24 * 3600 * 1000 - 1);
      const late = await page(pathOf(Url));
      expect(late.status).toBe(200);
      // Weeks later the estimate has passed without an arrival: the page does not say "Arriving".
      expect(late.text).toMatch(/id="eta-text">Was expected (Sun|Mon) Nov \d\d, \d\d:\d\d CST/);
      t.clock.advance(1);
      const html = await page(pathOf(Url));
      expect(html.status).toBe(410);
      expect(html.text).toContain('Tracking link expired');
      const json = await page(pathOf(Url), 'application/json');
      expect(json.status).toBe(410);
      expect(json.body.Type).toMatch(/\/errors\/Gone$/);
    } finally {
      t.clock.set('2026-11-22T12:00:00Z');
    }
  });

  it('keeps tokens out of the log lines, which name the path as /track/[redacted]', async () => {
    const { Url } = await createLink();
    const token = pathOf(Url).slice('/track/'.length);
    await page(pathOf(Url));
    await page(pathOf(Url), 'application/json');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const logged = logs.join('');
    expect(logged).toContain('"path":"/track/[redacted]"');
    expect(logged).not.toContain(token);
  });
});

describe('GET /track/{token} under the tokenless per-IP limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await startTestApp({ env: { RATE_LIMITS: 'on' } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('refuses a burst from one address with 429 and Retry-After', async () => {
    const responses = await Promise.all(Array.from({ length: 30 }, () => limited.api(`/track/${'B'.repeat(43)}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 404).length).toBeGreaterThan(0);
    const refused = responses.find((response) => response.status === 429);
    expect(refused, statuses.join(',')).toBeDefined();
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
