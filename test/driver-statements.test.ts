import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './harness.js';
import { describeAuthCases } from './support/auth-cases.js';
import { moneyFixture } from './support/money-fixture.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ fixture: moneyFixture() });
});
afterAll(async () => {
  await t?.close();
});

const base = '/api/p/v1.0/driver-settlement-statements';

describeAuthCases(() => t, {
  method: 'GET',
  path: `${base}/80001`,
  scope: 'deduction:read',
  otherTenantPath: `${base}/89001`,
  missingPath: `${base}/99999`,
  otherSubsidiary: { as: 'sub_kc-all', path: `${base}/80002` },
});
describeAuthCases(() => t, { method: 'POST', path: `${base}/search`, scope: 'deduction:read', body: {} });

describe('driver settlement statements', () => {
  it('shows the credits posted to a new open statement, exact', async () => {
    const credit = { Date: '2026-11-21T10:00:00Z', Category: 'Bonus', Description: 'Bonus', DriverId: 'drv_cara' };
    const a = await t.api('/api/p/v1.0/credits/driver', { method: 'POST', as: 'prairie-integration', body: { ...credit, Amount: 1.1 } });
    const b = await t.api('/api/p/v1.0/credits/driver', { method: 'POST', as: 'prairie-integration', body: { ...credit, Amount: 2.2 } });
    const search = await t.api(`${base}/search`, { method: 'POST', as: 'prairie-integration', body: { DriverId: 'drv_cara' } });
    expect(search.status).toBe(200);
    expect(search.body.Total).toBe(1);
    const [statement] = search.body.Items;
    expect(statement).toMatchObject({ Status: 'Open', StatementDate: '2026-11-22T00:00:00.000Z', SubsidiaryId: 'sub_kc', DriverId: 'drv_cara', Accessorials: [] });
    expect(statement.Items.map((i: any) => i.Id).sort()).toEqual([a.body.Id, b.body.Id].sort());
    expect(statement.Items.map((i: any) => i.Amount.Amount).sort()).toEqual([1.1, 2.2]);

    const read = await t.api(`${base}/${statement.Number}`, { as: 'prairie-integration' });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(statement);
  });

  it('reads a processed statement and filters by status and date', async () => {
    const read = await t.api(`${base}/80001`, { as: 'sub_kc-all' });
    expect(read.body).toMatchObject({ Number: 80001, Status: 'Processed', DriverId: 'drv_ana', Items: [], Accessorials: [] });
    const processed = await t.api(`${base}/search`, { method: 'POST', as: 'prairie-integration', body: { Status: 'Processed' } });
    expect(processed.body.Items.map((s: any) => s.Number)).toEqual([80002, 80001]);
    const kc = await t.api(`${base}/search`, { method: 'POST', as: 'sub_kc-all', body: { StatementDateTo: '2026-11-20T00:00:00Z' } });
    expect(kc.body.Items.map((s: any) => s.Number)).toEqual([80001]);
    const bad = await t.api(`${base}/search`, { method: 'POST', as: 'prairie-integration', body: { Status: 'Closed' } });
    expect(bad.status).toBe(400);
  });
});
