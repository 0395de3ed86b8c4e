import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  acknowledgeable,
  buildAcknowledgment,
  checkGroup,
  checkOutboundInterchange,
  checkTransactionSet,
  emitInterchange,
  interchangeJson,
  parseInterchange,
  readAcknowledgment,
} from '../core/edi/x12/index.js';
import { OUR_ENVELOPE, readSample, SAMPLES } from './edi/x12-samples.js';

/** Characters an edit inserts: separators of every sample, line breaks, a NUL, letters, digits. */
const EDIT_CHARACTERS = fc.constantFrom('*', '~', '>', '|', '^', ':', '\n', '\r', '\u0000', 'A', 'Z', '0', '9', ' ', '');

/** A sample with a few characters replaced, inserted or removed, or cut short. */
const damagedSample = fc
  .record({
    name: fc.constantFrom(...SAMPLES),
    edits: fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 3 }), insert: fc.array(EDIT_CHARACTERS, { maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 6,
    }),
    cut: fc.option(fc.nat()),
  })
  .map(({ name, edits, cut }) => {
    let text = readSample(name);
    for (const edit of edits) {
      const at = edit.at % (text.length + 1);
      text = text.slice(0, at) + edit.insert.join('') + text.slice(at + edit.remove);
    }
    return cut === null ? text : text.slice(0, cut % (text.length + 1));
  });

describe('hostile interchanges: every damaged sample is refused or answered, never thrown', () => {
  it('parses, checks, acknowledges and shows any damaged sample; the 997 it makes meets the 997 rules', () => {
    fc.assert(
      fc.property(damagedSample, (text) => {
        const parsed = parseInterchange(text);
        if (!parsed.ok) {
          expect(parsed.message.length).toBeGreaterThan(0);
          return;
        }
        const { interchange, envelopeErrors } = parsed;
        JSON.stringify(interchangeJson(interchange));
        for (const group of interchange.groups) {
          const groupErrors = [...envelopeErrors, ...checkGroup(group)];
          const results = group.sets.map((set) => ({
            set,
            errors: [...groupErrors, ...checkTransactionSet(set, { functionalId: group.functionalId, component: interchange.separators.component })],
          }));
          for (const { set } of results) if (set.id === '997') readAcknowledgment(set);
          if (!acknowledgeable(group)) continue;
          const body = buildAcknowledgment(group, results, groupErrors);
          const ack = emitInterchange({ ...OUR_ENVELOPE, functionalId: 'FA' }, { id: '997', body });
          expect(checkOutboundInterchange(ack)).toEqual([]);
        }
      }),
      { numRuns: 400, seed: 29 },
    );
  });
});
