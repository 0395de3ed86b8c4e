import { z } from 'zod';
import { ZText } from './money-input.js';

/**
 * Request fields master-data writes share (customers, carriers, locations): contact lists and
 * postal addresses as sent, and how a merge patch of an address applies (RFC 7396 inside the
 * object: the four required members come together, Country left out keeps the current one).
 */

export const ZContactList = z.array(z.string().min(1).max(200)).max(20);

const addressShape = {
  Street: ZText(200),
  City: ZText(100),
  State: ZText(100),
  ZipCode: ZText(20),
};

/** An address as a create sends it: Street, City, State and ZipCode required; Country optional. */
export const ZPostalAddressInput = z.strictObject({ ...addressShape, Country: ZText(100).nullish() });
export type TPostalAddressInput = z.output<typeof ZPostalAddressInput>;

export const ZPostalAddressPatch = z
  .strictObject({ ...addressShape, Country: ZText(100).nullish().meta({ description: 'Left out: unchanged; null clears it.' }) })
  .meta({ description: 'Street, City, State and ZipCode are required; Country left out keeps the current one.' });

/** A postal address as master data reads it. */
interface PostalAddress {
  Street: string;
  City: string;
  State: string;
  ZipCode: string;
  Country: string | null;
}

/** The address after a patch of it (a create's address: `current` null). */
export function mergePostalAddress(current: PostalAddress | null, patch: TPostalAddressInput): PostalAddress {
  const { Street, City, State, ZipCode } = patch;
  return { Street, City, State, ZipCode, Country: patch.Country === undefined ? (current?.Country ?? null) : patch.Country };
}
