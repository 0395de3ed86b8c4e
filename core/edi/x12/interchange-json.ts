import type { Interchange } from './types.js';

/** The mailbox's Json: the parsed segments (and envelope) as plain JSON. */
export function interchangeJson(interchange: Interchange): unknown {
  return interchange;
}
