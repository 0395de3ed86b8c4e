import { checkGroup } from './check-group.js';
import { checkTransactionSet } from './check-set.js';
import { parseInterchange } from './parse.js';
import type { X12Error } from './types.js';

/**
 * The rules an interchange we send must meet (docs/edi.md#envelope-checks): it parses, its ISA
 * fields, IEA, GS/GE and ST/SE counts and control numbers agree, and each set meets its
 * definition (mandatory segments and elements, lengths, types, dates, times). Empty when valid;
 * one error `NotAnInterchange` when the text is not an interchange at all.
 */
export function checkOutboundInterchange(text: string): X12Error[] {
  const parsed = parseInterchange(text);
  if (!parsed.ok) return [{ segment: 'ISA', position: 1, element: null, code: 'NotAnInterchange', message: parsed.message }];
  const { interchange } = parsed;
  const errors = [...parsed.envelopeErrors];
  for (const group of interchange.groups) {
    errors.push(...checkGroup(group));
    for (const set of group.sets) {
      errors.push(...checkTransactionSet(set, { functionalId: group.functionalId, component: interchange.separators.component }));
    }
  }
  return errors;
}
