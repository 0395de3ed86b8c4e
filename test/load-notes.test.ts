import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaller } from '../core/router.js';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { expectRefusedWrite } from './support/refused-write.js';
import { eventsDuring } from './support/trip-write-fixture.js';

/** Notes on loads (docs/api-rules.md#notes-and-check-calls), over HTTP on both databases. */

const V = '/api/p/v1.0';
const ALL = 'tn_prairie-all';
const NOTES = `${V}/loads/L-1001/notes`;
const SEEDED = 'note_seed_1001';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // A note with a known id, for the single read's shared cases (ids of created notes are random).
  const load = await t.db.selectFrom('loads').select('id').where('load_number', '=', 'L-1001').executeTakeFirstOrThrow();
  await t.db
    .insertInto('load_notes')
    .values({ id: SEEDED, tenant_id: 'tn_prairie', load_id: load.id, text: 'Seeded', access: 'Internal', created_by: 'seed', created_at: '2026-11-20T10:00:00.000Z' })
    .execute();
});
afterAll(async () => {
  await t?.close();
});

const post = (path: string, body: unknown, as = ALL, headers: Record<string, string> = {}) => t.api(path, { method: 'POST', as, body, headers });

const refused = (path: string, body: unknown, status: number, as = ALL) => expectRefusedWrite(t, () => post(path, body, as), status);

const shared = {
  otherTenantPath: `${V}/loads/H-1/notes`,
  missingPath: `${V}/loads/NOPE-1/notes`,
  otherSubsidiary: { as: 'sub_dal-all', path: NOTES },
};
describeAuthCases(() => t, { method: 'POST', path: NOTES, scope: 'load:update', body: { Text: 'Auth case', Access: 'Internal' }, okStatus: 201, ...shared });
describeAuthCases(() => t, { method: 'GET', path: NOTES, scope: 'load:read', ...shared });
describeAuthCases(() => t, {
  method: 'GET',
  path: `${NOTES}/${SEEDED}`,
  scope: 'load:read',
  otherTenantPath: `${V}/loads/H-1/notes/${SEEDED}`,
  missingPath: `${V}/loads/NOPE-1/notes/${SEEDED}`,
  otherSubsidiary: { as: 'sub_dal-all', path: `${NOTES}/${SEEDED}` },
});

describe('POST /loads/{loadNumber}/notes', () => {
  it('answers 201 with the note, CreatedBy the calling client, Location and an ETag the note read repeats', async () => {
    t.clock.set('2026-11-22T12:00:00Z');
    const response = await post(NOTES, { Text: 'Gate code changed to 4411.', Access: 'Internal' });
    expect(response.status, response.text).toBe(201);
    const note = response.body;
    expect(Object.keys(note).sort()).toEqual(['Access', 'CreatedAt', 'CreatedBy', 'Id', 'Text']);
    expect(note).toMatchObject({ Text: 'Gate code changed to 4411.', Access: 'Internal', CreatedAt: '2026-11-22T12:00:00.000Z', CreatedBy: ALL });
    expect(note.Id).toMatch(/^note_/);
    expect(response.headers.get('location')).toBe(`${NOTES}/${note.Id}`);
    const etag = response.headers.get('etag');
    expect(etag).toMatch(/^"note_.+"$/);

    const read = await t.api(response.headers.get('location')!, { as: ALL });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(note);
    expect(read.headers.get('etag')).toBe(etag);
  });

  it('is the same procedure for internal apps (tRPC caller), CreatedBy their client id', async () => {
    const caller = createCaller({
      db: t.db,
      clock: t.clock,
      config: t.config,
      principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal-app', Scopes: ['load:update'] },
    });
    const note = await caller.loadNotes.createLoadNote({ loadNumber: 'L-1001', Text: 'From the dispatch board', Access: 'Public' });
    expect(note).toMatchObject({ Text: 'From the dispatch board', Access: 'Public', CreatedBy: 'internal-app' });
  });

  it('trims Text and accepts exactly 2,000 characters', async () => {
    expect((await post(NOTES, { Text: '  padded  ', Access: 'Public' })).body.Text).toBe('padded');
    const long = await post(NOTES, { Text: 'x'.repeat(2000), Access: 'Internal' });
    expect(long.status, long.text).toBe(201);
    expect(long.body.Text).toHaveLength(2000);
  });

  it.each([
    ['empty Text', { Text: '', Access: 'Public' }, 'Text'],
    ['white space only', { Text: ' \n ', Access: 'Public' }, 'Text'],
    ['Text over 2,000 characters', { Text: 'x'.repeat(2001), Access: 'Public' }, 'Text'],
    ['Text missing', { Access: 'Public' }, 'Text'],
    ['Access missing', { Text: 'Hello' }, 'Access'],
    ['Access not Internal or Public', { Text: 'Hello', Access: 'Private' }, 'Access'],
    ['an unknown property', { Text: 'Hello', Access: 'Public', Pinned: true }, 'Pinned'],
  ])('refuses %s with a 400 naming the field, writing nothing', async (_name, body, field) => {
    const response = await refused(NOTES, body, 400);
    expect(Object.keys(response.body.Errors)).toContain(field);
  });

  it('answers 404 for a missing load, after validating the body, writing nothing', async () => {
    expect((await refused(`${V}/loads/NOPE-1/notes`, { Text: 'x', Access: 'Public' }, 404)).body.Type).toMatch(/\/errors\/NotFound$/);
    expect((await refused(`${V}/loads/NOPE-1/notes`, { Text: '', Access: 'Public' }, 400)).body.Errors).toHaveProperty('Text');
  });

  it("refuses a subsidiary-bound client another subsidiary's load (404), writing nothing", async () => {
    await refused(NOTES, { Text: 'x', Access: 'Public' }, 404, 'sub_dal-all');
  });

  it("writes load.note.created with the note and LoadNumber, routed by the load's subsidiary", async () => {
    let created: any;
    const events = await eventsDuring(t, async () => {
      created = (await post(NOTES, { Text: 'Event note', Access: 'Public' })).body;
    });
    expect(events).toEqual([{ type: 'load.note.created', tenantId: 'tn_prairie', subsidiaryId: 'sub_kc', data: { ...created, LoadNumber: 'L-1001' } }]);
  });

  it('replays a POST with the same Idempotency-Key without writing a second note', async () => {
    const headers = { 'idempotency-key': 'note-key-1' };
    const first = await post(`${V}/loads/L-2001/notes`, { Text: 'Once', Access: 'Internal' }, ALL, headers);
    expect(first.status).toBe(201);
    const again = await post(`${V}/loads/L-2001/notes`, { Text: 'Once', Access: 'Internal' }, ALL, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const stored = await t.db.selectFrom('load_notes').select('id').where('text', '=', 'Once').execute();
    expect(stored).toHaveLength(1);
  });
});

describe('GET /loads/{loadNumber}/notes', () => {
  const LIST = `${V}/loads/L-1990/notes`;
  const ids: string[] = [];
  beforeAll(async () => {
    // Five notes a minute apart, then two in the same millisecond (the id breaks the tie).
    for (const [index, minute] of ['00', '01', '02', '03', '04', '05', '05'].entries()) {
      t.clock.set(`2026-11-22T13:${minute}:00Z`);
      const response = await post(LIST, { Text: `Note ${index}`, Access: index % 2 === 0 ? 'Public' : 'Internal' });
      expect(response.status, response.text).toBe(201);
      ids.push(response.body.Id);
    }
  });

  const expectedOrder = () => {
    const tied = ids.slice(5).sort();
    return [...tied, ...ids.slice(0, 5).reverse()];
  };

  it('lists Internal and Public notes newest first, the id breaking ties, with Total', async () => {
    const response = await t.api(LIST, { as: ALL });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Page: 0, PageSize: 50, Total: 7, NextCursor: null });
    expect(response.body.Items.map((note: any) => note.Id)).toEqual(expectedOrder());
    expect(new Set(response.body.Items.map((note: any) => note.Access))).toEqual(new Set(['Public', 'Internal']));
  });

  it('pages by Page and PageSize and walks by Cursor without overlap', async () => {
    const second = await t.api(`${LIST}?Page=1&PageSize=3`, { as: ALL });
    expect(second.body.Items.map((note: any) => note.Id)).toEqual(expectedOrder().slice(3, 6));
    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await t.api(`${LIST}?PageSize=2${cursor ? `&Cursor=${cursor}` : ''}`, { as: ALL });
      expect(page.status).toBe(200);
      walked.push(...page.body.Items.map((note: any) => note.Id));
      cursor = page.body.NextCursor;
    } while (cursor);
    expect(walked).toEqual(expectedOrder());
  });

  it('refuses a PageSize over 100 and a foreign cursor with 400', async () => {
    expect((await t.api(`${LIST}?PageSize=101`, { as: ALL })).status).toBe(400);
    const trips = await t.api(`${V}/trips?PageSize=1`, { as: ALL });
    const foreign = trips.body.NextCursor as string;
    expect(foreign).toEqual(expect.any(String));
    const response = await t.api(`${LIST}?Cursor=${foreign}`, { as: ALL });
    expect(response.status).toBe(400);
    expect(response.body.Errors).toHaveProperty('Cursor');
  });

  it("a note of another load reads as 404 on this load's path", async () => {
    const response = await t.api(`${V}/loads/L-2001/notes/${ids[0]}`, { as: ALL });
    expect(response.status).toBe(404);
  });
});

describe('the customer tracking page', () => {
  const PUBLIC = 'Driver is 30 minutes out <b>on I-35</b> & moving.';
  const INTERNAL = 'Customer pays late INTERNAL-NOTE-7781';
  let pagePath: string;
  beforeAll(async () => {
    t.clock.set('2026-11-22T14:00:00Z');
    expect((await post(`${V}/loads/L-2001/notes`, { Text: PUBLIC, Access: 'Public' })).status).toBe(201);
    expect((await post(`${V}/loads/L-2001/notes`, { Text: INTERNAL, Access: 'Internal' })).status).toBe(201);
    const link = await post(`${V}/loads/L-2001/tracking-link`, undefined);
    expect(link.status, link.text).toBe(201);
    pagePath = new URL(link.body.Url).pathname;
  });

  it('shows Public notes, escaped, and never an Internal one in the HTML page', async () => {
    const response = await t.api(pagePath, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.text).toContain('<section class="card" id="notes">');
    expect(response.text).toContain('Driver is 30 minutes out &lt;b&gt;on I-35&lt;/b&gt; &amp; moving.');
    expect(response.text).not.toContain('<b>on I-35</b>');
    expect(response.text).not.toContain('INTERNAL-NOTE-7781');
    expect(response.text).not.toContain('Once');
  });

  it('serves the same Public notes, newest first, as JSON, without Internal ones', async () => {
    const response = await t.api(pagePath, { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.body.Notes).toEqual([{ Text: PUBLIC, CreatedAt: '2026-11-22T14:00:00.000Z' }]);
    expect(response.text).not.toContain('INTERNAL-NOTE-7781');
  });

  it('has no notes section for a load without Public notes', async () => {
    const link = await post(`${V}/loads/H-1/tracking-link`, undefined, 'tn_harbor-all');
    const page = await t.api(new URL(link.body.Url).pathname, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('id="notes"');
  });
});
