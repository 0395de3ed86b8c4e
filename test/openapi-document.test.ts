import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADER_VERSIONS } from '../adapters/rest/versions.js';
import { projectRoot } from '../adapters/project-root.js';
import { EVENT_TYPES } from '../core/webhooks/event-types.js';
import { AUDIENCE, secretOf, startTestApp, type TestApp } from './harness.js';
import { moneyFixture } from './support/money-fixture.js';

let t: TestApp;
let doc: any;
beforeAll(async () => {
  t = await startTestApp({ fixture: moneyFixture() });
  doc = (await t.api('/openapi.json')).body;
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';

/** Forms `Number()` reads as an integer that are not canonical decimal integer text (issue 12). */
const LENIENT = ['0x10', '0b101', '0o7', '1e1', '%205', '5%20', '+5', '5.0', '%EF%BB%BF5', '', '-0x1', '1_0', 'Infinity'];

describe('strict integers in query strings', () => {
  it.each(LENIENT)('GET /trips?PageSize=%s is a 400 naming PageSize', async (text) => {
    const response = await t.api(`${V}/trips?PageSize=${text}`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
    expect(Object.keys(response.body.Errors)).toEqual(['PageSize']);
  });

  it('reads canonical integers, leading zeros and negative text included, and range-checks them', async () => {
    expect((await t.api(`${V}/trips?PageSize=16&Page=0`, { as: 'tn_prairie-all' })).body).toMatchObject({ Page: 0, PageSize: 16 });
    expect((await t.api(`${V}/trips?PageSize=016`, { as: 'tn_prairie-all' })).body).toMatchObject({ PageSize: 16 });
    for (const query of ['Page=-1', 'PageSize=0', 'PageSize=101', 'Page=99999999999999999999']) {
      const response = await t.api(`${V}/trips?${query}`, { as: 'tn_prairie-all' });
      expect(response.status, query).toBe(400);
      expect(Object.keys(response.body.Errors), query).toEqual([query.split('=')[0]]);
    }
  });

  it('refuses Page in any lenient form too', async () => {
    const response = await t.api(`${V}/subsidiaries?Page=1e0`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['Page']);
  });

  it.each(['0x7', '7.0', '+7', '2', '07e0'])('GET /webhooks/{id}/health?Days=%s is a 400 naming Days', async (text) => {
    const response = await t.api(`${V}/webhooks/wh_none/health?Days=${text}`, { as: 'tn_prairie-all' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['Days']);
  });
});

describe('strict integers in paths', () => {
  const withoutInstance = ({ Instance: _instance, ...rest }: Record<string, unknown>) => rest;

  it.each([
    ['carrier-settlement-statements', 70001, 'prairie-integration'],
    ['driver-settlement-statements', 80001, 'prairie-integration'],
  ])('/%s/{number}: a lenient form of an existing number is a 404 like a missing statement', async (resource, number, as) => {
    expect((await t.api(`${V}/${resource}/${number}`, { as })).status).toBe(200);
    const missing = await t.api(`${V}/${resource}/99999`, { as });
    expect(missing.status).toBe(404);
    const hex = number.toString(16);
    for (const text of [`0x${hex}`, `${number}.0`, `%2B${number}`, `${number / 10}e1`, `%20${number}`, `%EF%BB%BF${number}`, '0', '-1', '99999999999999999999']) {
      const response = await t.api(`${V}/${resource}/${text}`, { as });
      expect(response.status, text).toBe(404);
      expect(response.headers.get('content-type'), text).toBe('application/problem+json');
      expect(withoutInstance(response.body), text).toEqual(withoutInstance(missing.body));
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The OpenAPI document tells the truth (issue 12): what it allows the server accepts, and what
// the server answers it describes. Values are checked with Ajv against the document's own schemas.

const P = '/api/p/v{version}';
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });

function operation(method: string, path: string): any {
  const found = doc.paths[P + path]?.[method];
  if (!found) throw new Error(`no operation ${method} ${path}`);
  return found;
}

function operations(): Array<{ key: string; op: any }> {
  return Object.entries(doc.paths).flatMap(([path, item]: [string, any]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ key: `${method.toUpperCase()} ${path}`, op: item[method] })),
  );
}

/** Whether `value` is valid against `schema`, its `#/components/...` references resolved in the document. */
function valid(schema: any, value: unknown): boolean {
  return ajv.validate({ ...schema, components: doc.components }, value) as boolean;
}

function bodySchema(method: string, path: string): any {
  return operation(method, path).requestBody.content['application/json'].schema;
}

function parameter(method: string, path: string, name: string): any {
  const found = operation(method, path).parameters.find((p: any) => p.name === name);
  if (!found) throw new Error(`no parameter ${name} on ${method} ${path}`);
  return found;
}

describe('the document: problems', () => {
  it('documents a 400 as either a validation problem or an unsupported version, and both real answers match', async () => {
    const badRequest = { $ref: '#/components/schemas/BadRequestProblem' };
    for (const { key, op } of operations()) {
      expect(op.responses['400'].content, key).toEqual({ 'application/problem+json': { schema: badRequest } });
    }
    const version = await t.api('/api/p/v9.0/subsidiaries', { as: 'tn_prairie-all' });
    expect(version.status).toBe(400);
    expect(version.body.Errors).toBeUndefined();
    expect(valid(badRequest, version.body)).toBe(true);
    expect(valid({ $ref: '#/components/schemas/ValidationProblem' }, version.body)).toBe(false);
    expect(valid({ $ref: '#/components/schemas/UnsupportedApiVersionProblem' }, version.body)).toBe(true);

    const validation = await t.api(`${V}/trips?PageSize=0x10`, { as: 'tn_prairie-all' });
    expect(validation.status).toBe(400);
    expect(valid(badRequest, validation.body)).toBe(true);
    expect(valid({ $ref: '#/components/schemas/ValidationProblem' }, validation.body)).toBe(true);
  });

  /** The POSTs whose body fields are all optional: an empty body is `{}`. */
  const OPTIONAL_BODIES = [
    'POST /api/p/v{version}/dispatchpreferences/search',
    'POST /api/p/v{version}/invoices/{id}/void',
    'POST /api/p/v{version}/loads/{loadNumber}/cancel',
    'POST /api/p/v{version}/tenders/{id}/cancel',
    'POST /api/p/v{version}/trips/{tripId}/assign',
    'POST /api/p/v{version}/visibility/assets/{assetType}/{assetId}/telemetry',
  ];

  it('gives every error status a problem+json body and every success its own media types', () => {
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses) as Array<[string, any]>) {
        if (Number(status) >= 400) expect(Object.keys(response.content), `${key} ${status}`).toEqual(['application/problem+json']);
        else if (status === '204') expect(response.content, `${key} ${status}`).toBeUndefined();
        else expect(response.content, `${key} ${status}`).toBeDefined();
        expect(response.headers?.['Cache-Control'], `${key} ${status}`).toBeDefined();
        expect(response.headers?.['X-Request-Id'], `${key} ${status}`).toBeDefined();
      }
      if (op.requestBody) expect(op.requestBody.required, key).toBe(!OPTIONAL_BODIES.includes(key));
    }
  });
});

describe('the document: success answers', () => {
  it('documents DELETE /webhooks/{id} as a 204 without content, as the server answers', async () => {
    const responses = operation('delete', '/webhooks/{id}').responses;
    expect(responses['204']).toBeDefined();
    expect(responses['204'].content).toBeUndefined();
    expect(responses['200']).toBeUndefined();
  });

  it('documents the Location of every create that sends one', async () => {
    for (const path of ['/webhooks', '/deductions/once', '/credits/driver', '/maintenance', '/accessorials/driver', '/credits/carrier']) {
      expect(operation('post', path).responses['201'].headers, path).toHaveProperty('Location');
    }
    const created = await t.api(`${V}/webhooks`, {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { Name: 'Doc hook', Url: 'https://example.com/hooks', SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(/\/webhooks\/wh_/);
    const deleted = await t.api(`${V}/webhooks/${created.body.Id}`, { method: 'DELETE', as: 'tn_prairie-all' });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
  });

  it('documents the ETag of every read that sends one', async () => {
    for (const path of ['/trips/{tripId}', '/deductions/{id}', '/credits/driver/{deductionId}', '/maintenance/{id}', '/accessorials/driver/{id}']) {
      expect(operation('get', path).responses['200'].headers, path).toHaveProperty('ETag');
    }
    expect((await t.api(`${V}/trips/trp_1001_a`, { as: 'tn_prairie-all' })).headers.get('etag')).toBeTruthy();
  });

  it('documents the export as CSV or JSON with a Content-Disposition', () => {
    const ok = operation('get', '/webhooks/{webhookId}/delivery-logs/export').responses['200'];
    expect(Object.keys(ok.content).sort()).toEqual(['application/json', 'text/csv']);
    expect(ok.headers).toHaveProperty('Content-Disposition');
  });
});

describe('the document: values the server refuses are refused by the schema', () => {
  it('lists the api-version header values, each of them accepted', async () => {
    const schema = parameter('get', '/subsidiaries', 'api-version').schema;
    expect(schema.enum).toEqual(HEADER_VERSIONS);
    expect(schema.enum).not.toContain('4.0');
    for (const value of schema.enum as string[]) {
      const response = await t.api(`${V}/subsidiaries`, { as: 'tn_prairie-all', headers: { 'api-version': value } });
      expect(response.status, JSON.stringify(value)).toBe(200);
    }
    for (const value of ['4.0', 'toString', 'constructor', '__proto__', 'vhasOwnProperty']) {
      const response = await t.api(`${V}/subsidiaries`, { as: 'tn_prairie-all', headers: { 'api-version': value } });
      expect(response.status, value).toBe(400);
      expect(response.body.Type, value).toBe(`${t.apiUrl}/errors/UnsupportedApiVersion`);
      const path = await t.api(`/api/p/v${value}/subsidiaries`, { as: 'tn_prairie-all' });
      expect(path.body.Type, value).toBe(`${t.apiUrl}/errors/UnsupportedApiVersion`);
    }
  });

  it('gives integers of queries and paths their bounds, and Days its three values', () => {
    const pageSize = parameter('get', '/trips', 'PageSize').schema;
    expect(pageSize).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 50 });
    expect(parameter('get', '/trips', 'Page').schema).toMatchObject({ type: 'integer', minimum: 0, default: 0 });
    expect(parameter('get', '/webhooks/{webhookId}/health', 'Days').schema).toMatchObject({ type: 'integer', enum: [1, 7, 30], default: 7 });
    expect(parameter('get', '/carrier-settlement-statements/{number}', 'number').schema).toMatchObject({ type: 'integer', minimum: 1 });
    expect(valid(pageSize, 16)).toBe(true);
    expect(valid(pageSize, '0x10')).toBe(false);
  });

  it('limits {assetType} to driver, truck and trailer in any case', () => {
    for (const path of ['/visibility/assets/{assetType}/{assetId}/locations', '/visibility/assets/{assetType}/{assetId}/telemetry']) {
      const schema = parameter('post', path, 'assetType').schema;
      for (const ok of ['driver', 'Truck', 'TRAILER']) expect(valid(schema, ok), ok).toBe(true);
      for (const bad of ['bus', 'drivers', '', ' truck']) expect(valid(schema, bad), bad).toBe(false);
    }
  });

  it('lists the subscribable event types and patterns, and the server takes every one', async () => {
    const items = bodySchema('post', '/webhooks').properties.EventTypes.items;
    expect(items.enum).toEqual(expect.arrayContaining(['trip.changed', 'trip.*', 'trip.status.*', 'carrier.document.*', 'webhook.test']));
    expect(items.enum).not.toContain('*');
    const created = await t.api(`${V}/webhooks`, {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { Name: 'Every type', Url: 'https://example.com/all', SubsidiaryId: 'sub_kc', EventTypes: items.enum },
    });
    expect(created.status).toBe(201);
    const refused = await t.api(`${V}/webhooks`, {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { Name: 'Bad type', Url: 'https://example.com/all', SubsidiaryId: 'sub_kc', EventTypes: ['trip.nope'] },
    });
    expect(refused.status).toBe(400);
  });

  it('describes webhook URLs as http(s) URIs without credentials', async () => {
    for (const [method, path] of [['post', '/webhooks'], ['put', '/webhooks/{id}']]) {
      const url = bodySchema(method!, path!).properties.Url;
      expect(url.format).toBe('uri');
      for (const ok of ['https://example.com/hooks', 'http://127.0.0.1:4567/x?y=1#z', 'HTTPS://a.example/%20']) expect(valid(url, ok), ok).toBe(true);
      for (const bad of ['ftp://example.com', 'https://user:pw@example.com', 'example.com', 'https://exa mple.com', 'https://1.2.3.999/', 'javascript:alert(1)']) {
        expect(valid(url, bad), bad).toBe(false);
      }
    }
    const refused = await t.api(`${V}/webhooks`, {
      method: 'POST',
      as: 'tn_prairie-all',
      body: { Name: 'Bad URL', Url: 'ftp://example.com', SubsidiaryId: 'sub_kc', EventTypes: ['trip.*'] },
    });
    expect(refused.status).toBe(400);
  });

  it('gives date-time fields the grammar the server parses', async () => {
    const utcOrOffset = [
      bodySchema('post', '/deductions/once').properties.Date,
      bodySchema('post', '/maintenance/search').properties.ServiceDateFrom,
      parameter('get', '/webhooks/{webhookId}/delivery-logs', 'From').schema,
      parameter('get', '/assets/{assetId}/locations', 'From').schema,
      bodySchema('put', '/trips/{tripId}/stops/{stopId}/arrival').properties.ArrivedAt,
    ];
    for (const schema of utcOrOffset) {
      for (const ok of ['2026-11-21', '2026-11-21T14:00', '2026-11-21T14:00:00.1234567Z', '2024-02-29T00:00:00+14:00', '2000-02-29', '2026-11-21T14:00-05:30']) {
        expect(valid(schema, ok), ok).toBe(true);
      }
      const badDates = ['2026-02-29', '1900-02-29', '2026-11-31', '2026-13-01', '2026-11-21T24:00', '2026-11-21T14:00+14:30', '2026-11-21 14:00', '2026-11-21t14:00z', 'now'];
      // The first and last days of 0000-9999, which an offset can move outside them, are left out.
      for (const bad of [...badDates, '0000-01-01T00:30+01:00', '9999-12-31T23:30-01:00']) {
        expect(valid(schema, bad), bad).toBe(false);
      }
    }
    const dateOrOffset = parameter('get', '/trips', 'UpdatedSince').schema;
    expect(valid(dateOrOffset, '2026-11-21')).toBe(true);
    expect(valid(dateOrOffset, '2026-11-21T14:00Z')).toBe(true);
    expect(valid(dateOrOffset, '2026-11-21T14:00')).toBe(false);

    const search = (DateFrom: string) => t.api(`${V}/deductions/search`, { method: 'POST', as: 'tn_prairie-all', body: { DateFrom } });
    for (const ok of ['2026-11-21T14:00', '2024-02-29T00:00:00+14:00', '0000-01-02T00:00+14:00', '9999-12-30T23:59:59.9999999-14:00']) {
      expect(valid(utcOrOffset[0], ok), ok).toBe(true);
      expect((await search(ok)).status, ok).toBe(200);
    }
    for (const bad of ['2026-02-29', '2026-11-21T14:00+14:30', '0000-01-01T00:30+01:00']) expect((await search(bad)).status, bad).toBe(400);
  });

  it('states money precision and sign rules', () => {
    const deduction = bodySchema('post', '/deductions/once').properties.Amount;
    expect(deduction).toMatchObject({ multipleOf: 0.01, exclusiveMaximum: 0, minimum: -1_000_000 });
    for (const ok of [-0.5, -125, -1_000_000]) expect(valid(deduction, ok), String(ok)).toBe(true);
    for (const bad of [0, 5, -0.125, -1_000_001]) expect(valid(deduction, bad), String(bad)).toBe(false);

    const credit = bodySchema('post', '/credits/driver').properties.Amount;
    for (const ok of [0, 1, 150.25, 1_000_000]) expect(valid(credit, ok), String(ok)).toBe(true);
    for (const bad of [0.5, -1, 1_000_000.5, 2.125]) expect(valid(credit, bad), String(bad)).toBe(false);

    const accessorial = bodySchema('post', '/accessorials/driver').properties;
    expect(accessorial.Rate).toMatchObject({ multipleOf: 0.01, exclusiveMinimum: 0 });
    expect(accessorial.Quantity.anyOf).toEqual([expect.objectContaining({ exclusiveMinimum: 0, multipleOf: 0.01 }), { type: 'null' }]);
    expect(bodySchema('post', '/credits/customer').properties.Rate).toMatchObject({ exclusiveMaximum: 0 });
    expect(bodySchema('post', '/maintenance').properties.Cost).toMatchObject({ minimum: 0, multipleOf: 0.01 });
  });

  it('states the ExternalIds rules: at most 10, a source of 1 to 50 of A-Za-z0-9._-, an id of 1 to 128 visible characters', () => {
    // docs/api-rules.md#external-ids, on every create and merge patch that takes them.
    const bodies = [
      ['post', '/loads'],
      ['patch', '/loads/{loadNumber}'],
      ['post', '/drivers'],
      ['patch', '/trucks/{id}'],
      ['post', '/carriers'],
    ];
    for (const [method, path] of bodies) {
      const schema = bodySchema(method!, path!);
      const field = schema.properties?.ExternalIds;
      expect(field, `${method} ${path}`).toBeDefined();
      const ok = { ['s'.repeat(50)]: 'x'.repeat(128), 'a.b_c-1': 'ORD-1/2' };
      expect(valid(field, ok), `${method} ${path}`).toBe(true);
      for (const bad of [{ ['s'.repeat(51)]: 'x' }, { tms: 'x'.repeat(129) }, { 'bad source': 'x' }, { tms: 'has space' }, { tms: '' }, Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`s${i}`, 'x']))]) {
        expect(valid(field, bad), `${method} ${path} ${JSON.stringify(bad).slice(0, 30)}`).toBe(false);
      }
    }
  });

  it('refuses updates that change nothing, in the document as on the server', async () => {
    const updates = [
      ['/credits/driver/{deductionId}', '/credits/driver/ded_none'],
      ['/accessorials/driver/{id}', '/accessorials/driver/acc_none'],
      ['/accessorials/customer/{id}', '/accessorials/customer/acc_none'],
      ['/accessorials/carrier/{id}', '/accessorials/carrier/acc_none'],
      ['/credits/customer/{id}', '/credits/customer/acc_none'],
      ['/credits/carrier/{id}', '/credits/carrier/acc_none'],
    ];
    for (const [template, path] of updates) {
      const schema = bodySchema('patch', template!);
      expect(schema.minProperties, template).toBe(1);
      expect(valid(schema, {}), template).toBe(false);
      const response = await t.api(`${V}${path}`, { method: 'PATCH', as: 'tn_prairie-all', body: {}, headers: { 'If-Match': '*' } });
      expect(response.status, template).toBe(400);
    }
    const maintenance = bodySchema('patch', '/maintenance');
    expect(valid(maintenance, { Id: 'mnt_1' })).toBe(false);
    expect(valid(maintenance, { Id: 'mnt_1', Vendor: null })).toBe(true);
    const response = await t.api(`${V}/maintenance`, { method: 'PATCH', as: 'tn_prairie-all', body: { Id: 'mnt_none' } });
    expect(response.status).toBe(400);
  });

  it('requires exactly one of two ids where the server does', async () => {
    const deduction = bodySchema('post', '/deductions/once');
    const base = { Amount: -10, Category: 'Fuel', Description: 'Fuel', Date: '2026-11-21' };
    expect(valid(deduction, { ...base, DriverId: 'drv_ana' })).toBe(true);
    expect(valid(deduction, { ...base, TruckId: 'trk_101', DriverId: null })).toBe(true);
    expect(valid(deduction, base)).toBe(false);
    expect(valid(deduction, { ...base, DriverId: 'drv_ana', TruckId: 'trk_101' })).toBe(false);
    const maintenance = bodySchema('post', '/maintenance');
    const record = { ServiceDate: '2026-11-21', Category: 'Tires', Description: 'Tires', Cost: 10 };
    expect(valid(maintenance, { ...record, TrailerId: 'trl_1' })).toBe(true);
    expect(valid(maintenance, record)).toBe(false);
    expect(valid(maintenance, { ...record, TrailerId: 'trl_1', Chargeback: { Amount: 5, DriverId: 'drv_ana' } })).toBe(true);
    expect(valid(maintenance, { ...record, TrailerId: 'trl_1', Chargeback: { Amount: 5 } })).toBe(false);
    expect(valid(maintenance, { ...record, TruckId: 'trk_101', Chargeback: { Amount: 5 } })).toBe(true);
    const trailerWithoutDriver = { ...record, TrailerId: 'trl_5301', Chargeback: { Amount: 5 } };
    const refused = await t.api(`${V}/maintenance`, { method: 'POST', as: 'tn_prairie-all', body: trailerWithoutDriver });
    expect(refused.status).toBe(400);
    expect(refused.body.Errors).toHaveProperty(['Chargeback.DriverId']);
    const neither = await t.api(`${V}/maintenance`, { method: 'POST', as: 'tn_prairie-all', body: record });
    expect(neither.status).toBe(400);
  });

  it("pairs a stop's $type with its StopType and ScheduleType, and starts a route with a Pickup, as the server does", async () => {
    const at = '2026-11-24T14:00:00Z';
    const appointment = { $type: 'appointment', StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: at };
    const window = { $type: 'delivery_window', StopType: 'Delivery', ScheduleType: 'FCFS', StopWindow: { Begin: at, End: at } };
    const addStop = bodySchema('post', '/trips/{tripId}/stops');
    const mismatched: Array<[Record<string, unknown>, string]> = [
      [{ ...appointment, ScheduleType: 'FCFS' }, 'ScheduleType'],
      [{ ...window, ScheduleType: 'APPT' }, 'ScheduleType'],
      [{ $type: 'waypoint', StopType: 'Pickup', ScheduleType: 'FCFS' }, 'StopType'],
      [{ ...appointment, StopType: 'Waypoint' }, '$type'],
    ];
    for (const stop of [appointment, window, { $type: 'waypoint', StopType: 'Waypoint', ScheduleType: 'APPT' }]) expect(valid(addStop, { Stop: stop }), JSON.stringify(stop)).toBe(true);
    for (const [stop, field] of mismatched) {
      expect(valid(addStop, { Stop: stop }), JSON.stringify(stop)).toBe(false);
      // The body is checked before the trip is looked up: any trip id shows the rule.
      const refused = await t.api(`${V}/trips/trp_any/stops`, { method: 'POST', as: 'tn_prairie-all', headers: { 'If-Match': '*' }, body: { Stop: stop } });
      expect(refused.status, JSON.stringify(stop)).toBe(400);
      expect(Object.keys(refused.body.Errors)).toEqual([`Stop.${field}`]);
    }

    const load = bodySchema('post', '/loads');
    const trip = (first: Record<string, unknown>) => ({ CustomerId: 'cus_any', Trips: [{ Stops: [first, window] }] });
    expect(valid(load, trip(appointment))).toBe(true);
    expect(valid(load, trip({ ...appointment, StopType: 'Delivery' }))).toBe(false);
    const loadRefused = await t.api(`${V}/loads`, { method: 'POST', as: 'tn_prairie-all', body: trip({ ...appointment, StopType: 'Delivery' }) });
    expect(loadRefused.status).toBe(400);
    expect(loadRefused.body.Errors).toHaveProperty(['Trips[0].Stops[0].StopType']);

    const tender = bodySchema('post', '/tenders');
    const address = { Street: '1 Main', City: 'Salina', State: 'KS', ZipCode: '67401' };
    const offer = (first: string) => ({
      ExternalId: 'first-stop',
      CustomerId: 'cus_any',
      Rate: { Amount: 100 },
      Stops: [first, 'Delivery'].map((StopType) => ({ StopType, ScheduleType: 'APPT', AppointmentDate: at, Address: address })),
    });
    expect(valid(tender, offer('Pickup'))).toBe(true);
    expect(valid(tender, offer('Delivery'))).toBe(false);
    const tenderRefused = await t.api(`${V}/tenders`, { method: 'POST', as: 'tn_prairie-all', body: offer('Delivery') });
    expect(tenderRefused.status).toBe(400);
    expect(tenderRefused.body.Errors).toHaveProperty(['Stops[0].StopType']);
  });

  it('refuses unknown properties in every request body, as the server does', async () => {
    for (const { key, op } of operations()) {
      if (!op.requestBody) continue;
      for (const media of Object.values(op.requestBody.content) as any[]) {
        // A raw text body (an X12 interchange) is a string: it has no properties.
        if (media.schema.type === 'string') continue;
        expect(media.schema.additionalProperties, key).toBe(false);
      }
    }
    const response = await t.api(`${V}/maintenance`, { method: 'PATCH', as: 'tn_prairie-all', body: { Id: 'mnt_none', Vendor: 'x', Colour: 1 } });
    expect(response.status).toBe(400);
    expect(response.body.Errors).toHaveProperty('Colour');
  });

  it('requires a non-empty If-Match wherever it is read', () => {
    let seen = 0;
    for (const { key, op } of operations()) {
      for (const p of op.parameters ?? []) {
        if (p.in !== 'header' || p.name !== 'If-Match') continue;
        seen++;
        expect(p.schema.minLength, key).toBe(1);
      }
    }
    expect(seen).toBeGreaterThanOrEqual(8);
  });

  it('bounds coordinates and refuses (0, 0), as the server does', async () => {
    const coordinates = bodySchema('post', '/assets/{assetId}/locations').properties.Coordinates;
    for (const ok of [['39.0997', '-94.5786'], ['-90', '180'], ['90.000', '-180.0'], ['0', '1.5'], ['0.0', '-0.001']]) {
      expect(valid(coordinates, { Latitude: ok[0], Longitude: ok[1] }), ok.join()).toBe(true);
    }
    for (const bad of [['90.5', '0'], ['91', '10'], ['10', '180.01'], ['10', '181'], ['0', '0'], ['-0.00', '0.0'], ['1e1', '2'], [' 1', '2']]) {
      expect(valid(coordinates, { Latitude: bad[0], Longitude: bad[1] }), bad.join()).toBe(false);
    }
    for (const bad of [['90.5', '10'], ['0', '0.000']]) {
      const response = await t.api(`${V}/assets/trk_101/locations`, {
        method: 'POST',
        as: 'tn_prairie-all',
        body: { Coordinates: { Latitude: bad[0], Longitude: bad[1] } },
      });
      expect(response.status, bad.join()).toBe(400);
    }
  });

  it('describes enum lists as the server reads them: any case, spaces around, commas between', async () => {
    const query = parameter('get', '/trips', 'Status').schema.items;
    for (const ok of ['Planned', 'planned ', ' INTRANSIT,delivered', 'Dispatched,\tAssigned']) {
      expect(valid(query, ok), ok).toBe(true);
      expect((await t.api(`${V}/trips?Status=${encodeURIComponent(ok)}`, { as: 'tn_prairie-all' })).status, ok).toBe(200);
    }
    for (const bad of ['plan', 'Planned,', ',Planned', '', 'Planned;Assigned']) {
      expect(valid(query, bad), bad).toBe(false);
      expect((await t.api(`${V}/trips?Status=${encodeURIComponent(bad)}`, { as: 'tn_prairie-all' })).status, bad).toBe(400);
    }
    const body = bodySchema('post', '/trips/search').properties.Status.items;
    expect(valid(body, 'inTransit')).toBe(true);
    expect(valid(body, ' InTransit')).toBe(false);
    expect((await t.api(`${V}/trips/search`, { method: 'POST', as: 'tn_prairie-all', body: { Status: ['inTransit'] } })).status).toBe(200);
  });

  it('lists the document types an integrator may set, in any case', () => {
    for (const path of ['/loads/{loadNumber}/documents/{documentId}', '/trips/{tripId}/documents/{documentId}']) {
      const type = bodySchema('patch', path).properties.DocumentType;
      for (const ok of ['Proof of Delivery', 'proof of delivery', 'BILL OF LADING']) expect(valid(type, ok), ok).toBe(true);
      for (const bad of ['Invoice', 'Carrier Agreement', 'Proof of Delivery ', 'POD', '']) expect(valid(type, bad), bad).toBe(false);
    }
  });

  it('allows a Cursor only with Page 0 or absent in search bodies, and only base64url text as a cursor', async () => {
    const search = bodySchema('post', '/trips/search');
    expect(valid(search, { Cursor: 'abc', Page: 0 })).toBe(true);
    expect(valid(search, { Cursor: 'abc' })).toBe(true);
    expect(valid(search, { Cursor: null, Page: 2 })).toBe(true);
    expect(valid(search, { Cursor: 'abc', Page: 1 })).toBe(false);
    expect(valid(search, { Cursor: 'a b' })).toBe(false);
    const first = await t.api(`${V}/trips/search`, { method: 'POST', as: 'tn_prairie-all', body: { PageSize: 1 } });
    const next = { Cursor: first.body.NextCursor, PageSize: 1 };
    expect(valid(search, next)).toBe(true);
    expect((await t.api(`${V}/trips/search`, { method: 'POST', as: 'tn_prairie-all', body: next })).status).toBe(200);
    const refused = await t.api(`${V}/trips/search`, { method: 'POST', as: 'tn_prairie-all', body: { ...next, Page: 1 } });
    expect(refused.status).toBe(400);
    for (const { key, op } of operations()) {
      const schema = op.requestBody?.content['application/json']?.schema;
      if (schema?.properties?.Cursor) expect(schema.allOf, key).toContainEqual(expect.objectContaining({ then: { properties: { Page: { const: 0 } } } }));
    }
  });

  it('refuses blank free text, which the server trims to nothing', () => {
    const category = bodySchema('post', '/deductions/once').properties.Category;
    expect(valid(category, 'Fuel')).toBe(true);
    expect(valid(category, '   ')).toBe(false);
    expect(valid(bodySchema('post', '/webhooks').properties.Name, ' \t ')).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Issue 18: the document as a reference page and an SDK generator read it.

describe('the document: tags, license, contact, security, webhooks', () => {
  it('lists every tag an operation uses in a global tags list, in the order an integrator learns them', () => {
    const listed: string[] = doc.tags.map((tag: any) => tag.name);
    const used = new Set(operations().flatMap(({ op }) => op.tags ?? []));
    // A branch that adds a tag fails here until it adds the tag (and where it belongs) to adapters/rest/openapi-tags.ts.
    for (const tag of used) expect(listed, `tag ${tag} is used but not listed`).toContain(tag);
    for (const tag of doc.tags) expect(tag.description, tag.name).toBeTruthy();
    expect(new Set(listed).size).toBe(listed.length);
    const order = ['Authentication', 'Loads', 'Trips', 'Stops', 'Documents', 'Visibility', 'Deductions', 'Invoices', 'Webhooks', 'Customers'];
    const positions = order.map((name) => listed.indexOf(name));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(operation('patch', '/loads/{loadNumber}/documents/{documentId}').tags).toEqual(['Documents']);
  });

  it('states the license (MIT, as the LICENSE file) and a contact', () => {
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(readFileSync(join(projectRoot(), 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 The Waybill authors/);
    expect(doc.info.contact.name).toBeTruthy();
  });

  it('offers a pasted bearer token beside the client-credentials flow on every operation', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const { key, op } of operations()) {
      expect(op.security, key).toHaveLength(2);
      expect(op.security[1], key).toEqual({ bearerAuth: [] });
    }
  });

  it('links the token host document, which describes the token endpoint and validates real answers', async () => {
    const url = `${t.config.publicAuthUrl}/openapi.json`;
    expect(doc.externalDocs.url).toBe(url);
    expect(doc.components.securitySchemes.oauth2.description).toContain(url);
    expect(doc.tags.find((tag: any) => tag.name === 'Authentication').externalDocs.url).toBe(url);

    const tokenDoc: any = await (await fetch(`${t.authUrl}/openapi.json`)).json();
    expect(tokenDoc.openapi).toBe('3.1.0');
    const request = tokenDoc.paths['/oauth/token'].post;
    expect(Object.keys(request.responses).sort()).toEqual(['200', '400', '401', '405', '429']);
    const tokenAjv = new Ajv2020({ strict: false, validateFormats: false });
    const check = (schema: any, value: unknown) => tokenAjv.validate({ ...schema, components: tokenDoc.components }, value);
    const requestSchema = request.requestBody.content['application/json'].schema;
    const body = { grant_type: 'client_credentials', client_id: 'prairie-readonly', client_secret: secretOf('prairie-readonly'), audience: AUDIENCE };
    expect(check(requestSchema, body)).toBe(true);
    expect(check(requestSchema, { ...body, audience: 'https://other.example' })).toBe(false);
    const answer = await fetch(`${t.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(answer.status).toBe(200);
    expect(check(request.responses['200'].content['application/json'].schema, await answer.json())).toBe(true);
    const denied = await fetch(`${t.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, client_secret: 'wrong' }) });
    expect(denied.status).toBe(401);
    expect(check(request.responses['401'].content['application/json'].schema, await denied.json())).toBe(true);
  });

  it('describes the payload of every event type in the webhooks section, and a real event matches it', async () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual(EVENT_TYPES.map((event) => event.Type).sort());
    for (const [type, item] of Object.entries<any>(doc.webhooks)) {
      const schema = item.post.requestBody.content['application/json'].schema;
      const envelope = doc.components.schemas[schema.$ref.split('/').pop()];
      expect(envelope.required, type).toEqual(['type', 'timestamp', 'data']);
      expect(envelope.properties.type.const, type).toBe(type);
      expect(item.post.parameters.map((p: any) => p.name), type).toEqual(['webhook-id', 'webhook-timestamp', 'webhook-signature']);
    }
    const created = await t.api(`${V}/customers`, { method: 'POST', as: 'tn_prairie-all', body: { Name: 'Event Check Co', Type: 'Customer' } });
    expect(created.status).toBe(201);
    const row = await t.db.selectFrom('outbox').select(['type', 'payload', 'created_at']).where('type', '=', 'customer.created').executeTakeFirstOrThrow();
    const event = { type: row.type, timestamp: '2026-11-22T12:00:00Z', data: JSON.parse(String(row.payload)) };
    const schema = doc.webhooks['customer.created'].post.requestBody.content['application/json'].schema;
    expect(valid(schema, event)).toBe(true);
    expect(valid(schema, { ...event, type: 'customer.updated' })).toBe(false);
    expect(valid(doc.webhooks['customer.updated'].post.requestBody.content['application/json'].schema, { ...event, type: 'customer.updated' })).toBe(false);
  });

  it('declares the headers an idempotent create sends, Idempotent-Replayed included', () => {
    const headers = operation('post', '/fuel').responses['201'].headers;
    for (const name of ['ETag', 'Location', 'Idempotent-Replayed', 'RateLimit', 'RateLimit-Policy']) expect(headers, name).toHaveProperty([name]);
    for (const { key, op } of operations()) expect(op.responses['429'].headers, key).toHaveProperty('Retry-After');
  });
});
