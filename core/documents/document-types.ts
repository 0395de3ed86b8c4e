/**
 * The document types of docs/api-rules.md#documents, in the service's own casing. Input is matched
 * case-insensitively (nothing else is forgiven) and stored in this casing.
 */

/** Types an integrator may set on a load's (or a trip's) document. */
export const LOAD_DOCUMENT_TYPES = [
  'Customer Rate and Load Confirmation',
  'Customer Load Confirmation',
  'Customer Rate Confirmation',
  'Signed Customer Rate Confirmation',
  'Proof of Delivery',
  'Proof of Pickup',
  'Bill of Lading',
  'Shipping Labels',
] as const;

/** Protected: never set or changed through the API (422), though documents may carry them. */
export const INVOICE_FAMILY_TYPES = [
  'Invoice',
  'Customer Invoice',
  'Supplemental Invoice',
  'Summary Invoice',
  'Summary Excel',
  'Merged',
  'Merged Invoice',
  'Carrier Invoice',
] as const;

/** Carrier types (docs/api-rules.md#documents). */
export const CARRIER_DOCUMENT_TYPES = [
  'Carrier Agreement',
  'Carrier Application',
  'Carrier Authority',
  'Carrier Onboarding',
  'Other Documents',
] as const;

export const PROOF_OF_DELIVERY = 'Proof of Delivery';

export type DocumentTypeFamily = 'load' | 'invoice' | 'carrier';

export interface KnownDocumentType {
  /** The canonical spelling. */
  type: string;
  family: DocumentTypeFamily;
}

const byKey = new Map<string, KnownDocumentType>();
for (const [family, types] of [
  ['load', LOAD_DOCUMENT_TYPES],
  ['invoice', INVOICE_FAMILY_TYPES],
  ['carrier', CARRIER_DOCUMENT_TYPES],
] as const) {
  for (const type of types) byKey.set(keyOf(type), { type, family });
}

function keyOf(text: string): string {
  return text.toLowerCase();
}

/** The canonical type and its family, or undefined for a type the service does not know. */
export function recognizeDocumentType(text: string): KnownDocumentType | undefined {
  return byKey.get(keyOf(text));
}

export function isInvoiceFamily(type: string): boolean {
  return recognizeDocumentType(type)?.family === 'invoice';
}
