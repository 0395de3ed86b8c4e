import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateAccessorial } from '../core/accessorials/accessorial.repository.js';
import { updateCredit } from '../core/credits/driver-credit.repository.js';
import { softDeleteDeduction } from '../core/deductions/deduction.repository.js';
import {
  findTypeChanges,
  findVisibilityCustomer,
  lockDocument,
  updateDocumentType,
  type DocumentRow,
} from '../core/documents/document.repository.js';
import { claimKey } from '../core/idempotency/idempotency.repository.js';
import { takenLoadNumbers } from '../core/loads/load.repository.js';
import { generatedDeduction, updateMaintenance } from '../core/maintenance/maintenance.repository.js';
import { driverStatementStatus } from '../core/settlements/driver-statement.repository.js';
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
      expect(await positionHistory(t.db, scope, 'drv_ana', page)).toEqual({ items: [], total: 0, nextCursor: null });
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

// Writes and reads by id that used to trust the caller to have read the row in scope first.
// Each is tried with a sibling subsidiary's and another tenant's scope (nothing is read or
// changed, checked in the database), then with the record's own scope (it is), so each
// assertion would fail if the scope filter were missing or wrong.
describe('scope in SQL: writes and reads by id', () => {
  const outside = [sibling, otherTenant];
  const NOW = '2026-11-22T12:00:00.000Z';
  const post = (path: string, body: unknown) => t.api(`/api/p/v1.0${path}`, { method: 'POST', as: 'tn_prairie-all', body });
  const created = async (path: string, body: unknown): Promise<string> => {
    const response = await post(path, body);
    expect(response.status, response.text).toBe(201);
    return response.body.Id;
  };

  it("driver credits: updateCredit changes only a credit of the caller's scope", async () => {
    const id = await created('/credits/driver', { Date: '2026-11-21T10:00:00Z', Amount: 150, Category: 'Bonus', Description: 'Kept', DriverId: 'drv_ana' });
    const credit = () => t.db.selectFrom('deductions').select(['description', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
    for (const scope of outside) {
      expect(await updateCredit(t.db, scope, { id, version: 1 }, { description: 'Changed' })).toBe(false);
    }
    expect(await credit()).toEqual({ description: 'Kept', version: 1 });
    expect(await updateCredit(t.db, own, { id, version: 1 }, { description: 'Changed' })).toBe(true);
    expect(await credit()).toEqual({ description: 'Changed', version: 2 });
  });

  it("driver statement status: a tenant-wide guard, never another tenant's statement", async () => {
    // 80001 is drv_ana's Processed statement in sub_kc.
    expect(await driverStatementStatus(t.db, own, 80001)).toBe('Processed');
    // Deliberately tenant-wide (a statement may carry another subsidiary than its driver's):
    // the sibling's answer is the same, so the guard can never be skipped by a subsidiary mismatch.
    expect(await driverStatementStatus(t.db, sibling, 80001)).toBe('Processed');
    expect(await driverStatementStatus(t.db, otherTenant, 80001)).toBeUndefined();
  });

  it("deductions: softDeleteDeduction deletes only a deduction of the caller's scope", async () => {
    // ded_fuel_adv: drv_ana's (sub_kc), unpaid.
    const deletedAt = () => t.db.selectFrom('deductions').select('deleted_at').where('id', '=', 'ded_fuel_adv').executeTakeFirstOrThrow();
    for (const scope of outside) expect(await softDeleteDeduction(t.db, scope, 'ded_fuel_adv', NOW)).toBe(false);
    expect(await deletedAt()).toEqual({ deleted_at: null });
    expect(await softDeleteDeduction(t.db, own, 'ded_fuel_adv', NOW)).toBe(true);
    expect(await deletedAt()).toEqual({ deleted_at: NOW });
  });

  it("accessorials: updateAccessorial changes only a record of the caller's scope", async () => {
    const id = await created('/accessorials/driver', {
      DriverId: 'drv_ana',
      AccessorialTypeId: 'acc_detention',
      Quantity: 3,
      Rate: 50,
      Date: '2026-11-20T10:00:00Z',
      Description: 'Kept',
    });
    const row = { id, version: 1, carrier_statement_number: null };
    const stored = () => t.db.selectFrom('accessorials').select(['description', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
    for (const scope of outside) expect(await updateAccessorial(t.db, scope, row, { description: 'Changed' })).toBe(false);
    expect(await stored()).toEqual({ description: 'Kept', version: 1 });
    expect(await updateAccessorial(t.db, own, row, { description: 'Changed' })).toBe(true);
    expect(await stored()).toEqual({ description: 'Changed', version: 2 });
  });

  it("maintenance: updateMaintenance and generatedDeduction follow the record's subsidiary", async () => {
    // trk_101 is sub_kc's; the chargeback charges drv_ben of sub_dal, so the generated deduction's
    // own subsidiary is sub_dal: the record's scope, not the deduction's, decides who sees it.
    const id = await created('/maintenance', {
      TruckId: 'trk_101',
      ServiceDate: '2026-11-18T09:00:00Z',
      Category: 'Tires',
      Description: 'Kept',
      Cost: 100,
      Chargeback: { Amount: 40, DriverId: 'drv_ben' },
    });
    const deduction = await t.db.selectFrom('deductions').select(['id', 'subsidiary_id']).where('maintenance_id', '=', id).executeTakeFirstOrThrow();
    expect(deduction.subsidiary_id).toBe('sub_dal');
    for (const scope of outside) expect(await generatedDeduction(t.db, scope, id)).toBeUndefined();
    for (const scope of [own, tenantWide]) expect(await generatedDeduction(t.db, scope, id)).toMatchObject({ id: deduction.id });

    const stored = () => t.db.selectFrom('maintenance_records').select(['description', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
    for (const scope of outside) expect(await updateMaintenance(t.db, scope, { id, version: 1 }, { description: 'Changed' })).toBe(false);
    expect(await stored()).toEqual({ description: 'Kept', version: 1 });
    expect(await updateMaintenance(t.db, own, { id, version: 1 }, { description: 'Changed' })).toBe(true);
    expect(await stored()).toEqual({ description: 'Changed', version: 2 });
  });

  it("documents: lock, type change and history only for a document of the caller's scope", async () => {
    // doc_1001_bol: L-1001's Bill of Lading, sub_kc.
    const row = (await t.db.selectFrom('documents').selectAll().where('id', '=', 'doc_1001_bol').executeTakeFirstOrThrow()) as DocumentRow;
    const change = { to: 'Proof of Delivery', at: NOW, by: 'scope-test' };
    const history = () => t.db.selectFrom('document_type_changes').select('to_type').where('document_id', '=', row.id).execute();
    const stored = () => t.db.selectFrom('documents').select('attachment_type').where('id', '=', row.id).executeTakeFirstOrThrow();
    for (const scope of outside) {
      expect(await t.db.transaction().execute((trx) => lockDocument(trx, scope, row.id))).toBe(false);
      expect(await t.db.transaction().execute((trx) => updateDocumentType(trx, scope, row, change))).toBeUndefined();
    }
    expect(await stored()).toEqual({ attachment_type: 'Bill of Lading' });
    expect(await history()).toEqual([]);

    expect(await t.db.transaction().execute((trx) => lockDocument(trx, own, row.id))).toBe(true);
    expect(await t.db.transaction().execute((trx) => updateDocumentType(trx, own, row, change))).toMatchObject({ attachment_type: 'Proof of Delivery' });
    expect(await stored()).toEqual({ attachment_type: 'Proof of Delivery' });
    expect(await history()).toEqual([{ to_type: 'Proof of Delivery' }]);

    for (const scope of [own, tenantWide]) {
      expect(await findTypeChanges(t.db, scope, row.id, page)).toMatchObject({ items: [{ From: 'Bill of Lading', To: 'Proof of Delivery' }], total: 1 });
    }
    for (const scope of outside) expect(await findTypeChanges(t.db, scope, row.id, page)).toMatchObject({ items: [], total: 0 });
  });
});

describe('positions attach only to trips of the caller\'s scope', () => {
  const dallas = { Latitude: '32.9', Longitude: '-96.9' };
  const locate = (as: string, body: Record<string, unknown>) => t.api('/api/p/v1.0/assets/trk_101/locations', { method: 'POST', as, body });
  const version = async (tripId: string) =>
    (await t.db.selectFrom('trips').select('version').where('id', '=', tripId).executeTakeFirstOrThrow()).version;

  it("a subsidiary-bound client's position never names or refreshes another subsidiary's trip of the same truck", async () => {
    // trk_101 (sub_kc) is on its own InTransit trp_1001_a (sub_kc, heading north) and now also on
    // sub_dal's trp_2001_a, InTransit too, whose next stop is in Dallas, next to the position.
    await t.db.updateTable('trips').set({ truck_id: 'trk_101', status: 'InTransit' }).where('id', '=', 'trp_2001_a').execute();
    const dallasVersion = await version('trp_2001_a');

    const bound = await locate('sub_kc-all', { Coordinates: dallas, RecordedAt: '2026-11-22T11:30:00Z' });
    expect(bound.status, bound.text).toBe(201);
    expect(bound.body).toMatchObject({ TripId: 'trp_1001_a', TripNumber: 'T-1001-1' });
    expect(bound.text).not.toContain('trp_2001_a');
    expect(bound.text).not.toContain('T-2001-1');

    // Naming the other subsidiary's trip is the same 404 as naming no trip at all.
    const named = await locate('sub_kc-all', { Coordinates: dallas, RecordedAt: '2026-11-22T11:31:00Z', TripId: 'trp_2001_a' });
    const missing = await locate('sub_kc-all', { Coordinates: dallas, RecordedAt: '2026-11-22T11:31:00Z', TripId: 'trp_nowhere' });
    expect(named.status).toBe(404);
    expect(named.body).toEqual(missing.body);

    const attached = await t.db.selectFrom('asset_positions').select('id').where('trip_id', '=', 'trp_2001_a').execute();
    expect(attached).toEqual([]);
    expect(await version('trp_2001_a')).toBe(dallasVersion);

    // A tenant-wide client sees both trips, and the nearer one is sub_dal's: the candidate was real.
    const tenantWideResponse = await locate('tn_prairie-all', { Coordinates: dallas, RecordedAt: '2026-11-22T11:32:00Z' });
    expect(tenantWideResponse.status, tenantWideResponse.text).toBe(201);
    expect(tenantWideResponse.body.TripId).toBe('trp_2001_a');
  });
});
