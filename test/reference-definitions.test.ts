import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const V = '/api/p/v1.0';

describeAuthCases(() => t, { method: 'GET', path: `${V}/references?entities=Trip`, scope: 'trip:read' });

const pickupDate = { Id: 'refdef_pickup_date', Name: 'Pickup Date', Type: 'Date', Entities: ['Trip'] };
const poNumber = { Id: 'refdef_po', Name: 'PO Number', Type: 'Text', Entities: ['Trip', 'Load'] };
const sealNumber = { Id: 'refdef_seal', Name: 'Seal Number', Type: 'Text', Entities: ['Trip'] };

describe('GET /references', () => {
  it("lists the tenant's trip reference definitions for entities=Trip", async () => {
    const response = await t.api(`${V}/references?entities=Trip`, { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    // Ordered by Name in code-unit order ("PO" before "Pickup"), the same on every database.
    expect(response.body).toEqual({ Items: [poNumber, pickupDate, sealNumber], Page: 0, PageSize: 50, Total: 3, NextCursor: null });
  });

  it('accepts the v2.0 path alias used by published examples', async () => {
    const response = await t.api('/api/p/v2.0/references?entities=Trip', { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body.Total).toBe(3);
  });

  it('filters by entity, case-insensitively, repeated or comma-separated', async () => {
    const load = await t.api(`${V}/references?entities=load`, { as: 'prairie-integration' });
    expect(load.body.Items).toEqual([poNumber]);
    const both = await t.api(`${V}/references?entities=Load,Trip`, { as: 'prairie-integration' });
    expect(both.body.Total).toBe(3);
    const repeated = await t.api(`${V}/references?entities=Load&entities=Trip`, { as: 'prairie-integration' });
    expect(repeated.body.Total).toBe(3);
  });

  it('lists every definition without entities', async () => {
    const response = await t.api(`${V}/references`, { as: 'prairie-integration' });
    expect(response.body.Items).toEqual([poNumber, pickupDate, sealNumber]);
  });

  it('shows the tenant-wide catalog to subsidiary-bound clients too', async () => {
    const response = await t.api(`${V}/references?entities=Trip`, { as: 'sub_dal-all' });
    expect(response.body.Total).toBe(3);
  });

  it("never shows another tenant's definitions", async () => {
    const response = await t.api(`${V}/references?entities=Trip`, { as: 'tn_harbor-all' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Items: [], Page: 0, PageSize: 50, Total: 0, NextCursor: null });
  });

  it('pages', async () => {
    const response = await t.api(`${V}/references?entities=Trip&Page=1&PageSize=2`, { as: 'prairie-integration' });
    expect(response.body).toEqual({ Items: [sealNumber], Page: 1, PageSize: 2, Total: 3, NextCursor: null });
  });

  it.each([
    ['entities=Driver', 'entities[0]'],
    ['entities=', 'entities[0]'],
    ['PageSize=101', 'PageSize'],
    ['entity=Trip', 'entity'],
  ])('answers %s with 400 naming %s', async (query, field) => {
    const response = await t.api(`${V}/references?${query}`, { as: 'prairie-integration' });
    expect(response.status).toBe(400);
    expect(response.body.Type).toMatch(/\/errors\/Validation$/);
    expect(Object.keys(response.body.Errors)).toContain(field);
  });
});
