import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, spellTimeZone } from '../core/shared/time-zone.js';

describe('time zone names', () => {
  it('answers the canonical spelling of a known zone, the same when asked again', () => {
    expect(canonicalTimeZone('america/chicago')).toBe('America/Chicago');
    expect(canonicalTimeZone('America/Chicago')).toBe('America/Chicago');
    expect(canonicalTimeZone('america/chicago')).toBe('America/Chicago');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
  });

  it('answers null for a name Intl does not know, every time', () => {
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });

  it('spellTimeZone throws for an unknown name, as Intl does', () => {
    expect(spellTimeZone('europe/berlin')).toBe('Europe/Berlin');
    expect(() => spellTimeZone('Nowhere/Else')).toThrow(RangeError);
  });

  it('keeps answering past its bound: thousands of spellings of one zone', () => {
    const name = 'America/Chicago';
    for (let i = 0; i < 2_500; i++) {
      const variant = [...name].map((c, j) => ((i >> (j % 11)) & 1 ? c.toUpperCase() : c.toLowerCase())).join('');
      expect(canonicalTimeZone(variant)).toBe('America/Chicago');
    }
  });
});
