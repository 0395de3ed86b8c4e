import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../adapters/project-root.js';
import { errorPageNames } from '../adapters/web/error-pages.js';
import { edgeKinds, problemKinds } from '../adapters/http/problem.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** The path of a problem's Type on the API host. */
const typePath = (type: string) => new URL(type).pathname;

describe('problem Type pages', () => {
  it('a Type from a real answer opens a page saying what happened and what to do', async () => {
    const answers = [
      await t.api('/api/p/v1.0/loads'), // 401
      await t.api('/api/p/v1.0/loads/L-nope', { as: 'tn_prairie-all' }), // 404
      await t.api('/api/p/v1.0/trips?PageSize=abc', { as: 'tn_prairie-all' }), // 400
      await t.api('/api/p/v9.0/loads', { as: 'tn_prairie-all' }), // 400 UnsupportedApiVersion
    ];
    for (const answer of answers) {
      const type: string = answer.body.Type;
      expect(type.startsWith(`${t.config.publicBaseUrl}/errors/`), type).toBe(true);
      const page = await fetch(t.apiUrl + typePath(type));
      expect(page.status, type).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain(answer.body.Title);
      expect(html).toContain('What to do');
      expect(html).not.toMatch(/https?:\/\//);
    }
  });

  it('answers JSON for Accept: application/json', async () => {
    const response = await t.api('/errors/Conflict/StaleLocation', { headers: { accept: 'application/json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('vary')).toBe('Accept');
    expect(response.body).toEqual({
      Type: 'Conflict/StaleLocation',
      Status: 409,
      Title: 'The request conflicts with the current state. (StaleLocation)',
      Explanation: expect.stringContaining('newer position'),
      WhatToDo: expect.any(String),
    });
  });

  it('has a page for every category of the error table and every code the source raises', async () => {
    const categories = [...Object.values(problemKinds), ...Object.values(edgeKinds)].map((kind) => kind.category);
    const raised = new Set<string>();
    for (const file of [...sourceFiles(join(projectRoot(), 'core')), ...sourceFiles(join(projectRoot(), 'adapters'))]) {
      for (const match of readFileSync(file, 'utf8').matchAll(/subtype: '(\w+)'/g)) raised.add(match[1]!);
    }
    expect(raised.size).toBeGreaterThan(5);
    const names = errorPageNames();
    for (const category of categories) expect(names, category).toContain(category);
    for (const code of raised) expect(names.some((name) => name.endsWith(`/${code}`)), code).toBe(true);
    for (const name of names) {
      const response = await fetch(`${t.apiUrl}/errors/${name}`, { method: 'HEAD' });
      expect(response.status, name).toBe(200);
    }
  });

  it('an unknown Type is a 404 problem, and a write to a page is a 405', async () => {
    for (const path of ['/errors/Nope', '/errors/Conflict/Nope', '/errors/Conflict/StaleLocation/extra', '/errors/']) {
      const response = await t.api(path);
      expect(response.status, path).toBe(404);
      expect(response.body.Type).toMatch(/\/errors\/NotFound$/);
    }
    const post = await t.api('/errors/NotFound', { method: 'POST', body: {} });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});
