import { formatX12Date, formatX12Time } from './dates.js';
import type { OutboundEnvelope } from './types.js';

/** What we send with: element `*`, component `>`, segment `~` and a line break. */
export const OUTBOUND_SEPARATORS = { element: '*', component: '>', segment: '~' } as const;
const TERMINATOR = '~\n';

/**
 * Data never carries a separator or a control character: one would split or end the segment at
 * the partner. They become spaces (free text such as a rejection reason may hold a `*`).
 */
function clean(value: string): string {
  return value.replace(/[*>~\u0000-\u001f\u007f]/g, ' ');
}

function segment(elements: readonly string[]): string {
  let end = elements.length;
  while (end > 1 && elements[end - 1] === '') end--;
  return elements.slice(0, end).map(clean).join(OUTBOUND_SEPARATORS.element) + TERMINATOR;
}

function fixedWidth(value: string, width: number, what: string): string {
  if (value.length === 0 || value.length > width) throw new Error(`${what} must be 1 to ${width} characters`);
  return value.padEnd(width, ' ');
}

/** ST02: the control number, at least 4 digits as ST02 (AN 4/9) requires. */
export function setControlNumber(controlNumber: number): string {
  return String(controlNumber).padStart(4, '0');
}

/**
 * One interchange with one group with one set (docs/edi.md#envelope-checks): ISA with its fixed
 * widths (ids padded to 15, ISA09 YYMMDD, ISA10 HHMM, ISA11 `U`, ISA12 `00401`, ISA13 the
 * control number in 9 digits, ISA14 `0`, ISA15 the usage, ISA16 `>`), GS (CCYYMMDD, HHMM, GS06
 * the control number, `X`, `004010`), ST/SE with SE01 counting ST and SE, GE and IEA counting 1.
 * Trailing empty elements are trimmed. The envelope's values were validated where the partner
 * was saved: a wrong one here is a defect, thrown.
 */
export function emitInterchange(envelope: OutboundEnvelope, set: { id: string; body: string[][] }): string {
  const { controlNumber, at } = envelope;
  if (!Number.isInteger(controlNumber) || controlNumber < 1 || controlNumber > 999_999_999) {
    throw new Error('the control number must be an integer from 1 to 999999999');
  }
  const isa13 = String(controlNumber).padStart(9, '0');
  const st02 = setControlNumber(controlNumber);
  const isa = [
    'ISA',
    '00',
    ' '.repeat(10),
    '00',
    ' '.repeat(10),
    fixedWidth(envelope.sender.qualifier, 2, 'ISA05'),
    fixedWidth(envelope.sender.id, 15, 'ISA06'),
    fixedWidth(envelope.receiver.qualifier, 2, 'ISA07'),
    fixedWidth(envelope.receiver.id, 15, 'ISA08'),
    formatX12Date(at).slice(2),
    formatX12Time(at),
    'U',
    '00401',
    isa13,
    '0',
    envelope.usage,
    OUTBOUND_SEPARATORS.component,
  ].join(OUTBOUND_SEPARATORS.element);
  const { functionalId, senderGsId, receiverGsId } = envelope;
  const gs = ['GS', functionalId, senderGsId, receiverGsId, formatX12Date(at), formatX12Time(at), String(controlNumber), 'X', '004010'];
  const body = set.body.map(segment).join('');
  return [
    isa + TERMINATOR,
    segment(gs),
    segment(['ST', set.id, st02]),
    body,
    segment(['SE', String(set.body.length + 2), st02]),
    segment(['GE', '1', String(controlNumber)]),
    segment(['IEA', '1', isa13]),
  ].join('');
}
