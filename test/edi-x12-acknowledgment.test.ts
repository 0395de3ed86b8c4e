import { describe, expect, it } from 'vitest';
import {
  acknowledgeable,
  buildAcknowledgment,
  checkGroup,
  checkTransactionSet,
  emitInterchange,
  readAcknowledgment,
  type FunctionalGroup,
  type OutboundEnvelope,
  type X12Error,
} from '../core/edi/x12/index.js';
import { allErrors, firstSet, OUR_ENVELOPE, parseOk, readSample } from './edi/x12-samples.js';

const ORIGINAL = readSample('204-original.x12');
const ACK_ENVELOPE: OutboundEnvelope = { ...OUR_ENVELOPE, functionalId: 'FA' };

/** The 997 body for an inbound text, its sets checked as the inbound path does. */
function acknowledge(text: string, extra: (set: number) => X12Error[] = () => []): string[][] {
  const { interchange } = parseOk(text);
  const group = interchange.groups[0]!;
  const results = group.sets.map((set, i) => ({ set, errors: [...checkTransactionSet(set, { functionalId: group.functionalId }), ...extra(i)] }));
  return buildAcknowledgment(group, results, checkGroup(group));
}

/** Two 204s in one group, the second a copy of the first numbered 0002. */
function twoSets(second: (set: string) => string = (s) => s): string {
  const lines = ORIGINAL.split('\n');
  const set = lines.slice(2, 30).join('\n').replaceAll('*0001~', '*0002~');
  return [...lines.slice(0, 30), second(set), ...lines.slice(30)].join('\n').replace('GE*1*101', 'GE*2*101');
}

describe('buildAcknowledgment (docs/edi.md#acknowledgments)', () => {
  it('accepts a clean set: AK1, AK2, AK5 A, AK9 A with the counts', () => {
    expect(acknowledge(ORIGINAL)).toEqual([
      ['AK1', 'SM', '101'],
      ['AK2', '204', '0001'],
      ['AK5', 'A'],
      ['AK9', 'A', '1', '1', '1'],
    ]);
  });

  it('rejects a set with element errors: AK3 with code 8, an AK4 per element with the reference number and the bad data', () => {
    const text = ORIGINAL.replace('G62*64*20261128*1*1200*UT~', 'G62*64*20261131*1*2460*UT~').replace('S5*1*LD*', 'S5*1*XX*');
    expect(acknowledge(text)).toEqual([
      ['AK1', 'SM', '101'],
      ['AK2', '204', '0001'],
      ['AK3', 'G62', '6', '', '8'],
      ['AK4', '2', '373', '8', '20261131'],
      ['AK4', '4', '337', '9', '2460'],
      ['AK3', 'S5', '13', '0300', '8'],
      ['AK4', '2', '163', '7', 'XX'],
      ['AK5', 'R', '5'],
      ['AK9', 'R', '1', '1', '0'],
    ]);
  });

  it('gives a missing element no bad data, and a too long one at most 99 characters', () => {
    const text = ORIGINAL.replace('B2**WBLC**SHP-20261127-A**PP~', 'B2**WBLC**SHP-20261127-A~').replace('Keep dry. Call 30 minutes ahead.', 'k'.repeat(150));
    const body = acknowledge(text);
    expect(body.slice(2, 6)).toEqual([
      ['AK3', 'B2', '2', '', '8'],
      ['AK4', '6', '146', '1', ''],
      ['AK3', 'NTE', '8', '', '8'],
      ['AK4', '2', '352', '5', 'k'.repeat(99)],
    ]);
  });

  it('reports segment errors in AK304 and set errors in AK502', () => {
    const text = ORIGINAL.replace('NTE*GEN*Keep dry. Call 30 minutes ahead.~', 'PO1*1~').replace('SE*28*0001', 'SE*29*0002');
    expect(acknowledge(text).slice(1, -1)).toEqual([
      ['AK2', '204', '0001'],
      ['AK3', 'PO1', '8', '', '6'],
      ['AK5', 'R', '4', '3', '5'],
    ]);
    const missing = ORIGINAL.replace('B2A*00*LT~\n', '').replace('SE*28', 'SE*27');
    expect(acknowledge(missing).slice(2, -1)).toEqual([['AK3', 'B2A', '3', '', '3'], ['AK5', 'R', '5']]);
  });

  it('rejects a set without SE with AK502 2', () => {
    const text = ORIGINAL.replace('SE*28*0001~\n', '');
    expect(acknowledge(text).slice(1)).toEqual([['AK2', '204', '0001'], ['AK5', 'R', '2'], ['AK9', 'R', '1', '1', '0']]);
  });

  it('partially accepts a group when some sets are rejected (AK9 P)', () => {
    const text = twoSets((set) => set.replace('B2A*00*LT~', 'B2A*99*LT~'));
    expect(allErrors(text).map((e) => e.code)).toEqual(['InvalidCodeValue']);
    expect(acknowledge(text)).toEqual([
      ['AK1', 'SM', '101'],
      ['AK2', '204', '0001'],
      ['AK5', 'A'],
      ['AK2', '204', '0002'],
      ['AK3', 'B2A', '3', '', '8'],
      ['AK4', '1', '353', '7', '99'],
      ['AK5', 'R', '5'],
      ['AK9', 'P', '2', '2', '1'],
    ]);
    expect(acknowledge(twoSets()).at(-1)).toEqual(['AK9', 'A', '2', '2', '2']);
  });

  it('rejects the group with its AK905 codes when the group is in error', () => {
    const text = ORIGINAL.replace('GE*1*101~', 'GE*3*102~');
    expect(acknowledge(text).at(-1)).toEqual(['AK9', 'R', '3', '1', '1', '5', '4']);
  });

  it('reports another layer\'s error (a mapping\'s) as an AK3 without a syntax code, or an AK4 when it brings one', () => {
    const stopError: X12Error = { segment: 'S5', position: 13, element: null, code: 'UnknownStop', message: 'the stop names nothing' };
    expect(acknowledge(ORIGINAL, () => [stopError]).slice(2, -1)).toEqual([['AK3', 'S5', '13', '', ''], ['AK5', 'R', '5']]);
    const coded: X12Error = { segment: 'B2A', position: 3, element: 1, code: 'TenderNotPending', message: 'not pending', x12Code: '7' };
    expect(acknowledge(ORIGINAL, () => [coded]).slice(2, -1)).toEqual([
      ['AK3', 'B2A', '3', '', '8'],
      ['AK4', '1', '353', '7', '00'],
      ['AK5', 'R', '5'],
    ]);
  });

  it('rejects the sets of a group in error without naming a segment of theirs', () => {
    const text = ORIGINAL.replace('GE*1*101~', 'GE*2*101~').replace('IEA*1*000000101', 'IEA*1*000000999');
    const { interchange, envelopeErrors } = parseOk(text);
    const group = interchange.groups[0]!;
    const outer = [...envelopeErrors, ...checkGroup(group)];
    expect(outer.map((e) => e.code)).toEqual(['InterchangeControlNumberMismatch', 'SetCountMismatch']);
    const body = buildAcknowledgment(group, [{ set: group.sets[0]!, errors: outer }], outer);
    expect(body).toEqual([
      ['AK1', 'SM', '101'],
      ['AK2', '204', '0001'],
      ['AK5', 'R'],
      ['AK9', 'R', '2', '1', '0', '5'],
    ]);
  });

  it('counts a set it cannot name in AK2 (ST02 too short) in AK9 only', () => {
    const text = twoSets((set) => set.replaceAll('*0002~', '*02~'));
    expect(acknowledge(text)).toEqual([
      ['AK1', 'SM', '101'],
      ['AK2', '204', '0001'],
      ['AK5', 'A'],
      ['AK9', 'P', '2', '2', '1'],
    ]);
  });

  it('tells a group AK1 can name from one it cannot (GS01 of 2 characters, GS06 of 1 to 9 digits)', () => {
    const group = (text: string) => parseOk(text).interchange.groups[0]!;
    expect(acknowledgeable(group(ORIGINAL))).toBe(true);
    expect(acknowledgeable(group(ORIGINAL.replace('GS*SM*', 'GS*SMX*')))).toBe(false);
    expect(acknowledgeable(group(ORIGINAL.replace('*1330*101*X*', '*1330*1O1*X*')))).toBe(false);
    expect(acknowledgeable(group(ORIGINAL.replace('*1330*101*X*', '*1330*1234567890*X*')))).toBe(false);
  });

  it('makes a 997 that meets the 997 definition, and emits it', () => {
    const text = ORIGINAL.replace('G62*64*20261128*1*1200*UT~', 'G62*64*20261131*1*2460*UT~');
    const body = acknowledge(text);
    expect(allErrors(emitInterchange(ACK_ENVELOPE, { id: '997', body }))).toEqual([]);
  });
});

describe('readAcknowledgment', () => {
  it('reads an accepting 997', () => {
    expect(readAcknowledgment(firstSet(readSample('997-accept.x12')))).toEqual([
      { groupControlNumber: '101', functionalId: 'SM', status: 'Accepted', errors: [], sets: [{ setId: '204', controlNumber: '0001', status: 'Accepted', errors: [] }] },
    ]);
  });

  it('reads a rejecting 997 with its segment, element and set errors', () => {
    const [group] = readAcknowledgment(firstSet(readSample('997-reject.x12')));
    expect(group).toMatchObject({ groupControlNumber: '11', functionalId: 'GF', status: 'Rejected', errors: [] });
    expect(group!.sets).toEqual([
      {
        setId: '990',
        controlNumber: '0011',
        status: 'Rejected',
        errors: [
          { segment: 'B1', position: 2, element: 3, code: 'InvalidDate', x12Code: '8', message: 'B103 is in error: "20261131"' },
          { segment: 'N9', position: 3, element: 1, code: 'MandatoryElementMissing', x12Code: '1', message: 'N901 is in error' },
          { segment: 'ST', position: 1, element: null, code: 'SegmentsInError', x12Code: '5', message: 'the set is rejected (AK5 code 5)' },
        ],
      },
    ]);
  });

  it('reads segment codes, loop ids, codes it does not know, AK9 P and AK905 codes', () => {
    const text = readSample('997-reject.x12')
      .replace('AK3*N9*3**8~\nAK4*1*128*1~', 'AK3*N9*3*0100*7~\nAK3*K1*4**8~\nAK4*1>2*61*42~')
      .replace('AK9*R*1*1*0~', 'AK9*P*2*2*1*5~')
      .replace('SE*10*0577', 'SE*11*0577');
    const [group] = readAcknowledgment(firstSet(text));
    expect(group).toMatchObject({ status: 'Partial', errors: [{ segment: 'GS', code: 'SetCountMismatch', x12Code: '5' }] });
    expect(group!.sets[0]!.errors.slice(1, 3)).toEqual([
      { segment: 'N9', position: 3, element: null, code: 'SegmentOutOfSequence', x12Code: '7', loopId: '0100', message: 'N9 at position 3 is in error' },
      { segment: 'K1', position: 4, element: 1, code: 'X12ElementError', x12Code: '42', message: 'K101 is in error' },
    ]);
  });

  it('reads what it builds: build, emit, parse, read', () => {
    const text = twoSets((set) => set.replace('B2A*00*LT~', 'B2A*99*LT~'));
    const { interchange } = parseOk(text);
    const group: FunctionalGroup = interchange.groups[0]!;
    const results = group.sets.map((set) => ({ set, errors: checkTransactionSet(set) }));
    const emitted = emitInterchange(ACK_ENVELOPE, { id: '997', body: buildAcknowledgment(group, results, []) });
    expect(readAcknowledgment(firstSet(emitted))).toEqual([
      {
        groupControlNumber: '101',
        functionalId: 'SM',
        status: 'Partial',
        errors: [],
        sets: [
          { setId: '204', controlNumber: '0001', status: 'Accepted', errors: [] },
          {
            setId: '204',
            controlNumber: '0002',
            status: 'Rejected',
            errors: [
              { segment: 'B2A', position: 3, element: 1, code: 'InvalidCodeValue', x12Code: '7', message: 'B2A01 is in error: "99"' },
              { segment: 'ST', position: 1, element: null, code: 'SegmentsInError', x12Code: '5', message: 'the set is rejected (AK5 code 5)' },
            ],
          },
        ],
      },
    ]);
  });
});
