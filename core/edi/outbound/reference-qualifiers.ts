/**
 * The X12 reference qualifier a tender's reference was received with (docs/edi.md#outbound-210).
 * A 204's L11 becomes a reference named from its qualifier (`PO` PO Number, `BM` Bill of Lading,
 * `CR` Customer Reference, `SI` Shipper's Identifying Number, any other qualifier as itself), so
 * the Name gives the qualifier back exactly: the four names map to their codes and every other
 * name is the code as received. A name that cannot be a qualifier (a tender not created from a
 * 204 can carry any name) is sent as `ZZ` (mutually defined).
 */
const QUALIFIER_OF_NAME: ReadonlyMap<string, string> = new Map([
  ['PO Number', 'PO'],
  ['Bill of Lading', 'BM'],
  ['Customer Reference', 'CR'],
  ["Shipper's Identifying Number", 'SI'],
]);

/** Element 128 (Reference Identification Qualifier) is an identifier of 2 or 3 characters. */
const QUALIFIER = /^[A-Z0-9]{2,3}$/;

export function qualifierOf(name: string): string {
  return QUALIFIER_OF_NAME.get(name) ?? (QUALIFIER.test(name) ? name : 'ZZ');
}

export interface ReceivedReference {
  qualifier: string;
  value: string;
}

export function receivedReferences(references: readonly { Name: string; Value: string }[]): ReceivedReference[] {
  return references.map((reference) => ({ qualifier: qualifierOf(reference.Name), value: reference.Value }));
}
