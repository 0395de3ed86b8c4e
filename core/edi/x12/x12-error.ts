import { X12_ERROR_CODES, type X12ErrorCode } from './error-codes.js';
import type { X12Error } from './types.js';

/** An error of ours, with the X12 syntax error code its code stands for. */
export function x12Error(
  code: X12ErrorCode,
  segment: string,
  position: number,
  element: number | null,
  message: string,
): X12Error {
  return { segment, position, element, code, message, x12Code: X12_ERROR_CODES[code].x12Code };
}
