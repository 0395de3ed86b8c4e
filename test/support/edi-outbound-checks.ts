import { expect } from 'vitest';
import { checkOutboundInterchange, emitInterchange, parseInterchange, type OutboundEnvelope } from '../../core/edi/x12/index.js';

const FUNCTIONAL_IDS: Record<string, string> = { '990': 'GF', '214': 'QM', '210': 'IM' };

/** The segments of an interchange's only set between ST and SE, each `[id, ...elements]`. */
export function setBody(x12: string): string[][] {
  const parsed = parseInterchange(x12);
  if (!parsed.ok) throw new Error(`not an interchange: ${parsed.message}`);
  const set = parsed.interchange.groups[0]!.sets[0]!;
  return set.segments.slice(1, -1).map((segment) => [segment.id, ...trimmed(segment.elements)]);
}

function trimmed(elements: string[]): string[] {
  let end = elements.length;
  while (end > 0 && elements[end - 1] === '') end--;
  return elements.slice(0, end);
}

/**
 * An outbound document meets X12 004010 (checkOutboundInterchange: counts, control numbers,
 * mandatory elements, lengths, dates) and round trips: parsed, emitted again with its own
 * envelope and parsed again, it reads the same.
 */
export function expectValidRoundTrip(x12: string, setId: string): string[][] {
  expect(checkOutboundInterchange(x12)).toEqual([]);
  const parsed = parseInterchange(x12);
  if (!parsed.ok) throw new Error(parsed.message);
  const { interchange } = parsed;
  expect(interchange.groups).toHaveLength(1);
  expect(interchange.groups[0]!.functionalId).toBe(FUNCTIONAL_IDS[setId]);
  expect(interchange.groups[0]!.sets.map((set) => set.id)).toEqual([setId]);
  const body = setBody(x12);
  const envelope: OutboundEnvelope = {
    sender: interchange.sender,
    receiver: interchange.receiver,
    senderGsId: interchange.groups[0]!.senderId,
    receiverGsId: interchange.groups[0]!.receiverId,
    usage: interchange.usage as 'P' | 'T',
    controlNumber: Number(interchange.controlNumber),
    at: new Date('2026-11-27T12:00:00Z'),
    functionalId: FUNCTIONAL_IDS[setId]!,
  };
  const again = emitInterchange(envelope, { id: setId, body });
  expect(setBody(again)).toEqual(body);
  return body;
}

/** A set body emitted in a test envelope, so a mapper's output can be checked like a sent document. */
export function emitForTest(setId: string, body: string[][], controlNumber = 1): string {
  return emitInterchange(
    {
      sender: { qualifier: 'ZZ', id: 'WAYBILLTEST' },
      receiver: { qualifier: 'ZZ', id: 'SHIPPERTEST' },
      senderGsId: 'WAYBILLTEST',
      receiverGsId: 'SHIPPERTEST',
      usage: 'T',
      controlNumber,
      at: new Date('2026-11-27T12:00:00Z'),
      functionalId: FUNCTIONAL_IDS[setId]!,
    },
    { id: setId, body },
  );
}
