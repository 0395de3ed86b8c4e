import reverseGeocode from 'reverse-geocode';
import { describe, expect, it } from 'vitest';
import { formatAddress, resolveAddress } from '../core/visibility/reverse-geocode.js';

describe('offline reverse geocoding', () => {
  it('resolves US and Canadian points to city, state and postal code', () => {
    expect(resolveAddress(39.0997, -94.5786)).toEqual({ Street: null, City: 'Kansas City', State: 'MO', ZipCode: '64106', Country: 'US' });
    expect(resolveAddress(43.65, -79.38)).toMatchObject({ City: 'Toronto', State: 'ON', Country: 'CA' });
    expect(resolveAddress(64.8, -147.7)).toMatchObject({ City: 'Fairbanks', State: 'AK', Country: 'US' });
  });

  it('answers null far from every centroid', () => {
    expect(resolveAddress(10, 10)).toBeNull();
    expect(resolveAddress(30, -140)).toBeNull();
  });

  it("agrees with the package's full scan on US points", () => {
    for (let i = 0; i < 60; i++) {
      const latitude = 27 + ((i * 7919) % 2100) / 100;
      const longitude = -123 + ((i * 104729) % 5600) / 100;
      const ours = resolveAddress(latitude, longitude);
      if (!ours || ours.Country !== 'US') continue;
      expect(ours.ZipCode, `${latitude},${longitude}`).toBe(String(reverseGeocode.lookup(latitude, longitude, 'us').zipcode));
    }
  });

  it('formats the parts present', () => {
    expect(formatAddress({ Street: '1 Main St', City: 'Dallas', State: 'TX', ZipCode: '75201', Country: null })).toBe('1 Main St, Dallas, TX 75201');
    expect(formatAddress({ Street: null, City: null, State: null, ZipCode: null, Country: null })).toBeNull();
    expect(formatAddress(null)).toBeNull();
  });
});
