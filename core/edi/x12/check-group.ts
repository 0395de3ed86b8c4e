import { checkValue } from './check-element.js';
import { el, type ElementDef } from './definition.js';
import { FUNCTIONAL_IDS } from './sets/index.js';
import type { FunctionalGroup, X12Error } from './types.js';
import { x12Error } from './x12-error.js';

const GS_ELEMENTS: readonly ElementDef[] = [
  el('M', 'ID', 2, 2, 479),
  el('M', 'AN', 2, 15, 142),
  el('M', 'AN', 2, 15, 124),
  el('M', 'DT', 8, 8, 373),
  el('M', 'TM', 4, 8, 337),
  el('M', 'N0', 1, 9, 28),
  el('M', 'ID', 1, 2, 455, ['X']),
  el('M', 'AN', 1, 12, 480),
];

/**
 * A functional group's envelope (docs/edi.md#envelope-checks): GS elements, a group of the sets
 * we read or write, version 004010, GE present with the count of sets and GS06's control
 * number. Located by the GS's or GE's ordinal in the interchange (ISA = 1); codes are AK905's.
 */
export function checkGroup(group: FunctionalGroup): X12Error[] {
  const errors: X12Error[] = [];
  const gsAt = group.gs.index + 1;
  GS_ELEMENTS.forEach((def, i) => {
    const value = group.gs.elements[i] ?? '';
    const wrong = value === '' ? { message: 'is required' } : checkValue(value, def);
    if (!wrong) return;
    const name = `GS${String(i + 1).padStart(2, '0')}`;
    const code = i === 5 ? 'InvalidGroupControlNumber' : 'InvalidInterchangeContent';
    errors.push(x12Error(code, 'GS', gsAt, i + 1, `${name}: ${wrong.message}`));
  });
  if (group.functionalId !== '' && !FUNCTIONAL_IDS.has(group.functionalId)) {
    errors.push(x12Error('GroupNotSupported', 'GS', gsAt, 1, `functional group ${group.functionalId.slice(0, 10)} is not supported`));
  }
  if (group.version !== '' && group.version !== '004010') {
    errors.push(x12Error('GroupVersionNotSupported', 'GS', gsAt, 8, `GS08 is ${group.version.slice(0, 12)}: only 004010 is read`));
  }
  if (!group.ge) {
    errors.push(x12Error('GroupTrailerMissing', 'GE', gsAt, null, 'the functional group has no GE'));
    return errors;
  }
  const geAt = group.ge.index + 1;
  const count = group.ge.elements[0] ?? '';
  if (!/^\d{1,6}$/.test(count) || Number(count) !== group.sets.length) {
    errors.push(x12Error('SetCountMismatch', 'GE', geAt, 1, `GE01 says ${count.slice(0, 10) || 'nothing'}, the group has ${group.sets.length} sets`));
  }
  if ((group.ge.elements[1] ?? '') !== group.controlNumber) {
    errors.push(x12Error('GroupControlNumberMismatch', 'GE', geAt, 2, 'GE02 differs from GS06'));
  }
  return errors;
}
