import type { ElementDef } from './definition.js';
import type { X12ErrorCode } from './error-codes.js';

const ZERO = 48;
const NINE = 57;

function isDigits(value: string, from: number, to: number): boolean {
  if (to <= from) return false;
  for (let i = from; i < to; i++) {
    const c = value.charCodeAt(i);
    if (c < ZERO || c > NINE) return false;
  }
  return true;
}

function twoDigits(value: string, at: number): number {
  return (value.charCodeAt(at) - ZERO) * 10 + (value.charCodeAt(at + 1) - ZERO);
}

/** A segment identifier: a capital letter, then one or two capitals or digits. */
export function isSegmentId(id: string): boolean {
  return /^[A-Z][A-Z0-9]{1,2}$/.test(id);
}

/** A valid calendar date, CCYYMMDD (or YYMMDD, the ISA's). */
export function isX12Date(value: string): boolean {
  if ((value.length !== 8 && value.length !== 6) || !isDigits(value, 0, value.length)) return false;
  const year = value.length === 8 ? Number(value.slice(0, 4)) : 2000 + twoDigits(value, 0);
  const month = twoDigits(value, value.length - 4);
  const day = twoDigits(value, value.length - 2);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A valid time, HHMM[SS[D..]] (seconds, then decimal seconds). */
export function isX12Time(value: string): boolean {
  if (value.length < 4 || value.length === 5 || value.length > 8 || !isDigits(value, 0, value.length)) return false;
  if (twoDigits(value, 0) > 23 || twoDigits(value, 2) > 59) return false;
  return value.length < 6 || twoDigits(value, 4) <= 59;
}

/** The digits of a number, the length X12 counts (no sign, no decimal point). */
function numericLength(value: string, decimal: boolean): number | null {
  let digits = 0;
  let point = false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= ZERO && c <= NINE) digits++;
    else if (i === 0 && c === 45 /* - */ && value.length > 1) continue;
    else if (decimal && c === 46 /* . */ && !point) point = true;
    else return null;
  }
  return digits === 0 ? null : digits;
}

/**
 * The error of one present (non-empty) value against its definition, or null. Text is accepted
 * in any printable character (a line break inside a segment is not one); the separators cannot
 * occur inside an element (docs/edi.md#envelope-checks).
 */
export function checkValue(value: string, def: ElementDef): { code: X12ErrorCode; message: string } | null {
  for (let i = 0; i < value.length; i++) {
    if (value.charCodeAt(i) < 32) return { code: 'InvalidCharacter', message: 'a line break or control character inside an element' };
  }
  let length = value.length;
  if (def.type === 'N0' || def.type === 'N2' || def.type === 'R') {
    const digits = numericLength(value, def.type === 'R');
    if (digits === null) return { code: 'InvalidCharacter', message: `"${clip(value)}" is not a number (${def.type})` };
    length = digits;
  }
  if (length < def.min) return { code: 'ElementTooShort', message: `"${clip(value)}" is shorter than ${def.min}` };
  if (length > def.max) return { code: 'ElementTooLong', message: `"${clip(value)}" is longer than ${def.max}` };
  if (def.type === 'DT' && !isX12Date(value)) return { code: 'InvalidDate', message: `"${value}" is not a date CCYYMMDD` };
  if (def.type === 'TM' && !isX12Time(value)) return { code: 'InvalidTime', message: `"${value}" is not a time HHMM[SS]` };
  if (def.codes && !def.codes.includes(value)) {
    return { code: 'InvalidCodeValue', message: `"${clip(value)}" is not one of ${def.codes.join(', ')}` };
  }
  return null;
}

/** Values quoted in messages are cut: an element may be a megabyte long. */
export function clip(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
