import { isSegmentId, isX12Date, isX12Time } from './check-element.js';
import type { X12ErrorCode } from './error-codes.js';
import type { FunctionalGroup, Interchange, ParseResult, Segment, Separators, TransactionSet, X12Error } from './types.js';
import { x12Error } from './x12-error.js';

/** The ISA is fixed-length: 105 characters and its segment terminator. */
export const ISA_LENGTH = 106;
/** Where the ISA's element separators stand (0-based): ISA fields have exact widths. */
const ISA_SEPARATOR_AT = [3, 6, 17, 20, 31, 34, 50, 53, 69, 76, 81, 83, 89, 99, 101, 103];

const CR = 13;
const LF = 10;

function isAlphanumeric(c: string): boolean {
  return /^[A-Za-z0-9]$/.test(c);
}

function describe(c: string): string {
  const code = c.charCodeAt(0);
  return code < 32 || code === 127 ? `0x${code.toString(16).padStart(2, '0')}` : `"${c}"`;
}

/** The separators of an ISA, or why they are not separators. */
function readSeparators(text: string): Separators | string {
  const element = text[3] as string;
  const component = text[104] as string;
  const segment = text[105] as string;
  const isa11 = text[82] as string;
  if (isAlphanumeric(element) || element === ' ' || element === '\r' || element === '\n') {
    return `the element separator (the ISA's 4th character) is ${describe(element)}: it must not be a letter, a digit, a space or a line break`;
  }
  for (const at of ISA_SEPARATOR_AT) {
    if (text[at] !== element) {
      const found = describe(text[at] as string);
      return `the ISA is not 106 characters of fixed-width fields: character ${at + 1} is ${found}, where the element separator ${describe(element)} belongs`;
    }
  }
  if (isAlphanumeric(component) || component === ' ' || component === '\r' || component === '\n') {
    return `the component separator (ISA16) is ${describe(component)}: it must not be a letter, a digit, a space or a line break`;
  }
  if (isAlphanumeric(segment) || segment === ' ') {
    return `the segment terminator (the character after ISA16) is ${describe(segment)}: it must not be a letter, a digit or a space`;
  }
  if (component === element || segment === element || segment === component) {
    return `the separators clash: element ${describe(element)}, component ${describe(component)}, segment ${describe(segment)} must differ`;
  }
  // 004010's ISA11 is the standards identifier `U`; from 00402 on a character there separates repetitions.
  const repetition = isAlphanumeric(isa11) || isa11 === ' ' ? null : isa11;
  if (repetition !== null && (repetition === element || repetition === component || repetition === segment)) {
    return `the separators clash: the repetition separator (ISA11) ${describe(repetition)} is another separator`;
  }
  return { element, component, segment, repetition };
}

/** The first control character that is not a separator or a line break, or -1. */
function controlCharacterAt(text: string, separators: Separators): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 32 && code !== 127) || code === CR || code === LF) continue;
    const c = text[i];
    if (c === separators.element || c === separators.component || c === separators.segment || c === separators.repetition) {
      continue;
    }
    return i;
  }
  return -1;
}

/**
 * The segments after the ISA: each up to its terminator, line breaks after a terminator skipped.
 * One pass with indexOf and split, no regular expression: linear in the text.
 */
function tokenize(text: string, separators: Separators, from: number, onUnterminated: () => void): Segment[] {
  const segments: Segment[] = [];
  let at = from;
  const skipBreaks = () => {
    while (at < text.length) {
      const code = text.charCodeAt(at);
      if ((code !== CR && code !== LF) || text[at] === separators.segment) break;
      at++;
    }
  };
  skipBreaks();
  while (at < text.length) {
    let end = text.indexOf(separators.segment, at);
    if (end === -1) {
      end = text.length;
      onUnterminated();
    }
    // A line feed terminator after a carriage return: the pair ends the segment.
    const last = separators.segment === '\n' && end > at && text.charCodeAt(end - 1) === CR ? end - 1 : end;
    const elements = text.slice(at, last).split(separators.element);
    const id = elements.shift() as string;
    segments.push({ id, elements, index: segments.length + 1 });
    at = end + 1;
    skipBreaks();
  }
  return segments;
}

/** The ISA's sixteen fields read at their fixed positions: a separator inside one is data. */
function isaSegment(text: string): Segment {
  const elements = ISA_SEPARATOR_AT.map((at, k) => text.slice(at + 1, ISA_SEPARATOR_AT[k + 1] ?? ISA_LENGTH - 1));
  return { id: 'ISA', elements, index: 0 };
}

const ISA_CODES: Record<number, readonly string[]> = {
  1: ['00', '01', '02', '03', '04', '05', '06'],
  3: ['00', '01'],
  14: ['0', '1'],
  15: ['P', 'T'],
};

/** The ISA's fields: codes, widths, date, time, version, control number (TA1 note codes). */
function checkIsa(isa: Segment): X12Error[] {
  const errors: X12Error[] = [];
  const e = (n: number) => isa.elements[n - 1] ?? '';
  const fail = (code: X12ErrorCode, element: number, message: string) => errors.push(x12Error(code, 'ISA', 1, element, message));
  if (!ISA_CODES[1]?.includes(e(1))) fail('InvalidAuthorizationQualifier', 1, 'ISA01 must be an authorization qualifier, e.g. 00');
  if (!ISA_CODES[3]?.includes(e(3))) fail('InvalidSecurityQualifier', 3, 'ISA03 must be 00 or 01');
  if (e(5).trim() === '') fail('InvalidSenderQualifier', 5, 'ISA05 is required');
  if (e(6).trim() === '') fail('InvalidSenderId', 6, 'ISA06 is required');
  if (e(7).trim() === '') fail('InvalidReceiverQualifier', 7, 'ISA07 is required');
  if (e(8).trim() === '') fail('InvalidReceiverId', 8, 'ISA08 is required');
  if (!isX12Date(e(9))) fail('InvalidInterchangeDate', 9, 'ISA09 must be a date YYMMDD');
  if (e(10).length !== 4 || !isX12Time(e(10))) fail('InvalidInterchangeTime', 10, 'ISA10 must be a time HHMM');
  if (e(12) !== '00401') fail('InterchangeVersionNotSupported', 12, `ISA12 is ${e(12)}: only 00401 (X12 004010) is read`);
  if (!/^\d{9}$/.test(e(13))) fail('InvalidInterchangeControlNumber', 13, 'ISA13 must be 9 digits');
  if (!ISA_CODES[14]?.includes(e(14))) fail('InvalidAcknowledgmentRequested', 14, 'ISA14 must be 0 or 1');
  if (!ISA_CODES[15]?.includes(e(15))) fail('InvalidUsageIndicator', 15, 'ISA15 must be P or T');
  return errors;
}

/** Groups and sets from the segments after the ISA; what stands outside them is an envelope error. */
function assemble(segments: readonly Segment[], errors: X12Error[]): { groups: FunctionalGroup[]; iea: Segment | null } {
  const groups: FunctionalGroup[] = [];
  let group: FunctionalGroup | null = null;
  let set: TransactionSet | null = null;
  let iea: Segment | null = null;
  const stray = (segment: Segment, message: string) => {
    if (errors.length < 100) errors.push(x12Error('InvalidInterchangeContent', segment.id.slice(0, 3), segment.index + 1, null, message));
  };
  for (const segment of segments) {
    if (iea) {
      stray(segment, `${segment.id.slice(0, 3)} after the IEA`);
      continue;
    }
    switch (segment.id) {
      case 'GS': {
        set = null;
        const e = (n: number) => segment.elements[n - 1] ?? '';
        group = { functionalId: e(1), senderId: e(2), receiverId: e(3), controlNumber: e(6), version: e(8), gs: segment, ge: null, sets: [] };
        groups.push(group);
        break;
      }
      case 'GE':
        if (group) group.ge = segment;
        else stray(segment, 'GE without a GS');
        group = null;
        set = null;
        break;
      case 'IEA':
        iea = segment;
        group = null;
        set = null;
        break;
      case 'ST':
        if (!group) {
          stray(segment, 'ST outside a functional group');
          set = null;
          break;
        }
        set = { id: segment.elements[0] ?? '', controlNumber: segment.elements[1] ?? '', segments: [segment] };
        group.sets.push(set);
        break;
      default:
        if (set) {
          set.segments.push(segment);
          if (segment.id === 'SE') set = null;
        } else {
          stray(segment, `${segment.id.slice(0, 3)} outside a transaction set`);
        }
    }
  }
  return { groups, iea };
}

/** IEA: present, its group count and its control number equal to ISA13. `last`: the ordinal of the last segment (ISA = 1). */
function checkIea(iea: Segment | null, isa: Segment, groups: number, last: number, errors: X12Error[]): void {
  if (!iea) {
    errors.push(x12Error('InterchangeTrailerMissing', 'IEA', last + 1, null, 'the interchange has no IEA'));
    return;
  }
  const count = iea.elements[0] ?? '';
  if (!/^\d{1,5}$/.test(count) || Number(count) !== groups) {
    const message = `IEA01 says ${count.slice(0, 10) || 'nothing'}, the interchange has ${groups} groups`;
    errors.push(x12Error('GroupCountMismatch', 'IEA', iea.index + 1, 1, message));
  }
  if ((iea.elements[1] ?? '') !== (isa.elements[12] ?? '')) {
    errors.push(x12Error('InterchangeControlNumberMismatch', 'IEA', iea.index + 1, 2, 'IEA02 differs from ISA13'));
  }
}

/**
 * One interchange, ISA to IEA (docs/edi.md#envelope-checks). ok:false when the text is not an
 * interchange at all: it does not start with an ISA of 106 characters, its separators are
 * letters, digits or clash, it holds a control character that is no separator (a NUL), or its
 * data uses other separators (no terminator after the ISA, or no segment id after it).
 * Otherwise the segments, grouped, with the envelope's errors (ISA fields, IEA, stray
 * segments); groups and sets are checked by checkGroup and checkTransactionSet. Envelope
 * errors are located by the segment's ordinal in the interchange (ISA = 1).
 */
export function parseInterchange(text: string): ParseResult {
  if (!text.startsWith('ISA')) {
    return { ok: false, message: 'not an X12 interchange: it must start with an ISA segment' };
  }
  if (text.length < ISA_LENGTH) {
    return { ok: false, message: `the ISA is truncated: ${text.length} characters, an ISA has 106` };
  }
  const separators = readSeparators(text);
  if (typeof separators === 'string') return { ok: false, message: separators };
  const control = controlCharacterAt(text, separators);
  if (control !== -1) {
    return { ok: false, message: `character ${control + 1} is the control character ${describe(text[control] as string)}` };
  }
  if (text.indexOf(separators.segment, ISA_LENGTH) === -1 && text.slice(ISA_LENGTH).trim() !== '') {
    return { ok: false, message: `the segment terminator ${describe(separators.segment)} the ISA declares never appears after it` };
  }
  const isa = isaSegment(text);
  const envelopeErrors = checkIsa(isa);
  let unterminated = false;
  const segments = tokenize(text, separators, ISA_LENGTH, () => (unterminated = true));
  const first = segments[0];
  if (first && !isSegmentId(first.id)) {
    return {
      ok: false,
      message:
        `the segment after the ISA begins "${first.id.slice(0, 20)}", not a segment id: the data does not use the separators ` +
        `the ISA declares (element ${describe(separators.element)}, segment ${describe(separators.segment)})`,
    };
  }
  const { groups, iea } = assemble(segments, envelopeErrors);
  checkIea(iea, isa, groups.length, segments.length + 1, envelopeErrors);
  if (unterminated) {
    const lastId = segments[segments.length - 1]?.id.slice(0, 3) ?? 'IEA';
    envelopeErrors.push(x12Error('InvalidControlStructure', lastId, segments.length + 1, null, 'the last segment has no terminator'));
  }
  const e = (n: number) => isa.elements[n - 1] ?? '';
  const interchange: Interchange = {
    separators,
    isa,
    iea,
    sender: { qualifier: e(5), id: e(6).trim() },
    receiver: { qualifier: e(7), id: e(8).trim() },
    controlNumber: e(13),
    usage: e(15),
    groups,
  };
  return { ok: true, interchange, envelopeErrors };
}
