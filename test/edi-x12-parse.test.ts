import { describe, expect, it } from 'vitest';
import { parseInterchange } from '../core/edi/x12/index.js';
import { allErrors, located, parseOk, readSample, SAMPLES } from './edi/x12-samples.js';

const ORIGINAL = readSample('204-original.x12');

function notAnInterchange(text: string): string {
  const parsed = parseInterchange(text);
  if (parsed.ok) throw new Error('expected ok:false');
  return parsed.message;
}

describe('parseInterchange: separators from the ISA (docs/edi.md#envelope-checks)', () => {
  it('reads `*`, `>`, `~` with a line break after each terminator', () => {
    const { interchange, envelopeErrors } = parseOk(ORIGINAL);
    expect(envelopeErrors).toEqual([]);
    expect(interchange.separators).toEqual({ element: '*', component: '>', segment: '~', repetition: null });
    expect(interchange.sender).toEqual({ qualifier: 'ZZ', id: 'ACMEFOODS' });
    expect(interchange.receiver).toEqual({ qualifier: 'ZZ', id: 'WAYBILLCARR' });
    expect(interchange.controlNumber).toBe('000000101');
    expect(interchange.usage).toBe('T');
    const [group] = interchange.groups;
    expect(group).toMatchObject({ functionalId: 'SM', senderId: 'ACMEFOODS', receiverId: 'WAYBILLCARR', controlNumber: '101', version: '004010' });
    const set = group!.sets[0]!;
    expect(set).toMatchObject({ id: '204', controlNumber: '0001' });
    expect(set.segments).toHaveLength(28);
    expect(set.segments[1]).toEqual({ id: 'B2', elements: ['', 'WBLC', '', 'SHP-20261127-A', '', 'PP'], index: 3 });
    expect(set.segments[11]).toMatchObject({ id: 'N7' });
    expect(set.segments[11]!.elements[10]).toBe('TV');
    expect(interchange.iea?.elements).toEqual(['1', '000000101']);
  });

  it('reads `|` and `^` without line breaks, and `^`, `:` with a line feed as the terminator', () => {
    const change = parseOk(readSample('204-change.x12'));
    expect(change.interchange.separators).toEqual({ element: '|', component: '^', segment: '~', repetition: null });
    expect(change.interchange.groups[0]!.sets[0]!.segments.map((s) => s.id).slice(0, 3)).toEqual(['ST', 'B2', 'B2A']);
    const cancel = parseOk(readSample('204-cancel.x12'));
    expect(cancel.interchange.separators).toEqual({ element: '^', component: ':', segment: '\n', repetition: null });
    expect(cancel.interchange.groups[0]!.sets[0]!.segments.map((s) => s.id)).toEqual(['ST', 'B2', 'B2A', 'S5', 'S5', 'SE']);
    expect(cancel.envelopeErrors).toEqual([]);
  });

  it('ignores carriage returns and line feeds after terminators, and a CR before a line feed terminator', () => {
    const crlf = parseOk(readSample('990-reject.x12'));
    expect(crlf.envelopeErrors).toEqual([]);
    expect(crlf.interchange.groups[0]!.sets[0]!.segments[2]!.elements).toEqual(['No reefer available in Chica', 'go on the requested date']);
    const lfTerminated = readSample('204-cancel.x12').replaceAll('\n', '\r\n').replace('^:\r\n', '^:\n');
    const parsed = parseOk(lfTerminated);
    expect(parsed.interchange.groups[0]!.sets[0]!.segments[1]!.elements.at(-1)).toBe('PP');
    expect(allErrors(lfTerminated)).toEqual([]);
  });

  it('parses every sample without an error', () => {
    for (const name of SAMPLES) expect([name, allErrors(readSample(name))]).toEqual([name, []]);
  });

  it('reads the ISA fields at their fixed positions, a separator inside one as data', () => {
    const { interchange, envelopeErrors } = parseOk(ORIGINAL.replace('*00*          *00*', '*00*pass*word *00*'));
    expect(envelopeErrors).toEqual([]);
    expect(interchange.isa.elements).toHaveLength(16);
    expect(interchange.isa.elements[1]).toBe('pass*word ');
    expect(interchange.isa.elements[15]).toBe('>');
    expect(interchange.sender).toEqual({ qualifier: 'ZZ', id: 'ACMEFOODS' });
  });

  it('numbers segments from the ISA (0) through the IEA', () => {
    const { interchange } = parseOk(ORIGINAL);
    expect(interchange.isa.index).toBe(0);
    expect(interchange.groups[0]!.gs.index).toBe(1);
    expect(interchange.groups[0]!.sets[0]!.segments[0]!.index).toBe(2);
    expect(interchange.iea?.index).toBe(31);
  });
});

describe('parseInterchange: not an interchange at all (ok:false)', () => {
  it('refuses text that does not start with ISA', () => {
    expect(notAnInterchange('hello')).toMatch(/must start with an ISA/);
    expect(notAnInterchange('')).toMatch(/must start with an ISA/);
    expect(notAnInterchange(` ${ORIGINAL}`)).toMatch(/must start with an ISA/);
  });

  it('refuses a truncated ISA', () => {
    expect(notAnInterchange(ORIGINAL.slice(0, 60))).toMatch(/ISA is truncated: 60 characters/);
    expect(notAnInterchange(ORIGINAL.slice(0, 105))).toMatch(/truncated/);
  });

  it('refuses an ISA whose fields are not their fixed widths', () => {
    const short = ORIGINAL.replace('*ACMEFOODS      *', '*ACMEFOODS*');
    expect(notAnInterchange(short)).toMatch(/not 106 characters of fixed-width fields: character 51 is "Y"/);
  });

  it('refuses a letter, a digit or a space as the element separator', () => {
    expect(notAnInterchange(ORIGINAL.replaceAll('*', 'A'))).toMatch(/element separator .* is "A"/);
    expect(notAnInterchange(ORIGINAL.replaceAll('*', '1'))).toMatch(/element separator/);
    expect(notAnInterchange(`ISA ${ORIGINAL.slice(4)}`)).toMatch(/element separator/);
  });

  it('refuses a letter as the component separator or the terminator', () => {
    expect(notAnInterchange(ORIGINAL.replace('*T*>~', '*T*Z~'))).toMatch(/component separator \(ISA16\) is "Z"/);
    expect(notAnInterchange(ORIGINAL.replace('*T*>~', '*T*>Q'))).toMatch(/segment terminator .* is "Q"/);
  });

  it('refuses separators that clash', () => {
    expect(notAnInterchange(ORIGINAL.replace('*T*>~', '*T**~'))).toMatch(/separators clash/);
    expect(notAnInterchange(ORIGINAL.replace('*T*>~', '*T*>>'))).toMatch(/separators clash/);
    expect(notAnInterchange(ORIGINAL.replace('*U*00401*', '*>*00401*'))).toMatch(/repetition separator/);
  });

  it('refuses data that does not use the separators the ISA declares', () => {
    const pipes = ORIGINAL.slice(0, 107) + ORIGINAL.slice(107).replaceAll('*', '|');
    expect(notAnInterchange(pipes)).toBe(
      'the segment after the ISA begins "GS|SM|ACMEFOODS|WAYB", not a segment id: the data does not use the separators the ISA declares (element "*", segment "~")',
    );
    const terminators = ORIGINAL.slice(0, 107) + ORIGINAL.slice(107).replaceAll('~', "'");
    expect(notAnInterchange(terminators)).toBe('the segment terminator "~" the ISA declares never appears after it');
  });

  it('refuses a NUL or another control character anywhere', () => {
    expect(notAnInterchange(ORIGINAL.replace('Keep dry', 'Keep\u0000dry'))).toMatch(/control character 0x00/);
    expect(notAnInterchange(ORIGINAL.replace('Keep dry', 'Keep\u0007dry'))).toMatch(/control character 0x07/);
    expect(notAnInterchange(ORIGINAL.replace('Keep dry', 'Keep\u007fdry'))).toMatch(/control character 0x7f/);
  });

  it('accepts a control character that is a separator', () => {
    const text = ORIGINAL.replaceAll('~\n', '\u001c');
    const { interchange, envelopeErrors } = parseOk(text);
    expect(envelopeErrors).toEqual([]);
    expect(interchange.separators.segment).toBe('\u001c');
    expect(allErrors(text)).toEqual([]);
  });
});

describe('parseInterchange: envelope errors, located', () => {
  it('checks the ISA fields (TA1 note codes)', () => {
    const text = ORIGINAL.replace('*261127*1330*U*00401*000000101*0*T*', '*261131*2460*U*00501*00000010A*2*X*').replace(
      'IEA*1*000000101',
      'IEA*1*00000010A',
    );
    expect(located(parseOk(text).envelopeErrors)).toEqual([
      'InvalidInterchangeDate ISA@1.9',
      'InvalidInterchangeTime ISA@1.10',
      'InterchangeVersionNotSupported ISA@1.12',
      'InvalidInterchangeControlNumber ISA@1.13',
      'InvalidAcknowledgmentRequested ISA@1.14',
      'InvalidUsageIndicator ISA@1.15',
    ]);
    expect(parseOk(text).envelopeErrors[0]!.x12Code).toBe('014');
  });

  it('checks blank sender and receiver ids and the qualifiers of ISA01 and ISA03', () => {
    const text = ORIGINAL.replace('ISA*00*', 'ISA*99*').replace('*00*          *ZZ*ACMEFOODS      *ZZ*WAYBILLCARR    *', '*77*          *  *               *  *               *');
    expect(located(parseOk(text).envelopeErrors)).toEqual([
      'InvalidAuthorizationQualifier ISA@1.1',
      'InvalidSecurityQualifier ISA@1.3',
      'InvalidSenderQualifier ISA@1.5',
      'InvalidSenderId ISA@1.6',
      'InvalidReceiverQualifier ISA@1.7',
      'InvalidReceiverId ISA@1.8',
    ]);
  });

  it('checks the IEA count of groups and control number against ISA13', () => {
    expect(located(parseOk(ORIGINAL.replace('IEA*1*000000101', 'IEA*2*000000101')).envelopeErrors)).toEqual(['GroupCountMismatch IEA@32.1']);
    const mismatch = parseOk(ORIGINAL.replace('IEA*1*000000101', 'IEA*1*000000999')).envelopeErrors;
    expect(located(mismatch)).toEqual(['InterchangeControlNumberMismatch IEA@32.2']);
    expect(mismatch[0]!.x12Code).toBe('001');
  });

  it('reports a missing IEA and a last segment without its terminator', () => {
    expect(located(parseOk(ORIGINAL.replace('IEA*1*000000101~\n', '')).envelopeErrors)).toEqual(['InterchangeTrailerMissing IEA@32']);
    expect(located(parseOk(ORIGINAL.replace('IEA*1*000000101~\n', 'IEA*1*000000101')).envelopeErrors)).toEqual([
      'InvalidControlStructure IEA@32',
    ]);
  });

  it('reports segments outside a set, a group, or after the IEA', () => {
    const text = ORIGINAL.replace('ST*204*0001~', 'NTE*GEN*stray~\nST*204*0001~').replace('GE*1*101~', 'GE*1*101~\nST*204*0009~') + 'GS*SM*X*Y~';
    expect(located(parseOk(text).envelopeErrors)).toEqual([
      'InvalidInterchangeContent NTE@3',
      'InvalidInterchangeContent ST@33',
      'InvalidInterchangeContent GS@35',
    ]);
  });

  it('keeps a set without SE and a group without GE for their own checks', () => {
    const text = ORIGINAL.replace('SE*28*0001~\n', '').replace('GE*1*101~\n', '');
    const { interchange, envelopeErrors } = parseOk(text);
    expect(envelopeErrors).toEqual([]);
    expect(interchange.groups[0]!.ge).toBeNull();
    expect(interchange.groups[0]!.sets[0]!.segments.at(-1)!.id).toBe('L3');
    expect(located(allErrors(text))).toEqual(['GroupTrailerMissing GE@2', 'SetTrailerMissing SE@28']);
  });
});

describe('parseInterchange: hostile sizes', () => {
  it('parses 10,000 segments in a set, each located, the errors capped', () => {
    const notes = 'NTE*GEN*again~\n'.repeat(10_000);
    const text = ORIGINAL.replace('NTE*GEN*Keep dry. Call 30 minutes ahead.~\n', notes);
    const { interchange } = parseOk(text);
    expect(interchange.groups[0]!.sets[0]!.segments).toHaveLength(10_027);
    const errors = allErrors(text);
    expect(errors).toHaveLength(100);
    expect(located(errors.slice(0, 2))).toEqual(['SegmentCountMismatch SE@10027.1', 'SegmentOverMaximumUse NTE@18']);
  });

  it('parses a 1 MiB segment and reports it too long without copying it into the message', () => {
    const text = ORIGINAL.replace('Keep dry. Call 30 minutes ahead.', 'x'.repeat(1 << 20));
    const errors = allErrors(text);
    expect(located(errors)).toEqual(['ElementTooLong NTE@8.2']);
    expect(errors[0]!.message.length).toBeLessThan(200);
  });

  it('parses a 1 MiB run of element separators in one segment', () => {
    const text = ORIGINAL.replace('NTE*GEN*Keep dry. Call 30 minutes ahead.', `NTE*GEN*a${'*'.repeat(1 << 20)}`);
    expect(located(allErrors(text))).toEqual(['TooManyElements NTE@8.3']);
  });

  it('parses 100,000 empty segments as errors, not a crash', () => {
    const text = ORIGINAL.replace('NTE*GEN*Keep dry. Call 30 minutes ahead.~', '~'.repeat(100_000));
    const errors = allErrors(text);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.length).toBeLessThanOrEqual(101);
    expect(errors.some((e) => e.code === 'UnrecognizedSegment')).toBe(true);
  });
});
