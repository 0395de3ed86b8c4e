import { expect } from 'vitest';
import { FixtureError, loadFixture } from '../../seeding/load-fixture.js';
import { SECRET_KEY, type TestApp } from '../harness.js';

/** A tenant of the fixture format with one subsidiary (`<id>_sub`) and nothing else but `extra`. */
export function bareTenant(id: string, extra: Record<string, unknown>) {
  return {
    Id: id,
    Name: id,
    Plan: 'Standard',
    Subsidiaries: [{ Id: `${id}_sub`, Name: 'Main' }],
    Clients: [],
    Customers: [],
    Carriers: [],
    Drivers: [],
    Trucks: [],
    Trailers: [],
    ReferenceDefinitions: [],
    Loads: [],
    CarrierSettlementStatements: [],
    Deductions: [],
    ...extra,
  };
}

export function loadInto(t: TestApp, fixture: unknown) {
  return loadFixture(t.db, fixture, { clock: t.clock, secretKey: SECRET_KEY });
}

/** The problem lines of a fixture the loader must refuse. */
export async function problemsOf(t: TestApp, fixture: unknown): Promise<string[]> {
  const error = await loadInto(t, fixture).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FixtureError);
  return (error as FixtureError).problems;
}
