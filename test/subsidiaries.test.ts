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

describeAuthCases(() => t, {
  method: 'GET',
  path: '/api/p/v1.0/subsidiaries/sub_kc',
  scope: 'subsidiary:read',
  otherTenantPath: '/api/p/v1.0/subsidiaries/sub_harbor_main',
  missingPath: '/api/p/v1.0/subsidiaries/sub_nowhere',
  otherSubsidiary: { as: 'sub_kc-all', path: '/api/p/v1.0/subsidiaries/sub_dal' },
});

describeAuthCases(() => t, {
  method: 'GET',
  path: '/api/p/v1.0/subsidiaries',
  scope: 'subsidiary:read',
});

describe('GET /subsidiaries/{id}', () => {
  it('returns the subsidiary in PascalCase', async () => {
    const response = await t.api('/api/p/v1.0/subsidiaries/sub_kc', { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Id: 'sub_kc', Name: 'Prairie Line Kansas City' });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('api-version')).toBe('1.0');
    expect(response.headers.get('api-supported-versions')).toBe('1.0');
  });

  it('lets a subsidiary-bound client read its own subsidiary', async () => {
    const response = await t.api('/api/p/v1/subsidiaries/sub_kc', { as: 'sub_kc-all' });
    expect(response.status).toBe(200);
    expect(response.body.Id).toBe('sub_kc');
  });

  it('decodes path parameters', async () => {
    const response = await t.api('/api/p/v1.0/subsidiaries/sub%5Fkc', { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body.Id).toBe('sub_kc');
  });

  it('answers a missing subsidiary with a NotFound problem', async () => {
    const response = await t.api('/api/p/v1.0/subsidiaries/nope', { as: 'prairie-integration' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      Type: `${t.apiUrl}/errors/NotFound`,
      Title: expect.any(String),
      Status: 404,
      Detail: expect.any(String),
      Instance: '/api/p/v1.0/subsidiaries/nope',
    });
  });
});

describe('GET /subsidiaries', () => {
  it("lists the tenant's subsidiaries with paging", async () => {
    const response = await t.api('/api/p/v1.0/subsidiaries', { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      Items: [
        { Id: 'sub_dal', Name: 'Prairie Line Dallas' },
        { Id: 'sub_kc', Name: 'Prairie Line Kansas City' },
      ],
      Page: 0,
      PageSize: 50,
      Total: 2,
      NextCursor: null,
    });
  });

  it('shows a subsidiary-bound client only its own subsidiary', async () => {
    const response = await t.api('/api/p/v1.0/subsidiaries', { as: 'sub_dal-all' });
    expect(response.body.Items).toEqual([{ Id: 'sub_dal', Name: 'Prairie Line Dallas' }]);
    expect(response.body.Total).toBe(1);
  });

  it('pages with Page and PageSize', async () => {
    const response = await t.api('/api/p/v1.0/subsidiaries?Page=1&PageSize=1', { as: 'prairie-integration' });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ Items: [{ Id: 'sub_kc' }], Page: 1, PageSize: 1, Total: 2 });
  });

  it('refuses a PageSize over 100 naming the field', async () => {
    const response = await t.api('/api/p/v1.0/subsidiaries?PageSize=101', { as: 'prairie-integration' });
    expect(response.status).toBe(400);
    expect(Object.keys(response.body.Errors)).toEqual(['PageSize']);
  });

  it('refuses an unknown query parameter naming it', async () => {
    const response = await t.api('/api/p/v1.0/subsidiaries?Colour=red', { as: 'prairie-integration' });
    expect(response.status).toBe(400);
    expect(response.body.Errors).toHaveProperty('Colour');
  });
});
