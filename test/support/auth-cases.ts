import { describe, expect, it } from 'vitest';
import type { TestApp } from '../harness.js';

export interface ProtectedRoute {
  method: string;
  /** A path the tenant-wide client `<tenant>-all` may call successfully. */
  path: string;
  scope: string;
  body?: unknown;
  /** Request headers every case sends (e.g. `If-Match: *` for a write that requires it). */
  headers?: Record<string, string>;
  /** Status of the successful call (200 unless the route creates). */
  okStatus?: number;
  /** The same route naming a record of another tenant: must be a 404 like a missing record's. */
  otherTenantPath?: string;
  /** A path naming a record that exists nowhere, to compare the 404 bodies. */
  missingPath?: string;
  /** A subsidiary-bound client and a path naming another subsidiary's record. */
  otherSubsidiary?: { as: string; path: string };
  tenant?: string;
}

function withoutInstance(body: Record<string, unknown>) {
  const { Instance: _instance, ...rest } = body;
  return rest;
}

/**
 * The shared authentication and isolation cases, run for every protected route: no token,
 * malformed token, missing scope, another tenant's id, another subsidiary's id.
 */
export function describeAuthCases(getApp: () => TestApp, route: ProtectedRoute): void {
  const tenant = route.tenant ?? 'tn_prairie';
  const call = (path: string, as: string | null) =>
    getApp().api(path, { method: route.method, as, body: route.body, headers: route.headers });

  describe(`${route.method} ${route.path}: authentication and isolation`, () => {
    it('succeeds for a client with the scope', async () => {
      const response = await call(route.path, `${tenant}-all`);
      expect(response.status, response.text).toBe(route.okStatus ?? 200);
    });

    it('answers 401 with a Bearer challenge without a token', async () => {
      const response = await call(route.path, null);
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.body.Status).toBe(401);
    });

    it('answers 401 for a malformed token', async () => {
      const response = await call(route.path, 'raw:not-a.jwt.token');
      expect(response.status).toBe(401);
      expect(response.body.Type).toMatch(/\/errors\/Unauthorized$/);
    });

    it(`answers 403 without the scope ${route.scope}`, async () => {
      const response = await call(route.path, `${tenant}-none`);
      expect(response.status).toBe(403);
      expect(response.body.Type).toMatch(/\/errors\/Forbidden$/);
    });

    if (route.otherTenantPath) {
      it("answers another tenant's record with a 404 identical to a missing record's", async () => {
        const other = await call(route.otherTenantPath!, `${tenant}-all`);
        expect(other.status).toBe(404);
        if (route.missingPath) {
          const missing = await call(route.missingPath, `${tenant}-all`);
          expect(missing.status).toBe(404);
          expect(withoutInstance(other.body)).toEqual(withoutInstance(missing.body));
        }
      });
    }

    if (route.otherSubsidiary) {
      it("answers another subsidiary's record with a 404 for a subsidiary-bound client", async () => {
        const other = await call(route.otherSubsidiary!.path, route.otherSubsidiary!.as);
        expect(other.status).toBe(404);
        if (route.missingPath) {
          const missing = await call(route.missingPath, route.otherSubsidiary!.as);
          expect(withoutInstance(other.body)).toEqual(withoutInstance(missing.body));
        }
      });
    }
  });
}
