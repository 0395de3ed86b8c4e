import type { OutboundEnvelope } from './types.js';

export function emitInterchange(envelope: OutboundEnvelope, set: { id: string; body: string[][] }): string {
  void envelope;
  void set;
  return '';
}
