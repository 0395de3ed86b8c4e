import type { ParseResult } from './types.js';

export function parseInterchange(text: string): ParseResult {
  void text;
  return { ok: false, message: 'not implemented yet' };
}
