import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /openapi.json', () => {
  it('serves an OpenAPI 3.1 document without a token', async () => {
    const response = await t.api('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(response.body.paths).toHaveProperty('/api/p/v{version}/subsidiaries/{id}');
  });

  it('tells the truth about statuses, media types, security and errors', async () => {
    const doc = (await t.api('/openapi.json')).body;
    const operation = doc.paths['/api/p/v{version}/subsidiaries/{id}'].get;
    expect(operation.security).toEqual([{ oauth2: ['subsidiary:read'] }, { bearerAuth: [] }]);
    expect(doc.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(`${t.config.publicAuthUrl}/oauth/token`);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '401', '403', '404', '429']);
    expect(operation.responses['404'].content).toEqual({
      'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } },
    });
    expect(operation.responses['400'].content['application/problem+json'].schema.$ref).toBe('#/components/schemas/BadRequestProblem');
    expect(doc.components.schemas.BadRequestProblem.oneOf).toEqual([
      { $ref: '#/components/schemas/ValidationProblem' },
      { $ref: '#/components/schemas/UnsupportedApiVersionProblem' },
    ]);
    expect(operation.responses['429'].headers).toHaveProperty('Retry-After');
    const pathParams = operation.parameters.filter((p: any) => p.in === 'path');
    expect(pathParams.every((p: any) => p.required === true)).toBe(true);
    expect(Object.keys(doc.components.schemas).some((name) => name.startsWith('error.'))).toBe(false);
    expect(doc.components.schemas.Problem.required).toEqual(['Type', 'Title', 'Status', 'Detail', 'Instance']);
  });
});

describe('GET /openapi/v1.0.json', () => {
  it('is /openapi.json with version 1.0 fixed in the paths and no version parameter, which keeps its {version} paths', async () => {
    const full = (await t.api('/openapi.json')).body;
    const fixed = await t.api('/openapi/v1.0.json');
    expect(fixed.status).toBe(200);
    expect(fixed.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const templates = Object.keys(full.paths);
    expect(templates.length).toBeGreaterThan(80);
    // The paths as the API reads them: every operation takes the version as a required path parameter.
    for (const template of templates) {
      expect(template).toMatch(/^\/api\/p\/v\{version\}\//);
      for (const operation of Object.values<any>(full.paths[template])) {
        expect(operation.parameters.find((p: any) => p.in === 'path' && p.name === 'version')).toMatchObject({ required: true, schema: { default: '1.0' } });
      }
    }
    expect(Object.keys(fixed.body.paths)).toEqual(templates.map((template) => template.replace('/v{version}/', '/v1.0/')));
    for (const template of templates) {
      for (const [method, operation] of Object.entries<any>(full.paths[template])) {
        const without = { ...operation, parameters: operation.parameters.filter((p: any) => p.name !== 'version' || p.in !== 'path') };
        expect(fixed.body.paths[template.replace('/v{version}/', '/v1.0/')][method]).toEqual(without);
      }
    }
    const { paths: _full, ...fullRest } = full;
    const { paths: _fixed, ...fixedRest } = fixed.body;
    expect(fixedRest).toEqual(fullRest);
  });

  it('is linked from the reference page, as /openapi.json is', async () => {
    const page = await t.api('/docs');
    expect(page.text).toContain('<a href="/openapi/v1.0.json">');
    expect(page.text).toContain('<a href="/openapi.json">');
  });

  it('answers a wrong method with 405 and Allow, and only that exact path', async () => {
    const response = await t.api('/openapi/v1.0.json', { method: 'POST', body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect((await t.api('/openapi/v2.0.json')).status).toBe(404);
  });
});

describe('the document and the reference page assets', () => {
  it('are gzip-compressed when accepted and revalidate with their ETag (304)', async () => {
    for (const path of ['/openapi.json', '/openapi/v1.0.json', '/docs/swagger-ui-bundle.js']) {
      const plain = await fetch(t.apiUrl + path, { headers: { 'accept-encoding': 'identity' } });
      const plainBytes = (await plain.arrayBuffer()).byteLength;
      expect(plain.headers.get('content-encoding'), path).toBeNull();
      const zipped = await fetch(t.apiUrl + path, { headers: { 'accept-encoding': 'gzip' } });
      expect(zipped.headers.get('content-encoding'), path).toBe('gzip');
      expect(Number(zipped.headers.get('content-length')), path).toBeLessThan(plainBytes / 2);
      // fetch decompresses: the same bytes arrive either way.
      expect((await zipped.arrayBuffer()).byteLength, path).toBe(plainBytes);
      const etag = plain.headers.get('etag');
      expect(etag, path).toMatch(/^"[\w-]+"$/);
      expect(zipped.headers.get('etag'), path).toBe(etag);
      const again = await fetch(t.apiUrl + path, { headers: { 'if-none-match': etag! } });
      expect(again.status, path).toBe(304);
    }
  });
});

describe('GET /docs', () => {
  it('serves the reference page and its assets from the package, no CDN', async () => {
    const page = await t.api('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/https?:\/\//);
    for (const asset of ['/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css', '/docs/init.js']) {
      const response = await fetch(t.apiUrl + asset);
      expect(response.status, asset).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(10);
    }
  });
});

describe('GET /healthz', () => {
  it('reports the database reachable', async () => {
    const response = await t.api('/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ Status: 'ok', Database: 'ok' });
  });
});

describe('paths outside the API', () => {
  it('answers unknown paths with a 404 problem', async () => {
    const response = await t.api('/nothing');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers a wrong method on /openapi.json with 405 and Allow', async () => {
    const response = await t.api('/openapi.json', { method: 'POST', body: {} });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
