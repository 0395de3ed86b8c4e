import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listSubsidiariesInProcess, remoteClient } from '../examples/internal-app.js';
import { createCaller } from '../core/router.js';
import { AppError } from '../core/errors.js';
import { startTestApp, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('internal apps: createCaller in-process', () => {
  it('calls procedures with the same shapes as REST', async () => {
    const lines = await listSubsidiariesInProcess(t.db, {
      TenantId: 'tn_prairie',
      SubsidiaryId: null,
      ClientId: 'internal',
      Scopes: ['subsidiary:read'],
    });
    expect(lines).toEqual(['sub_dal: Prairie Line Dallas', 'sub_kc: Prairie Line Kansas City']);
  });

  it('throws the same errors: scope, not found, another tenant', async () => {
    const base = { db: t.db, clock: t.clock, config: t.config };
    const noScope = createCaller({ ...base, principal: { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'c', Scopes: [] } });
    await expect(noScope.subsidiaries.getSubsidiary({ id: 'sub_kc' })).rejects.toMatchObject({ appCode: 'FORBIDDEN' });
    const harbor = createCaller({ ...base, principal: { TenantId: 'tn_harbor', SubsidiaryId: null, ClientId: 'c', Scopes: ['subsidiary:read'] } });
    const error = await harbor.subsidiaries.getSubsidiary({ id: 'sub_kc' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).appCode).toBe('NOT_FOUND');
    const anonymous = createCaller({ ...base, principal: null });
    await expect(anonymous.subsidiaries.findSubsidiaries({})).rejects.toMatchObject({ appCode: 'UNAUTHORIZED' });
  });
});

describe('internal apps: tRPC client over /api/trpc', () => {
  it('calls a procedure with a bearer token', async () => {
    const client = remoteClient(t.apiUrl, await t.token('prairie-integration'));
    const subsidiary = await client.subsidiaries.getSubsidiary.query({ id: 'sub_kc' });
    expect(subsidiary).toEqual({ Id: 'sub_kc', Name: 'Prairie Line Kansas City' });
    const page = await client.subsidiaries.findSubsidiaries.query({ PageSize: 1 });
    expect(page.Total).toBe(2);
  });

  it('refuses a call without a token with UNAUTHORIZED', async () => {
    const client = remoteClient(t.apiUrl, 'not-a-token');
    const error = await client.subsidiaries.getSubsidiary.query({ id: 'sub_kc' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<any>).data?.code).toBe('UNAUTHORIZED');
    expect((error as TRPCClientError<any>).data?.httpStatus).toBe(401);
  });

  it('keeps tenants apart', async () => {
    const client = remoteClient(t.apiUrl, await t.token('harbor-integration'));
    const error = await client.subsidiaries.getSubsidiary.query({ id: 'sub_kc' }).catch((e: unknown) => e);
    expect((error as TRPCClientError<any>).data?.code).toBe('NOT_FOUND');
  });

  it('never sends a stack trace', async () => {
    const response = await fetch(`${t.apiUrl}/api/trpc/subsidiaries.getSubsidiary?input=${encodeURIComponent('{"id":"x"}')}`, {
      headers: { authorization: `Bearer ${await t.token('prairie-integration')}` },
    });
    const text = await response.text();
    expect(response.status).toBe(404);
    expect(text).not.toMatch(/stack|\.ts:\d+/);
  });
});
