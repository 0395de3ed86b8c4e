import { checkValue } from './check-element.js';
import type { SegmentSpec, SyntaxRule } from './definition.js';
import type { Segment, X12Error } from './types.js';
import { x12Error } from './x12-error.js';

function present(segment: Segment, position: number): boolean {
  return (segment.elements[position - 1] ?? '') !== '';
}

function ruleError(rule: SyntaxRule, segment: Segment, position: number): X12Error | null {
  const [first = 1, ...rest] = rule.elements;
  const here = rule.elements.filter((e) => present(segment, e));
  const names = rule.elements.map((e) => `${segment.id}${String(e).padStart(2, '0')}`).join(', ');
  switch (rule.kind) {
    case 'P': {
      if (here.length === 0 || here.length === rule.elements.length) return null;
      const missing = rule.elements.find((e) => !present(segment, e)) ?? first;
      return x12Error('ConditionalElementMissing', segment.id, position, missing, `${names} go together: all or none`);
    }
    case 'R':
      return here.length > 0
        ? null
        : x12Error('ConditionalElementMissing', segment.id, position, first, `at least one of ${names} is required`);
    case 'C': {
      if (!present(segment, first)) return null;
      const missing = rest.find((e) => !present(segment, e));
      return missing === undefined
        ? null
        : x12Error('ConditionalElementMissing', segment.id, position, missing, `${names}: the first requires the others`);
    }
    case 'E':
      return here.length <= 1
        ? null
        : x12Error('ExclusionConditionViolated', segment.id, position, here[1] ?? first, `at most one of ${names}`);
  }
}

/**
 * The element errors of one segment against its spec: count, mandatory elements, lengths, types,
 * code values, then the segment's syntax rules. `position` is the segment's ordinal in its set.
 */
export function checkSegmentElements(segment: Segment, spec: SegmentSpec, position: number, component: string | null): X12Error[] {
  const errors: X12Error[] = [];
  const { elements } = segment;
  if (elements.length > spec.elements.length) {
    errors.push(
      x12Error('TooManyElements', segment.id, position, spec.elements.length + 1, `${segment.id} has more than ${spec.elements.length} elements`),
    );
  }
  spec.elements.forEach((def, i) => {
    const raw = elements[i] ?? '';
    const value = def.composite && component !== null ? (raw.split(component, 1)[0] ?? '') : raw;
    const name = `${segment.id}${String(i + 1).padStart(2, '0')}`;
    if (value === '') {
      if (def.req === 'M') errors.push(x12Error('MandatoryElementMissing', segment.id, position, i + 1, `${name} is required`));
      return;
    }
    const wrong = checkValue(value, def);
    if (wrong) errors.push(x12Error(wrong.code, segment.id, position, i + 1, `${name}: ${wrong.message}`));
  });
  for (const rule of spec.rules ?? []) {
    const error = ruleError(rule, segment, position);
    if (error) errors.push(error);
  }
  return errors;
}
