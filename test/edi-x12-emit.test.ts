import { describe, expect, it } from 'vitest';
import {
  checkOutboundInterchange,
  emitInterchange,
  formatX12Date,
  formatX12Time,
  interchangeJson,
  parseInterchange,
  type Segment,
} from '../core/edi/x12/index.js';
import { located, OUR_ENVELOPE, parseOk, readSample, SAMPLES } from './edi/x12-samples.js';

const ENVELOPE = OUR_ENVELOPE;
const AT = OUR_ENVELOPE.at;
const ACCEPT_990 = [
  ['B1', 'WBLC', 'SHP-1', '20260305', 'A'],
  ['N9', 'CN', 'L-100'],
];

describe('formatX12Date and formatX12Time (UTC)', () => {
  it('writes CCYYMMDD and HHMM in UTC', () => {
    expect(formatX12Date(AT)).toBe('20260305');
    expect(formatX12Time(AT)).toBe('0704');
    const lateEvening = new Date('2026-12-31T23:59:59-05:00');
    expect(formatX12Date(lateEvening)).toBe('20270101');
    expect(formatX12Time(lateEvening)).toBe('0459');
  });
});

describe('emitInterchange (docs/edi.md#envelope-checks)', () => {
  const text = emitInterchange(ENVELOPE, { id: '990', body: ACCEPT_990 });

  it('writes the ISA in its fixed widths: 106 characters, ids padded to 15', () => {
    const isa = text.split('\n')[0]!;
    expect(isa).toBe('ISA*00*          *00*          *ZZ*WAYBILLCARR    *02*ACMEFOODS      *260305*0704*U*00401*000000042*0*P*>~');
    expect(isa).toHaveLength(106);
  });

  it('writes GS, ST, SE, GE and IEA with the one control number and the counts', () => {
    expect(text.split('\n').slice(1)).toEqual([
      'GS*GF*WAYBILLCARR*ACMEFOODS*20260305*0704*42*X*004010~',
      'ST*990*0042~',
      'B1*WBLC*SHP-1*20260305*A~',
      'N9*CN*L-100~',
      'SE*4*0042~',
      'GE*1*42~',
      'IEA*1*000000042~',
      '',
    ]);
    expect(checkOutboundInterchange(text)).toEqual([]);
  });

  it('writes ST02 with the control number in up to 9 digits', () => {
    const big = emitInterchange({ ...ENVELOPE, controlNumber: 999_999_999 }, { id: '990', body: ACCEPT_990 });
    expect(big).toContain('ST*990*999999999~');
    expect(big).toContain('*999999999*0*P*>~');
    expect(checkOutboundInterchange(big)).toEqual([]);
  });

  it('trims trailing empty elements and keeps inner ones', () => {
    const out = emitInterchange(ENVELOPE, { id: '990', body: [['B1', 'WBLC', 'SHP-1', '20260305', 'D'], ['K1', 'No trucks', '', '']] });
    expect(out).toContain('\nK1*No trucks~\n');
    const mid = emitInterchange(ENVELOPE, { id: '214', body: [['AT7', 'X3', 'NS', '', '', '20260305', '0704', 'UT', '']] });
    expect(mid).toContain('\nAT7*X3*NS***20260305*0704*UT~\n');
  });

  it('turns separators and control characters in data into spaces', () => {
    const out = emitInterchange(ENVELOPE, { id: '990', body: [['B1', 'WBLC', 'SHP-1', '20260305', 'D'], ['K1', 'a*b~c>d\ne\u0000f']] });
    expect(out).toContain('\nK1*a b c d e f~\n');
    expect(checkOutboundInterchange(out)).toEqual([]);
  });

  it('refuses control numbers out of range and ids too long (a defect, thrown)', () => {
    expect(() => emitInterchange({ ...ENVELOPE, controlNumber: 0 }, { id: '990', body: ACCEPT_990 })).toThrow(/control number/);
    expect(() => emitInterchange({ ...ENVELOPE, controlNumber: 1e9 }, { id: '990', body: ACCEPT_990 })).toThrow(/control number/);
    expect(() => emitInterchange({ ...ENVELOPE, controlNumber: 1.5 }, { id: '990', body: ACCEPT_990 })).toThrow(/control number/);
    expect(() => emitInterchange({ ...ENVELOPE, sender: { qualifier: 'ZZ', id: 'X'.repeat(16) } }, { id: '990', body: ACCEPT_990 })).toThrow(/ISA06/);
    expect(() => emitInterchange({ ...ENVELOPE, receiver: { qualifier: 'ZZZ', id: 'A' } }, { id: '990', body: ACCEPT_990 })).toThrow(/ISA07/);
  });
});

describe('checkOutboundInterchange', () => {
  const good = emitInterchange(ENVELOPE, { id: '990', body: ACCEPT_990 });

  it('finds what a set misses: a mandatory element, a bad date, a length', () => {
    const out = emitInterchange(ENVELOPE, { id: '990', body: [['B1', 'WBLC', '', '20260230', 'A'], ['N9', 'CN', 'L'.repeat(31)]] });
    expect(located(checkOutboundInterchange(out))).toEqual(['MandatoryElementMissing B1@2.2', 'InvalidDate B1@2.3', 'ElementTooLong N9@3.2']);
  });

  it('finds counts and control numbers that disagree', () => {
    expect(located(checkOutboundInterchange(good.replace('SE*4*0042', 'SE*5*0042')))).toEqual(['SegmentCountMismatch SE@4.1']);
    expect(located(checkOutboundInterchange(good.replace('GE*1*42', 'GE*1*43')))).toEqual(['GroupControlNumberMismatch GE@7.2']);
    expect(located(checkOutboundInterchange(good.replace('IEA*1*000000042', 'IEA*1*000000043')))).toEqual([
      'InterchangeControlNumberMismatch IEA@8.2',
    ]);
    const renumbered = good.replace('ST*990*0042', 'ST*990*0043').replace('SE*4*0042', 'SE*4*0043');
    expect(located(checkOutboundInterchange(renumbered))).toEqual(['ControlNumbersDiffer ST@1.2']);
  });

  it('finds a second set, a set of another group, and text that is no interchange', () => {
    const two = good.replace('GE*1*42~', 'ST*990*0042~\nB1*WBLC*SHP-1*20260305*A~\nSE*3*0042~\nGE*2*42~');
    expect(located(checkOutboundInterchange(two))).toEqual(['NotOneSet GS@2']);
    const wrongGroup = emitInterchange({ ...ENVELOPE, functionalId: 'QM' }, { id: '990', body: ACCEPT_990 });
    expect(located(checkOutboundInterchange(wrongGroup))).toEqual(['SetNotSupported ST@1.1']);
    expect(located(checkOutboundInterchange('nothing'))).toEqual(['NotAnInterchange ISA@1']);
  });
});

/** A sample's set body: the segments between ST and SE as arrays. */
function bodyOf(segments: readonly Segment[]): string[][] {
  return segments.slice(1, -1).map((s) => [s.id, ...s.elements]);
}

describe('round trip of every sample: parse, emit in a new envelope, parse again, same segments', () => {
  for (const name of SAMPLES) {
    it(name, () => {
      const { interchange } = parseOk(readSample(name));
      const group = interchange.groups[0]!;
      const set = group.sets[0]!;
      const emitted = emitInterchange({ ...ENVELOPE, functionalId: group.functionalId, controlNumber: 7 }, { id: set.id, body: bodyOf(set.segments) });
      expect(checkOutboundInterchange(emitted)).toEqual([]);
      const again = parseOk(emitted).interchange.groups[0]!.sets[0]!;
      expect(bodyOf(again.segments)).toEqual(bodyOf(set.segments).map(trimTrailingEmpty));
      expect(again).toMatchObject({ id: set.id, controlNumber: '0007' });
    });
  }
});

function trimTrailingEmpty(segment: string[]): string[] {
  let end = segment.length;
  while (end > 1 && segment[end - 1] === '') end--;
  return segment.slice(0, end);
}

describe('interchangeJson', () => {
  it('gives the envelope and the segments as plain JSON', () => {
    const { interchange } = parseOk(readSample('990-accept.x12'));
    const json = interchangeJson(interchange);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(json).toEqual({
      Sender: { Qualifier: 'ZZ', Id: 'WAYBILLCARR' },
      Receiver: { Qualifier: 'ZZ', Id: 'ACMEFOODS' },
      ControlNumber: '000000011',
      Usage: 'T',
      Separators: { Element: '*', Component: '>', Segment: '~' },
      Isa: ['ISA', '00', '          ', '00', '          ', 'ZZ', 'WAYBILLCARR    ', 'ZZ', 'ACMEFOODS      ', '261127', '1420', 'U', '00401', '000000011', '0', 'T', '>'],
      Groups: [
        {
          FunctionalId: 'GF',
          SenderId: 'WAYBILLCARR',
          ReceiverId: 'ACMEFOODS',
          ControlNumber: '11',
          Version: '004010',
          Gs: ['GS', 'GF', 'WAYBILLCARR', 'ACMEFOODS', '20261127', '1420', '11', 'X', '004010'],
          Sets: [
            {
              Set: '990',
              ControlNumber: '0011',
              Segments: [
                ['ST', '990', '0011'],
                ['B1', 'WBLC', 'SHP-20261127-A', '20261127', 'A'],
                ['N9', 'CN', 'L-100234'],
                ['SE', '4', '0011'],
              ],
            },
          ],
          Ge: ['GE', '1', '11'],
        },
      ],
      Iea: ['IEA', '1', '000000011'],
    });
  });

  it('shows a missing trailer as null', () => {
    const parsed = parseInterchange(readSample('990-accept.x12').replace('GE*1*11~\nIEA*1*000000011~\n', ''));
    if (!parsed.ok) throw new Error(parsed.message);
    expect(interchangeJson(parsed.interchange)).toMatchObject({ Iea: null, Groups: [{ Ge: null }] });
  });
});
