// The whole REST surface, driven by the OpenAPI document the server publishes (issue 12):
// fast-check builds requests from the document's schemas, valid ones and ones with exactly one
// thing wrong, and every answer is held to the document.
//
// Properties, for every operation:
// - never a 5xx;
// - a request the document calls valid is not refused with a 400 (nor a 415 for a documented
//   media type); 404 for an unknown id and the documented 409/412/422/428 are answers, not refusals;
// - every status is documented for the operation, its body in a documented media type and valid
//   against the documented schema (problem+json included), no body where none is documented;
// - a request with one thing wrong (wrong type, out of range, missing or unknown property,
//   NUL, control character or lone surrogate, lenient integer, bad body, media type or version)
//   gets a 4xx.
//
// Seeded and complete: OPENAPI_PROPERTIES_SEED replays a run (the seed is printed with every
// failure), OPENAPI_PROPERTIES_RUNS changes the cases per operation (100 valid, 70 invalid: about
// 17,000 per database, a minute or two), and OPENAPI_PROPERTIES_BUDGET_MS, when set, is a time
// all cases share, evenly per operation (exploring: more runs in a fixed time). OPENAPI_PROPERTIES_SURVEY=1 records
// every violation instead of failing on the first, and OPENAPI_PROPERTIES_REPORT=<file> writes
// them as JSON: that is how KNOWN_DEFECTS below was drawn up. OPENAPI_PROPERTIES_BLIND=1 draws
// body and query values from the schemas alone (below): run it with the survey to find rules
// stated only in prose.
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type ApiResponse, type TestApp } from './harness.js';
import { bodyMediaTypes, parametersOf, requestArbitraries, type GeneratedRequest, type Hints } from './support/openapi-arbitraries.js';
import { checkAnswer, createSchemaValidator, operationsOf, type OpenApiDocument, type Operation, type SchemaValidator, type Violation } from './support/openapi-validator.js';

const SEED = Number(process.env.OPENAPI_PROPERTIES_SEED ?? 20261122);
// Every run completes by default, so the cases are the seed's alone, not the machine's speed:
// a time budget cut the runs where a loaded CI machine happened to be, and the case a slower
// machine never reached could not fail it, nor could one a faster machine reached fail only there.
const VALID_RUNS = Number(process.env.OPENAPI_PROPERTIES_RUNS ?? 100);
const INVALID_RUNS = Math.ceil(VALID_RUNS * 0.7);
/** Optional: a time for all generated cases, shared evenly by the operations and both kinds. */
const TOTAL_BUDGET_MS = process.env.OPENAPI_PROPERTIES_BUDGET_MS ? Number(process.env.OPENAPI_PROPERTIES_BUDGET_MS) : undefined;
const SURVEY = process.env.OPENAPI_PROPERTIES_SURVEY === '1';
/**
 * Body and query values from the schemas alone, none learned from answers (path ids stay real,
 * so cases reach records): the requests a client generated from the document sends. A value set
 * or format stated only in prose shows here as a refusal the real names would hide.
 */
const BLIND = process.env.OPENAPI_PROPERTIES_BLIND === '1';
const AS = 'tn_prairie-all';
const API_PREFIX = '/api/p/v{version}/';

interface KnownDefect {
  /** Operation keys (`PATCH /api/p/v{version}/credits/driver/{deductionId}`) it shows on. */
  ops: RegExp;
  kind: string;
  detail: RegExp;
  defect: string;
  /**
   * One request that shows it, sent on the fixture as loaded (before any generated case): while
   * the defect lasts its answer breaks the property as described; once fixed, the last test fails
   * until the entry is removed, so the list cannot rot.
   */
  probe: {
    op: string;
    path: string;
    /** A request sent first when the fixture has no record to show the defect on. */
    setup?: { method: string; path: string; body: unknown };
    /** The probe's body; a function receives the setup's answer (a created record's id). */
    body?: unknown | ((setup: any) => unknown);
    headers?: Record<string, string>;
    mutation?: { kind: string; where: string };
  };
}

const P = API_PREFIX;
/**
 * Refusals this test finds today of requests the document calls valid, each a rule JSON Schema
 * cannot state (docs/api-rules.md#rules-the-schema-cannot-state lists them): across fields of
 * one body (Quantity × Rate in whole cents, a range's end after its start), a list's last item,
 * a set the document cannot list (time zones, cursors the server issued), the caller, or stored
 * data (a reference Name must be its definition's, arrival and departure in order). Each is
 * stated in the field's description instead. A listed violation does not fail its operation; a
 * fixed one fails the last test until its entry goes.
 */
const KNOWN_DEFECTS: KnownDefect[] = [
  {
    ops: /./,
    kind: 'valid-refused',
    detail: /^400 Cursor$/,
    defect:
      'a Cursor must be one the server issued for this list, with Page 0 or absent (docs/api-rules.md#paging): the pattern states its alphabet, not which texts the server issued, and OpenAPI has no rule across query parameters',
    probe: { op: `GET ${P}loads`, path: '/api/p/v1.0/loads?Cursor=AAAA' },
  },
  {
    ops: /^GET \/api\/p\/v\{version\}\/events$/,
    kind: 'valid-refused',
    detail: /^400 After$/,
    defect:
      'After must be a position the feed has answered (docs/api-rules.md#events-feed): the pattern states its form, not which positions exist yet, so a cursor past the end is refused rather than skipping events',
    probe: { op: `GET ${P}events`, path: '/api/p/v1.0/events?After=czzzzzzzz' },
  },
  {
    ops: /(accessorials|credits)\/(driver|customer|carrier)/,
    kind: 'valid-refused',
    detail: /^400 Quantity$/,
    defect: 'Quantity × Rate must come to whole cents: a cross-field rule JSON Schema cannot state, answered 400 for a body the document calls valid',
    probe: { op: `POST ${P}accessorials/customer`, path: '/api/p/v1.0/accessorials/customer', body: { CustomerId: 'cus_heartland', AccessorialTypeId: 'acc_lumper', Quantity: 0.5, Rate: 0.05, Date: '2026-11-20' } },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/webhooks$/,
    kind: 'valid-refused',
    detail: /^400 SubsidiaryId$/,
    defect: "SubsidiaryId is required from a tenant-wide client (a subsidiary-bound client's subscription goes to its own subsidiary): a rule on the caller the document cannot state",
    probe: { op: `POST ${P}webhooks`, path: '/api/p/v1.0/webhooks', body: { Name: 'probe', Url: 'https://example.com/hook', EventTypes: ['trip.changed'] } },
  },
  {
    ops: /references/,
    kind: 'valid-refused',
    detail: /^400 Name$/,
    defect: "a Name other than the reference definition's is a 400: a rule on stored data, not on the body's shape",
    probe: { op: `POST ${P}trips/{tripId}/references`, path: '/api/p/v1.0/trips/trp_1001_a/references', body: { Name: 'Not PO', Value: 'x', ReferenceId: 'refdef_po' } },
  },
  {
    ops: /stops\/\{stopId\}\/arrival$/,
    kind: 'valid-refused',
    detail: /^400 ArrivedAt$/,
    defect: "an ArrivedAt later than the stop's stored DepartedAt is a 400 (docs/api-rules.md#trips-and-stops): a rule on stored data the document cannot state",
    probe: { op: `PUT ${P}trips/{tripId}/stops/{stopId}/arrival`, path: '/api/p/v1.0/trips/trp_1001_a/stops/stp_1001_1/arrival', body: { ArrivedAt: '2026-11-21T16:00:00Z' } },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/webhooks\/\{id\}\/replay$/,
    kind: 'valid-refused',
    detail: /^400 Since$/,
    defect: 'the replay window: Since at most 30 days ago, not after Until (now when absent), at most 14 days before it: rules between fields and the clock JSON Schema cannot state',
    probe: { op: `POST ${P}webhooks/{id}/replay`, path: '/api/p/v1.0/webhooks/wh_kc_ops/replay', body: { Since: '2020-01-01T00:00:00Z' } },
  },
  {
    ops: /stops\/\{stopId\}\/departure$/,
    kind: 'valid-refused',
    detail: /^400 DepartedAt$/,
    defect: "a DepartedAt earlier than the stop's stored ArrivedAt is a 400 (docs/api-rules.md#trips-and-stops): a rule on stored data the document cannot state",
    probe: { op: `PUT ${P}trips/{tripId}/stops/{stopId}/departure`, path: '/api/p/v1.0/trips/trp_1001_a/stops/stp_1001_1/departure', body: { DepartedAt: '2026-11-21T13:00:00Z' } },
  },
  {
    ops: /^PUT \/api\/p\/v\{version\}\/trips\/\{tripId\}\/stops\/order$/,
    kind: 'valid-refused',
    detail: /^400 StopIds$/,
    defect: "StopIds must be exactly the trip's stops (docs/api-rules.md#changing-a-trips-stops): a rule on stored data the document cannot state",
    probe: { op: `PUT ${P}trips/{tripId}/stops/order`, path: '/api/p/v1.0/trips/trp_1001_a/stops/order', body: { StopIds: ['stp_1001_1'] } },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/trips\/\{tripId\}\/stops$/,
    kind: 'valid-refused',
    detail: /^400 Index$/,
    defect: "an Index above the trip's number of stops is a 400 (docs/api-rules.md#changing-a-trips-stops): a rule on stored data the document cannot state",
    probe: {
      op: `POST ${P}trips/{tripId}/stops`,
      path: '/api/p/v1.0/trips/trp_1001_a/stops',
      body: { Stop: { $type: 'waypoint', StopType: 'Waypoint', ScheduleType: 'FCFS' }, Index: 9 },
    },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/trips\/\{tripId\}\/stops$/,
    kind: 'valid-refused',
    detail: /^400 Stop\.StopWindow\.End$/,
    defect: "a new stop's StopWindow.End must not be before its Begin: a comparison of two fields JSON Schema cannot state, given in the Stop's description",
    probe: {
      op: `POST ${P}trips/{tripId}/stops`,
      path: '/api/p/v1.0/trips/trp_1001_a/stops',
      body: { Stop: { $type: 'waypoint', StopType: 'Waypoint', ScheduleType: 'FCFS', StopWindow: { Begin: '2026-11-24T14:00:00Z', End: '2026-11-24T13:00:00Z' } } },
    },
  },
  {
    ops: /^(POST|PATCH) \/api\/p\/v\{version\}\/trips\/\{tripId\}\/stops(\/\{stopId\})?$/,
    kind: 'valid-refused',
    detail: /^400 (Stop\.)?TimeZone$/,
    defect: 'a TimeZone must be a zone the server knows (IANA names, aliases and any letter case): no pattern states that set, the description does',
    probe: { op: `PATCH ${P}trips/{tripId}/stops/{stopId}`, path: '/api/p/v1.0/trips/trp_1001_a/stops/stp_1001_2', body: { TimeZone: 'Mars/Olympus' } },
  },
  {
    ops: /./,
    kind: 'valid-refused',
    detail: /^400 ([A-Za-z]*To|[A-Za-z]+Range\.End)$/,
    defect: 'a range whose end comes before its start (To before From, UpdatedAtRange.End before Start) is a 400: a cross-field rule JSON Schema cannot state (a filter could answer an empty page instead)',
    probe: { op: `GET ${P}webhooks/{webhookId}/delivery-logs`, path: '/api/p/v1.0/webhooks/wh_kc_ops/delivery-logs?From=2026-11-20T00:00:00Z&To=2026-11-19T00:00:00Z' },
  },
  {
    ops: /^GET \/api\/p\/v\{version\}\/loads$/,
    kind: 'valid-refused',
    detail: /^400 UpdatedAtEnd$/,
    defect: 'an UpdatedAtEnd not after UpdatedAtStart is a 400 (docs/api-rules.md#loads, the query form of UpdatedAtRange): a cross-field rule JSON Schema cannot state',
    probe: { op: `GET ${P}loads`, path: '/api/p/v1.0/loads?UpdatedAtStart=2026-10-02T00:00:00Z&UpdatedAtEnd=2026-10-01T00:00:00Z' },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/loads(\/\{loadNumber\}\/trips)?$/,
    kind: 'valid-refused',
    detail: /^400 (Trips\[\]\.)?Stops\[\]\.(StopType|TimeZone|StopWindow\.End)$/,
    defect:
      "a trip's last stop must be a Delivery, a stop's StopWindow.End must not be before Begin, and TimeZone must be a zone the server knows (docs/api-rules.md#loads, #trips-and-stops): " +
      "JSON Schema cannot pin an array's last item, compare two fields, or list the zones the runtime knows, so each is stated in the description (the first stop's Pickup and the $type pairing are in the schema)",
    probe: { op: `POST ${P}loads`, path: '/api/p/v1.0/loads', body: { CustomerId: 'cus_heartland', Trips: [{ Stops: [0, 1].map(() => ({ $type: 'appointment', StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: '2026-11-24T14:00:00Z' })) }] } },
  },
  {
    ops: /^GET \/api\/p\/v\{version\}\/edi\/documents$/,
    kind: 'valid-refused',
    detail: /^400 CreatedAtEnd$/,
    defect: 'a CreatedAtEnd not after CreatedAtStart is a 400 (docs/edi.md#mailbox): a cross-field rule JSON Schema cannot state',
    probe: { op: `GET ${P}edi/documents`, path: '/api/p/v1.0/edi/documents?CreatedAtStart=2026-10-02T00:00:00Z&CreatedAtEnd=2026-10-01T00:00:00Z' },
  },
  {
    ops: /dispatchpreferences\/search$/,
    kind: 'valid-refused',
    detail: /^400 UpdatedAtEnd$/,
    defect: 'an UpdatedAtEnd not after UpdatedAtStart is a 400 (docs/api-rules.md#dispatch-preferences, the range rule on the two fields that replace UpdatedAtRange): a cross-field rule JSON Schema cannot state',
    probe: { op: `POST ${P}dispatchpreferences/search`, path: '/api/p/v1.0/dispatchpreferences/search', body: { UpdatedAtStart: '2026-10-02T00:00:00Z', UpdatedAtEnd: '2026-10-01T00:00:00Z' } },
  },
  {
    ops: /^PATCH \/api\/p\/v\{version\}\/maintenance$/,
    kind: 'valid-refused',
    detail: /^400 Chargeback\.DriverId$/,
    defect: "a chargeback on a trailer's record must name the driver charged (a trailer cannot carry a deduction): the POST document states it, but on PATCH the asset is stored data the document cannot see",
    probe: {
      op: `PATCH ${P}maintenance`,
      path: '/api/p/v1.0/maintenance',
      setup: { method: 'POST', path: '/api/p/v1.0/maintenance', body: { TrailerId: 'trl_5301', ServiceDate: '2026-11-20T10:00:00Z', Category: 'Tires', Description: 'probe', Cost: 100 } },
      body: (created: { Id: string }) => ({ Id: created.Id, Chargeback: { Amount: 10 } }),
    },
  },
  {
    ops: /dispatchpreferences\/\{truckId\}$/,
    kind: 'valid-refused',
    detail: /^400 Driver2Id$/,
    defect: 'a Driver2Id equal to Driver1Id is a 400 (docs/api-rules.md#dispatch-preferences): a cross-field rule JSON Schema cannot state',
    probe: { op: `PUT ${P}dispatchpreferences/{truckId}`, path: '/api/p/v1.0/dispatchpreferences/trk_101', body: { Driver1Id: 'drv_ana', Driver2Id: 'drv_ana' } },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/fuel$/,
    kind: 'valid-refused',
    detail: /^400 (Total|(PricePerUnit|FuelTotal|Fees|Discounts)\.Currency)$/,
    defect:
      "a fuel Total other than FuelTotal + Fees − Discounts, or an amount in another currency than Total's, is a 400 (docs/api-rules.md#fuel-and-tolls): cross-field rules JSON Schema cannot state, given in Total's description",
    probe: {
      op: `POST ${P}fuel`,
      path: '/api/p/v1.0/fuel',
      body: { TransactionId: 'PROBE-1', Source: 'Probe', Category: 'Diesel', Quantity: { Value: 1, UnitOfMeasure: 'Gallons' }, PricePerUnit: { Amount: 1 }, FuelTotal: { Amount: 1 }, Total: { Amount: 2 }, TransactionDate: '2026-11-20T00:00:00Z' },
    },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/tolls$/,
    kind: 'valid-refused',
    detail: /^400 Fee\.Currency$/,
    defect: "a toll Fee in another currency than Amount's is a 400: a cross-field rule JSON Schema cannot state, given in Fee's description",
    probe: {
      op: `POST ${P}tolls`,
      path: '/api/p/v1.0/tolls',
      body: { TransactionId: 'PROBE-1', Source: 'Probe', Amount: { Amount: 1 }, Fee: { Amount: 1, Currency: 124 }, TransactionDate: '2026-11-20T00:00:00Z' },
    },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/tenders$/,
    kind: 'valid-refused',
    detail: /^400 Stops\[\]\.StopType$/,
    defect: "a tender's last stop must be a Delivery: JSON Schema pins an array's first item (prefixItems: the first a Pickup is in the schema) but not its last, so the description states it",
    probe: {
      op: `POST ${P}tenders`,
      path: '/api/p/v1.0/tenders',
      body: {
        ExternalId: 'probe-last-stop',
        CustomerId: 'cus_heartland',
        Rate: { Amount: 100 },
        Stops: [0, 1].map(() => ({ StopType: 'Pickup', ScheduleType: 'APPT', AppointmentDate: '2026-11-24T14:00:00Z', Address: { Street: '1 Main', City: 'Salina', State: 'KS', ZipCode: '67401' } })),
      },
    },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/tenders$/,
    kind: 'valid-refused',
    detail: /^400 Stops\[\]\.StopWindow\.End$/,
    defect: "a tender stop's StopWindow.End before its Begin is a 400: a rule across two fields, stated in the description",
    probe: {
      op: `POST ${P}tenders`,
      path: '/api/p/v1.0/tenders',
      body: {
        ExternalId: 'probe-window',
        CustomerId: 'cus_heartland',
        Rate: { Amount: 100 },
        Stops: [
          { StopType: 'Pickup', ScheduleType: 'FCFS', StopWindow: { Begin: '2026-11-24T14:00:00Z', End: '2026-11-24T13:00:00Z' }, Address: { Street: '1 Main', City: 'Salina', State: 'KS', ZipCode: '67401' } },
          { StopType: 'Delivery', ScheduleType: 'APPT', AppointmentDate: '2026-11-25T14:00:00Z', Address: { Street: '2 Main', City: 'Dallas', State: 'TX', ZipCode: '75201' } },
        ],
      },
    },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/invoices$/,
    kind: 'valid-refused',
    detail: /^400 (DueDate|InvoicedDate)$/,
    defect:
      "a DueDate before the InvoicedDate (today when absent), or an InvoicedDate whose payment terms end past the year 9999, is a 400 (docs/api-rules.md#invoices): rules across fields, the clock and the customer's terms, stated in the descriptions",
    probe: {
      op: `POST ${P}invoices`,
      path: '/api/p/v1.0/invoices',
      body: { CustomerId: 'cus_lonestar', LoadNumbers: ['L-1990'], InvoicedDate: '2026-11-10T00:00:00Z', DueDate: '2026-11-09T00:00:00Z' },
    },
  },
  {
    ops: /^POST \/api\/p\/v\{version\}\/locations$/,
    kind: 'valid-refused',
    detail: /^400 DepartRadiusMeters$/,
    defect: "a DepartRadiusMeters below the circle's RadiusMeters is a 400 (docs/api-rules.md#locations): a comparison of two fields JSON Schema cannot state, given in the description",
    probe: {
      op: `POST ${P}locations`,
      path: '/api/p/v1.0/locations',
      body: { Name: 'Probe', Type: 'Terminal', PhysicalAddress: { Street: '1 A St', City: 'Wichita', State: 'KS', ZipCode: '67202' }, Coordinates: { Latitude: '37.6872', Longitude: '-97.3301' }, Geofence: { RadiusMeters: 500 }, DepartRadiusMeters: 100 },
    },
  },
  {
    ops: /^PATCH \/api\/p\/v\{version\}\/locations\/\{id\}$/,
    kind: 'valid-refused',
    detail: /^400 (Geofence|Coordinates|DepartRadiusMeters)$/,
    defect: "the fence rules hold on the location as a patch leaves it (a circle needs the stored Coordinates; a depart radius at least the stored circle's): rules on stored data the document cannot state",
    probe: { op: `PATCH ${P}locations/{id}`, path: '/api/p/v1.0/locations/loc_okc_yard', body: { Geofence: { RadiusMeters: 300 } }, headers: { 'If-Match': '*' } },
  },
];

// ---------------------------------------------------------------------------------------------
// Real values, learned from answers: the generator picks from them at generation time.

const normalise = (path: string) => path.replace(API_PREFIX, '').replace(/\{[^}]+\}/g, '{}');

/** A record's own id: `Id`, documents' `id`, statements' `Number`. */
const idOf = (item: Record<string, any>) => item.Id ?? item.id ?? item.Number ?? item.LoadNumber;

interface PoolEntry {
  parents: string[];
  item: Record<string, any>;
}

class RecordPools implements Hints {
  private readonly byPrefix = new Map<string, PoolEntry[]>();
  private readonly byName = new Map<string, string[]>();
  /** Only a value the server handed out is valid: mostly that one (`cursors`), sometimes one drawn from the schema (`After` is the events feed's cursor). */
  readonly opaque = new Set(['Cursor', 'After']);
  readonly cursors = new Map<string, string>();
  readonly etags = new Map<string, string>();

  add(prefix: string, parents: string[], item: Record<string, any>) {
    const entries = this.byPrefix.get(prefix) ?? [];
    const key = JSON.stringify([parents, idOf(item)]);
    if (entries.length < 200 && !entries.some((e) => JSON.stringify([e.parents, idOf(e.item)]) === key)) entries.push({ parents, item });
    this.byPrefix.set(prefix, entries);
  }

  addName(name: string, value: string) {
    const values = this.byName.get(name) ?? [];
    if (values.length < 100 && !values.includes(value)) values.push(value);
    this.byName.set(name, values);
  }

  pathValues(operation: Operation, name: string, before: Record<string, string>): string[] {
    const template = normalise(operation.path.slice(0, operation.path.indexOf(`{${name}}`) + name.length + 2));
    const entries = this.byPrefix.get(template) ?? [];
    const parents = Object.values(before);
    const field = (e: PoolEntry) => String(name === 'loadNumber' ? (e.item.LoadNumber ?? e.item.Id) : name === 'number' ? (e.item.Number ?? e.item.Id) : idOf(e.item));
    const matching = entries.filter((e) => JSON.stringify(e.parents) === JSON.stringify(parents));
    if (entries.length) return (matching.length ? matching : entries).map(field);
    // A record with no list of its own (a carrier): the ids other answers name it by.
    return name === 'id' || name === 'number' ? [] : this.realValues(name[0]!.toUpperCase() + name.slice(1));
  }

  namedValues(name: string): string[] {
    return BLIND ? [] : this.realValues(name);
  }

  private realValues(name: string): string[] {
    const alias: Record<string, string> = { DriverIds: 'DriverId', TruckIds: 'TruckId', TrailerIds: 'TrailerId', DocumentType: 'AttachmentType' };
    const own = this.byName.get(alias[name] ?? name) ?? [];
    const prefix: Record<string, string> = { AccessorialTypeId: 'accessorials/accessorial-types/{}', Id: 'maintenance/{}', WebhookId: 'webhooks/{}' };
    const listed = prefix[name] ? (this.byPrefix.get(prefix[name]!) ?? []).map((e) => String(e.item.Id)) : [];
    return [...new Set([...listed, ...own])];
  }

  /** Ids, names and cursors from a successful JSON answer of `operation` called with `params`. */
  learn(operation: Operation, params: Record<string, string>, response: ApiResponse) {
    if (response.status >= 300) return;
    const template = normalise(operation.path);
    const parents = parametersOf(operation, 'path').filter((p) => p.name !== 'version').map((p) => params[p.name]!);
    const record = params[parametersOf(operation, 'path').filter((p) => p.name !== 'version').at(-1)?.name ?? ''] ?? null;
    const etag = response.headers.get('etag');
    if (etag) {
      if (record) this.etags.set(record, etag);
      if (response.body && idOf(response.body) !== undefined) this.etags.set(String(idOf(response.body)), etag);
    }
    const body = response.body;
    if (body === undefined) return;
    if (typeof body?.NextCursor === 'string') this.cursors.set(operation.key, body.NextCursor);
    const listTemplate = template.replace(/\/search$/, '');
    const items: any[] | null = Array.isArray(body) ? body : Array.isArray(body?.Items) ? body.Items : null;
    if (items && !listTemplate.endsWith('{}')) {
      for (const item of items) if (item && typeof item === 'object' && idOf(item) !== undefined) this.addRecord(`${listTemplate}/{}`, operation.method === 'POST' && template.endsWith('/search') ? [] : parents, item);
    } else if (body && typeof body === 'object' && !Array.isArray(body) && idOf(body) !== undefined) {
      if (operation.method === 'POST' && response.status === 201 && !template.endsWith('{}')) this.addRecord(`${template}/{}`, parents, body);
      if (template.endsWith('{}')) {
        // A record's own lists: a trip's Stops and References are the records under trips/{}/stops/{}...
        for (const [key, value] of Object.entries(body)) {
          if (Array.isArray(value) && value.some((v) => v && typeof v === 'object' && idOf(v) !== undefined)) {
            const child = key.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase();
            for (const item of value) this.addRecord(`${template}/${child}/{}`, parents, item);
          }
        }
      }
    }
    this.learnNames(body, 0);
  }

  private addRecord(prefix: string, parents: string[], item: Record<string, any>) {
    this.add(prefix, parents, item);
    // Assets answer under three more paths: by id alone, and by type and id.
    const assetType = { 'drivers/{}': 'driver', 'trucks/{}': 'truck', 'trailers/{}': 'trailer' }[prefix];
    if (assetType) {
      this.add('assets/{}', [], item);
      this.add('visibility/assets/{}', [], { Id: assetType });
      this.add('visibility/assets/{}/{}', [assetType], item);
    }
    if (prefix === 'deductions/{}' && item.Type === 'Credit') this.add('credits/driver/{}', [], item);
  }

  private learnNames(value: unknown, depth: number) {
    if (depth > 6 || !value || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value.slice(0, 50)) this.learnNames(item, depth + 1);
      return;
    }
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string' && /(Id|Number|Type|Name)$/.test(key) && inner.length <= 200) this.addName(key, inner);
      else this.learnNames(inner, depth + 1);
    }
  }
}

// ---------------------------------------------------------------------------------------------

// Started while the file is collected: the document's operations name the tests.
const t: TestApp = await startTestApp({
  // Deliveries and verification calls go nowhere; do not wait ten seconds for each.
  env: { WEBHOOK_TIMEOUT_MS: '300', WEBHOOK_RETRY_DELAYS: '3600' },
});
const doc = (await (await fetch(`${t.apiUrl}/openapi.json`)).json()) as OpenApiDocument;
const validator: SchemaValidator = createSchemaValidator(doc);
const pools = new RecordPools();
const observed = new Map<string, { op: string; violation: Violation; request: string; count: number }>();
const startedAt = Date.now();
let cases = 0;
/** Statuses per operation and kind of case, for the report: do valid cases reach records? */
const statuses = new Map<string, Record<string, number>>();

function urlOf(operation: Operation, request: GeneratedRequest): string {
  const path = operation.path.replace(/\{([^}]+)\}/g, (_m, name: string) => request.rawPathParams?.[name] ?? encodeURIComponent(request.pathParams[name] ?? ''));
  const query = request.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
  if (request.rawQuery) query.push(request.rawQuery);
  return query.length ? `${path}?${query.join('&')}` : path;
}

/** Fills the slots only the server can fill (a cursor it handed out, an ETag) and sends. */
async function send(operation: Operation, request: GeneratedRequest): Promise<{ response: ApiResponse; sent: GeneratedRequest }> {
  const sent: GeneratedRequest = { ...request, query: [...request.query], headers: { ...request.headers } };
  if (request.useKnownCursor && pools.cursors.has(operation.key)) {
    const cursor = pools.cursors.get(operation.key)!;
    if (parametersOf(operation, 'query').some((p) => p.name === 'Cursor')) {
      sent.query = [...sent.query.filter(([k]) => k !== 'Page' && k !== 'Cursor'), ['Cursor', cursor]];
    } else if (sent.body && typeof sent.body === 'object') {
      const { Page: _page, ...rest } = sent.body as Record<string, unknown>;
      sent.body = { ...rest, Cursor: cursor };
    }
  }
  // A valid Wait holds an empty events page open up to 30 s; test/events-feed.test.ts covers
  // waiting, so the cases here do not wait.
  if (operation.path.endsWith('/events')) sent.query = sent.query.map(([k, v]): [string, string] => [k, k === 'Wait' && /^([0-9]|[12][0-9]|30)$/.test(v) ? '0' : v]);
  if (request.useKnownEtag) {
    const record = Object.entries(request.pathParams).filter(([k]) => k !== 'version').at(-1)?.[1] ?? (sent.body as any)?.Id;
    sent.headers['If-Match'] = pools.etags.get(String(record)) ?? '*';
  }
  if (request.contentType) sent.headers['content-type'] = request.contentType;
  const response = await t.api(urlOf(operation, sent), {
    method: operation.method,
    as: AS,
    body: request.rawBody !== undefined ? request.rawBody : sent.body,
    headers: sent.headers,
  });
  cases++;
  return { response, sent };
}

/** Names the operation documents: its parameters and its body's top-level properties. */
function documentedNames(operation: Operation): Set<string> {
  const names = new Set<string>((operation.spec.parameters ?? []).map((p: any) => p.name));
  for (const { schema } of bodyMediaTypes(operation)) {
    const resolved = schema.$ref ? doc.components?.schemas?.[schema.$ref.split('/').at(-1)] : schema;
    for (const part of [resolved, ...(resolved?.allOf ?? [])]) for (const name of Object.keys(part?.properties ?? {})) names.add(name);
  }
  return names;
}

/** The fields a 400 names, one each, or its problem type: what a known-defect entry matches. */
function refusalDetails(operation: Operation, response: ApiResponse): string[] {
  const errors = response.body?.Errors;
  if (errors && typeof errors === 'object' && Object.keys(errors).length) {
    const names = documentedNames(operation);
    const fields = Object.keys(errors).map((key) => {
      const field = key.replace(/\[\d+\]/g, '[]');
      return names.has(field.split(/[.[]/)[0]!) ? field : '(an undocumented property)';
    });
    return [...new Set(fields)].sort();
  }
  return [String(response.body?.Type ?? response.text.slice(0, 80)).replace(/^.*\/errors\//, '')];
}

function judge(operation: Operation, request: GeneratedRequest, response: ApiResponse): Violation[] {
  const violations = checkAnswer(validator, operation, { status: response.status, headers: response.headers, text: response.text });
  const { status } = response;
  if (status >= 500) violations.push({ kind: '5xx', detail: String(status), message: `answered ${status}: ${response.text.slice(0, 300)}` });
  if (!request.mutation && (status === 400 || status === 415)) {
    for (const detail of refusalDetails(operation, response)) {
      violations.push({ kind: 'valid-refused', detail: `${status} ${detail}`, message: `a valid request was refused with ${status}: ${response.text.slice(0, 400)}` });
    }
  }
  if (request.mutation?.kind === 'unsupported-version' && status === 400 && !/\/errors\/UnsupportedApiVersion$/.test(String(response.body?.Type))) {
    violations.push({ kind: 'wrong-refusal', detail: `unsupported-version ${request.mutation.where}`, message: `an unsupported version was refused as ${response.body?.Type}: ${response.text.slice(0, 300)}` });
  }
  if (request.mutation && (status < 400 || status >= 500)) {
    violations.push({ kind: 'invalid-accepted', detail: `${request.mutation.kind} ${request.mutation.where}`, message: `a request with ${request.mutation.kind} at ${request.mutation.where} answered ${status}: ${response.text.slice(0, 300)}` });
  }
  return violations;
}

function known(operation: Operation, violation: Violation): KnownDefect | undefined {
  return KNOWN_DEFECTS.find((k) => k.ops.test(operation.key) && k.kind === violation.kind && k.detail.test(violation.detail));
}

const describeRequest = (operation: Operation, request: GeneratedRequest) =>
  JSON.stringify({
    method: operation.method,
    url: urlOf(operation, request),
    headers: request.headers,
    ...(request.rawBody !== undefined ? { rawBody: request.rawBody } : request.body !== undefined ? { body: request.body } : {}),
    ...(request.mutation ? { mutation: request.mutation } : {}),
  });

/** One property over one operation; unknown violations fail (and shrink), known ones are counted. */
async function checkOperation(operation: Operation, kind: 'valid' | 'invalid', arbitrary: fc.Arbitrary<GeneratedRequest & { schemaValid: boolean }>) {
  const property = fc.asyncProperty(arbitrary, async (request) => {
    // Only requests the document calls valid (or, for the other kind, invalid) count.
    fc.pre(kind === 'valid' ? request.schemaValid : request.mutation !== undefined && request.mutation.kind !== 'none' && !request.schemaValid);
    const { response, sent } = await send(operation, request);
    pools.learn(operation, request.pathParams, response);
    const tally = statuses.get(`${operation.key}|${kind}`) ?? {};
    tally[response.status] = (tally[response.status] ?? 0) + 1;
    statuses.set(`${operation.key}|${kind}`, tally);
    const unknown: Violation[] = [];
    for (const violation of judge(operation, request, response)) {
      const key = `${operation.key}|${violation.kind}|${violation.detail}`;
      const seen = observed.get(key);
      if (seen) seen.count++;
      else observed.set(key, { op: operation.key, violation, request: describeRequest(operation, sent), count: 1 });
      if (!SURVEY && !known(operation, violation)) unknown.push(violation);
    }
    if (unknown.length) throw new Error(unknown.map((v) => `${v.kind} (${v.detail}): ${v.message}`).join('\n'));
  });
  let result: fc.RunDetails<unknown> = await fc.check(property, {
    seed: SEED,
    numRuns: kind === 'valid' ? VALID_RUNS : INVALID_RUNS,
    maxSkipsPerRun: 20,
    endOnFailure: false,
    plugins: BUDGET_MS === undefined ? [] : [fc.interruptAfterTimeLimit(BUDGET_MS)],
  });
  // fast-check counts a run interrupted before its first case as failed; on a loaded machine
  // the budget can pass before one answer, so such an operation gets one case without it.
  if (result.failed && result.interrupted && result.numRuns === 0 && result.counterexample === null) {
    result = (await fc.check(property, { seed: SEED, numRuns: 1, maxSkipsPerRun: 100, endOnFailure: false })) as fc.RunDetails<unknown>;
  }
  if (result.failed) {
    const counterexample = (result.counterexample as unknown as [GeneratedRequest] | null)?.[0];
    throw new Error(
      `${operation.key}, ${kind} requests, seed ${result.seed} (OPENAPI_PROPERTIES_SEED=${result.seed} replays it), path ${result.counterexamplePath}\n` +
        (counterexample ? `request: ${describeRequest(operation, counterexample)}\n` : `no counterexample: ${result.numRuns} runs, ${result.numSkips} skipped (the generator's cases the document does not call ${kind}), interrupted ${result.interrupted}\n`) +
        `${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)}`,
    );
  }
  return result;
}

/** Creates first, reads next, changes after, deletes last: so later operations find records. */
function order(operation: Operation): number {
  const hasParams = parametersOf(operation, 'path').some((p) => p.name !== 'version');
  if (operation.method === 'DELETE') return 4;
  if (operation.method === 'GET') return 1;
  if (operation.method === 'POST' && !hasParams && !operation.path.endsWith('/search')) return 0;
  if (operation.method === 'POST' && operation.path.endsWith('/search')) return 1;
  if (/rotate-secret|disable/.test(operation.path)) return 3;
  return 2;
}

/** Reads every list and record once, twice over, so the pools hold the fixture's records. */
async function warmUp() {
  for (let pass = 0; pass < 2; pass++) {
    for (const operation of operations) {
      const isSearch = operation.method === 'POST' && operation.path.endsWith('/search');
      if (operation.method !== 'GET' && !isSearch) continue;
      const names = parametersOf(operation, 'path').map((p) => p.name).filter((n) => n !== 'version');
      let combos: Record<string, string>[] = [{}];
      for (const name of names) {
        combos = combos.flatMap((before) => pools.pathValues(operation, name, before).slice(0, 8).map((value) => ({ ...before, [name]: value })));
      }
      for (const params of combos.slice(0, 12)) {
        const request: GeneratedRequest = { method: operation.method, pathParams: { version: '1.0', ...params }, query: [], headers: {}, ...(isSearch ? { body: {}, contentType: 'application/json' } : {}) };
        const { response } = await send(operation, request);
        pools.learn(operation, request.pathParams, response);
      }
    }
  }
}

// Multipart uploads are not JSON the arbitraries can draw: test/document-uploads.test.ts checks
// their bodies (and the document's description of them) over HTTP. Nor is a raw X12
// interchange, whose validity is more than a schema can say: test/edi-inbound.test.ts.
const operations: Operation[] = operationsOf(doc)
  .filter((operation) => !operation.spec.requestBody?.content?.['multipart/form-data'] && !operation.spec.requestBody?.content?.['application/edi-x12'])
  .map((operation, index) => ({ operation, index }))
  .sort((a, b) => order(a.operation) - order(b.operation) || a.index - b.index)
  .map(({ operation }) => operation);
const BUDGET_MS = TOTAL_BUDGET_MS === undefined ? undefined : Math.floor(TOTAL_BUDGET_MS / (operations.length * 2));

/** Per known defect: the violations its probe produced on the fixture as loaded. */
const probeResults = new Map<KnownDefect, Violation[]>();

beforeAll(async () => {
  for (const entry of KNOWN_DEFECTS) {
    const operation = operations.find((o) => o.key === entry.probe.op);
    if (!operation) {
      probeResults.set(entry, []);
      continue;
    }
    // A probe sent as valid must still be valid by the document: a document that learned the
    // rule fixes the defect as surely as a server that dropped it.
    const { setup } = entry.probe;
    const made = setup ? await t.api(setup.path, { method: setup.method, as: AS, body: setup.body }) : undefined;
    if (made && made.status >= 300) throw new Error(`probe setup ${setup!.method} ${setup!.path} answered ${made.status}: ${made.text}`);
    const body = typeof entry.probe.body === 'function' ? entry.probe.body(made?.body) : entry.probe.body;
    const media = bodyMediaTypes(operation)[0];
    if (!entry.probe.mutation && media && !validator.isValid(media.schema, body)) {
      probeResults.set(entry, []);
      continue;
    }
    const response = await t.api(entry.probe.path, { method: operation.method, as: AS, body, headers: entry.probe.headers });
    const request: GeneratedRequest = { method: operation.method, pathParams: {}, query: [], headers: {}, mutation: entry.probe.mutation };
    probeResults.set(entry, judge(operation, request, response));
  }
  await warmUp();
});

afterAll(async () => {
  const report = [...observed.values()].map(({ op, violation, request, count }) => ({ op, kind: violation.kind, detail: violation.detail, count, known: known(operations.find((o) => o.key === op)!, violation)?.defect, message: violation.message, request }));
  if (process.env.OPENAPI_PROPERTIES_REPORT) writeFileSync(process.env.OPENAPI_PROPERTIES_REPORT, JSON.stringify({ seed: SEED, cases, seconds: (Date.now() - startedAt) / 1000, report, statuses: Object.fromEntries(statuses) }, null, 1));
  await t?.close();
});

describe('the REST surface against its OpenAPI document', () => {
  it('publishes operations to test', () => {
    expect(operations.length).toBeGreaterThan(80);
    for (const operation of operations) expect(bodyMediaTypes(operation).every((m) => m.schema)).toBe(true);
  });

  // One test per operation, named by its key so a failure says where; the list is the document's.
  for (const operation of operations) {
    it(operation.key, { timeout: 60_000 }, async () => {
      const arbitraries = requestArbitraries(doc, validator, operation, pools);
      await checkOperation(operation, 'valid', arbitraries.valid);
      await checkOperation(operation, 'invalid', arbitraries.invalid);
    });
  }

  it('still shows every listed known defect (remove the entries of fixed ones)', () => {
    const gone = KNOWN_DEFECTS.filter((k) => !(probeResults.get(k) ?? []).some((v) => k.kind === v.kind && k.detail.test(v.detail)));
    expect(gone.map((k) => `fixed? ${k.probe.op} (${k.probe.path}) no longer shows ${k.kind} ${k.detail}: ${k.defect}`)).toEqual([]);
  });
});

