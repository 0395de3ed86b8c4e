import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findVisibilityCustomer } from '../core/documents/document.repository.js';
import { claimKey } from '../core/idempotency/idempotency.repository.js';
import { takenLoadNumbers } from '../core/loads/new-load-checks.js';
import type { Scope } from '../core/shared/scope.js';
import { heldRecordedAt, latestPosition, positionHistory } from '../core/visibility/position.repository.js';
import { telemetryHistory } from '../core/visibility/telemetry.repository.js';
import { attemptStats, findDeliveryLogs, lastAttempt } from '../core/webhooks/delivery-log.repository.js';
import { startTestApp, type TestApp } from './harness.js';

// Repositories apply the caller's scope themselves: called directly, with no parent record
// checked first, another tenant's or subsidiary's rows are still not found.
const own: Scope = { tenantId: 'tn_prairie', subsidiaryId: 'sub_kc' };
const tenantWide: Scope = { tenantId: 'tn_prairie', subsidiaryId: null };
const sibling: Scope = { tenantId: 'tn_prairie', subsidiaryId: 'sub_dal' };
const otherTenant: Scope = { tenantId: 'tn_harbor', subsidiaryId: null };

const RECORDED_AT = '2026-11-22T11:00:00.000Z';
const page = { Page: 0, PageSize: 10 };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const post = (path: string, body: unknown) => t.api(`/api/p/v1.0${path}`, { method: 'POST', as: 'tn_prairie-all', body });
  const location = await post('/assets/drv_ana/locations', { Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' }, RecordedAt: RECORDED_AT });
  expect(location.status, location.text).toBe(201);
  const telemetry = await post('/visibility/assets/driver/drv_ana/telemetry', { RecordedAt: RECORDED_AT, Speed: 55 });
  expect(telemetry.status, telemetry.text).toBe(201);
  await t.db
    .insertInto('webhook_delivery_attempts')
    .values({
      id: 'att_scope_1',
      tenant_id: 'tn_prairie',
      delivery_id: 'msg_scope_1',
      webhook_id: 'wh_kc_ops',
      customer_id: null,
      event_type: 'trip.changed',
      attempt: 1,
      status: 'success',
      http_status: 200,
      duration_ms: 100,
      reason: null,
      response_body: null,
      attempted_at: RECORDED_AT,
    })
    .execute();
  await t.db.updateTable('customers').set({ visibility_url: 'https://receiver.test.invalid/visibility' }).where('id', '=', 'cus_heartland').execute();
});
afterAll(async () => {
  await t?.close();
});

describe('scope in SQL: repositories called without a prior parent check', () => {
  it('positions: only the asset subsidiary and its tenant-wide callers see them', async () => {
    for (const scope of [own, tenantWide]) {
      expect(await latestPosition(t.db, scope, 'drv_ana')).toMatchObject({ AssetId: 'drv_ana' });
      expect((await positionHistory(t.db, scope, 'drv_ana', page)).total).toBe(1);
      expect(await heldRecordedAt(t.db, scope, 'drv_ana', 'PublicApi')).toBe(RECORDED_AT);
    }
    for (const scope of [sibling, otherTenant]) {
      expect(await latestPosition(t.db, scope, 'drv_ana')).toBeUndefined();
      expect(await positionHistory(t.db, scope, 'drv_ana', page)).toEqual({ items: [], total: 0 });
      expect(await heldRecordedAt(t.db, scope, 'drv_ana', 'PublicApi')).toBeUndefined();
    }
  });

  it('telemetry: likewise', async () => {
    expect((await telemetryHistory(t.db, own, 'drv_ana', page)).total).toBe(1);
    expect((await telemetryHistory(t.db, sibling, 'drv_ana', page)).total).toBe(0);
    expect((await telemetryHistory(t.db, otherTenant, 'drv_ana', page)).total).toBe(0);
  });

  it("delivery attempts follow their subscription's subsidiary", async () => {
    expect((await findDeliveryLogs(t.db, { scope: own, webhookId: 'wh_kc_ops' }, page)).total).toBe(1);
    expect((await attemptStats(t.db, tenantWide, 'wh_kc_ops', RECORDED_AT, RECORDED_AT)).total).toBe(1);
    expect(await lastAttempt(t.db, own, 'wh_kc_ops')).toMatchObject({ id: 'att_scope_1' });
    for (const scope of [sibling, otherTenant]) {
      expect((await findDeliveryLogs(t.db, { scope, webhookId: 'wh_kc_ops' }, page)).total).toBe(0);
      expect((await attemptStats(t.db, scope, 'wh_kc_ops', RECORDED_AT, RECORDED_AT)).total).toBe(0);
      expect(await lastAttempt(t.db, scope, 'wh_kc_ops')).toBeUndefined();
    }
  });

  it('tenant-wide records: visible to every subsidiary of the tenant, never to another tenant', async () => {
    expect(await findVisibilityCustomer(t.db, sibling, 'cus_heartland')).toEqual({ id: 'cus_heartland' });
    expect(await findVisibilityCustomer(t.db, otherTenant, 'cus_heartland')).toBeUndefined();
    expect(await takenLoadNumbers(t.db, sibling, ['L-1001', 'L-NONE'])).toEqual(new Set(['L-1001']));
    expect(await takenLoadNumbers(t.db, otherTenant, ['L-1001'])).toEqual(new Set());
  });

  it('idempotency keys are one namespace per tenant, shared by its subsidiaries', async () => {
    const claim = { family: 'scope/test', key: 'K-1', fingerprint: { A: 1 }, recordId: 'rec_1', now: RECORDED_AT };
    expect(await claimKey(t.db, own, claim)).toBeNull();
    expect(await claimKey(t.db, sibling, { ...claim, recordId: 'rec_2' })).toEqual({ recordId: 'rec_1', fingerprint: { A: 1 } });
    expect(await claimKey(t.db, otherTenant, { ...claim, recordId: 'rec_3' })).toBeNull();
  });
});
