/**
 * The moment the demo data (fixtures/demo.json) describes: its in-transit trucks are on the
 * road at this time, its delivered loads arrived before it, its planned ones pick up after it.
 * It is also the tests' clock (test/harness.ts), so the same data reads the same in both.
 * scripts/generate-demo.ts builds the fleet around it and bin/sandbox-activity.ts records the
 * trucks' positions of that moment.
 */
export const DEMO_NOW = '2026-11-22T12:00:00Z';
