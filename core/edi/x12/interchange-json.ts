import type { Interchange, Segment } from './types.js';

function segmentJson(segment: Segment): string[] {
  return [segment.id, ...segment.elements];
}

/**
 * The mailbox's Json (docs/edi.md#acknowledgments): the envelope's fields and every segment as
 * an array `[id, element 1, …]`, grouped as received, in the API's PascalCase.
 */
export function interchangeJson(interchange: Interchange): unknown {
  return {
    Sender: { Qualifier: interchange.sender.qualifier, Id: interchange.sender.id },
    Receiver: { Qualifier: interchange.receiver.qualifier, Id: interchange.receiver.id },
    ControlNumber: interchange.controlNumber,
    Usage: interchange.usage,
    Separators: {
      Element: interchange.separators.element,
      Component: interchange.separators.component,
      Segment: interchange.separators.segment,
    },
    Isa: segmentJson(interchange.isa),
    Groups: interchange.groups.map((group) => ({
      FunctionalId: group.functionalId,
      SenderId: group.senderId,
      ReceiverId: group.receiverId,
      ControlNumber: group.controlNumber,
      Version: group.version,
      Gs: segmentJson(group.gs),
      Sets: group.sets.map((set) => ({
        Set: set.id,
        ControlNumber: set.controlNumber,
        Segments: set.segments.map(segmentJson),
      })),
      Ge: group.ge ? segmentJson(group.ge) : null,
    })),
    Iea: interchange.iea ? segmentJson(interchange.iea) : null,
  };
}
