/** The X12 layer's data: an interchange as parsed, located errors, the envelope of what we send. */

export interface Separators {
  element: string;
  component: string;
  segment: string;
  /** ISA11 when it is a separator (version 00402 and later); 004010's `U` is a placeholder: null. */
  repetition: string | null;
}

export interface Segment {
  id: string;
  /** elements[0] is <id>01. */
  elements: string[];
  /** 0-based position in the interchange. */
  index: number;
}

export interface TransactionSet {
  /** ST01. */
  id: string;
  /** ST02. */
  controlNumber: string;
  /** ST .. SE inclusive (SE absent when the interchange ended without it). */
  segments: Segment[];
}

export interface FunctionalGroup {
  functionalId: string;
  senderId: string;
  receiverId: string;
  controlNumber: string;
  version: string;
  gs: Segment;
  ge: Segment | null;
  sets: TransactionSet[];
}

export interface Interchange {
  separators: Separators;
  isa: Segment;
  iea: Segment | null;
  sender: { qualifier: string; id: string /* trimmed */ };
  receiver: { qualifier: string; id: string };
  controlNumber: string;
  usage: string;
  groups: FunctionalGroup[];
}

/**
 * Error located like a 997 AK3/AK4: position = ordinal of the segment within its set (ST = 1),
 * element = 1-based, code = a short PascalCase code plus the X12 syntax error code where one
 * exists.
 */
export interface X12Error {
  segment: string;
  position: number;
  element: number | null;
  code: string;
  message: string;
  x12Code?: string;
  /** The loop of the segment, as the set's definition names it (AK303). */
  loopId?: string;
}

/** ok:false = not an interchange at all (answered 400). */
export type ParseResult =
  | { ok: true; interchange: Interchange; envelopeErrors: X12Error[] }
  | { ok: false; message: string };

export interface OutboundEnvelope {
  sender: { qualifier: string; id: string };
  receiver: { qualifier: string; id: string };
  senderGsId: string;
  receiverGsId: string;
  usage: 'P' | 'T';
  /** ISA13 = GS06 = ST02. */
  controlNumber: number;
  /** UTC. */
  at: Date;
  functionalId: string;
}

export interface AcknowledgedSet {
  setId: string;
  controlNumber: string;
  status: 'Accepted' | 'Rejected';
  errors: X12Error[];
}

export interface AcknowledgedGroup {
  groupControlNumber: string;
  functionalId: string;
  sets: AcknowledgedSet[];
  /** AK901: a group Accepted without AK2 segments accepts all its sets. */
  status: 'Accepted' | 'Partial' | 'Rejected';
  /** AK905's group syntax errors. */
  errors: X12Error[];
}
