import { expect } from 'vitest';
import { dialectOf } from '../../db/create-db.js';
import type { ApiResponse, TestApp } from '../harness.js';
import { snapshotDatabase } from './hostile-cases.js';

/**
 * Sends a request that must be refused with `status` and asserts that it wrote nothing: the
 * whole database reads the same before and after (docs/api-rules.md#order-of-checks).
 */
export async function expectRefusedWrite(t: TestApp, send: () => Promise<ApiResponse>, status: number): Promise<ApiResponse> {
  const kind = dialectOf(t.db);
  const before = await snapshotDatabase(t.db, kind);
  const response = await send();
  expect(response.status, response.text).toBe(status);
  expect(await snapshotDatabase(t.db, kind)).toEqual(before);
  return response;
}
