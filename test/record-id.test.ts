import { describe, expect, it } from 'vitest';
import { newRecordId, timeOrderedUuid } from '../core/shared/record-id.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('record ids', () => {
  it('are UUIDv7: version 7, RFC variant, the millisecond first, so they sort by the time they were made', () => {
    const ids = [timeOrderedUuid(1_795_000_000_000), timeOrderedUuid(1_795_000_000_001), timeOrderedUuid(1_795_000_100_000)];
    for (const id of ids) expect(id).toMatch(V7);
    expect(ids[0]!.startsWith('01a1e')).toBe(true);
    expect([...ids].reverse().sort()).toEqual(ids);
  });

  it('are unique within a millisecond (74 random bits)', () => {
    expect(new Set(Array.from({ length: 10_000 }, () => timeOrderedUuid(1_795_000_000_000))).size).toBe(10_000);
  });

  it('carry their kind as a prefix and the current time', () => {
    const before = timeOrderedUuid(Date.now() - 1);
    const id = newRecordId('lod');
    expect(id).toMatch(/^lod_/);
    expect(id.slice(4)).toMatch(V7);
    expect(id.slice(4) > before).toBe(true);
  });
});
