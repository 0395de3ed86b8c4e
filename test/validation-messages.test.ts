import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';

// One wording for validation messages: each says what is wrong with the field it is filed under.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const ALL = 'tn_prairie-all';

describe('validation messages', () => {
  it('a present value of the wrong type is not called missing', async () => {
    const response = await t.api('/api/p/v1.0/visibility/assets/Truck/trk_101/locations', {
      method: 'POST',
      as: ALL,
      body: { RecordedAt: '2026-11-22T11:00:00Z', Coordinates: { Latitude: 38.8, Longitude: -97.6 } },
    });
    expect(response.status).toBe(400);
    expect(response.body.Errors).toEqual({ 'Coordinates.Latitude': ['must be a string'], 'Coordinates.Longitude': ['must be a string'] });
  });

  it('missing, too big, not one of, unknown property: the same style', async () => {
    const paging = await t.api('/api/p/v1.0/trips?PageSize=1000', { as: ALL });
    expect(paging.status).toBe(400);
    expect(paging.body.Errors.PageSize).toEqual(['must be at most 100']);

    const search = await t.api('/api/p/v1.0/trips/search', { method: 'POST', as: ALL, body: { Status: ['Nope'], Extra: 1 } });
    expect(search.status).toBe(400);
    expect(JSON.stringify(search.body.Errors)).toMatch(/must be one of: Planned, Assigned/);
    expect(search.body.Errors.Extra).toEqual(['is not allowed']);

    const webhook = await t.api('/api/p/v1.0/webhooks', { method: 'POST', as: ALL, body: { EventTypes: ['trip.status.changed'], SubsidiaryId: 'sub_kc' } });
    expect(webhook.status).toBe(400);
    expect(webhook.body.Errors.Url).toEqual(['is required']);
  });

  it('no message keeps Zod\'s own wording', async () => {
    const bodies = [
      { path: '/api/p/v1.0/trips/search', body: { Page: -1, PageSize: 'x', Statuses: [], UpdatedAtRange: { Start: 'yesterday' } } },
      { path: '/api/p/v1.0/deductions/once', body: { Amount: { Amount: 'x' }, Date: 5, DriverId: null } },
    ];
    for (const { path, body } of bodies) {
      const response = await t.api(path, { method: 'POST', as: ALL, body });
      expect(response.status, path).toBe(400);
      for (const messages of Object.values<string[]>(response.body.Errors)) {
        for (const message of messages) expect(message, `${path}: ${message}`).not.toMatch(/Invalid input|Too (big|small)|expected .* received|Invalid option/);
      }
    }
  });
});
