import { checkGroup } from './check-group.js';
import { checkTransactionSet } from './check-set.js';
import { parseInterchange } from './parse.js';
import type { Interchange, X12Error } from './types.js';

/** What we send: one group of one set, ISA13 = GS06 = ST02 (docs/edi.md#envelope-checks). */
function checkOurShape(interchange: Interchange): X12Error[] {
  const [group, ...moreGroups] = interchange.groups;
  const set = group?.sets[0];
  if (!group || !set || moreGroups.length > 0 || group.sets.length > 1) {
    return [{ segment: 'GS', position: 2, element: null, code: 'NotOneSet', message: 'an outbound interchange holds one group of one set' }];
  }
  const number = Number(interchange.controlNumber);
  if (Number(group.controlNumber) === number && Number(set.controlNumber) === number) return [];
  return [{ segment: 'ST', position: 1, element: 2, code: 'ControlNumbersDiffer', message: 'ISA13, GS06 and ST02 must be the same number' }];
}

/**
 * The rules an interchange we send must meet (docs/edi.md#envelope-checks): it parses, its ISA
 * fields, IEA, GS/GE and ST/SE counts and control numbers agree, each set meets its definition
 * (mandatory segments and elements, lengths, types, dates, times), and it is one group of one
 * set numbered alike. Empty when valid; one error `NotAnInterchange` when the text is not an
 * interchange at all.
 */
export function checkOutboundInterchange(text: string): X12Error[] {
  const parsed = parseInterchange(text);
  if (!parsed.ok) return [{ segment: 'ISA', position: 1, element: null, code: 'NotAnInterchange', message: parsed.message }];
  const { interchange } = parsed;
  const errors = [...parsed.envelopeErrors, ...checkOurShape(interchange)];
  for (const group of interchange.groups) {
    errors.push(...checkGroup(group));
    for (const set of group.sets) {
      errors.push(...checkTransactionSet(set, { functionalId: group.functionalId, component: interchange.separators.component }));
    }
  }
  return errors;
}
