/**
 * Our error codes and the X12 syntax error codes they stand for (docs/edi.md#acknowledgments).
 * The level says where a 997 reports them: an element code in AK403 (under an AK3 with AK304
 * `8`), a segment code in AK304, a set code in AK502, a group code in AK905; an interchange code
 * is a TA1 note code (TA105), reported by the inbound answer, not in a 997.
 */
export type X12ErrorLevel = 'Interchange' | 'Group' | 'Set' | 'Segment' | 'Element';

export const X12_ERROR_CODES = {
  // AK403: data element syntax error codes.
  MandatoryElementMissing: { level: 'Element', x12Code: '1' },
  ConditionalElementMissing: { level: 'Element', x12Code: '2' },
  TooManyElements: { level: 'Element', x12Code: '3' },
  ElementTooShort: { level: 'Element', x12Code: '4' },
  ElementTooLong: { level: 'Element', x12Code: '5' },
  InvalidCharacter: { level: 'Element', x12Code: '6' },
  InvalidCodeValue: { level: 'Element', x12Code: '7' },
  InvalidDate: { level: 'Element', x12Code: '8' },
  InvalidTime: { level: 'Element', x12Code: '9' },
  ExclusionConditionViolated: { level: 'Element', x12Code: '10' },
  // AK304: segment syntax error codes.
  UnrecognizedSegment: { level: 'Segment', x12Code: '1' },
  UnexpectedSegment: { level: 'Segment', x12Code: '2' },
  MandatorySegmentMissing: { level: 'Segment', x12Code: '3' },
  LoopOverMaximum: { level: 'Segment', x12Code: '4' },
  SegmentOverMaximumUse: { level: 'Segment', x12Code: '5' },
  SegmentNotInSet: { level: 'Segment', x12Code: '6' },
  SegmentOutOfSequence: { level: 'Segment', x12Code: '7' },
  SegmentHasElementErrors: { level: 'Segment', x12Code: '8' },
  // AK502: transaction set syntax error codes.
  SetNotSupported: { level: 'Set', x12Code: '1' },
  SetTrailerMissing: { level: 'Set', x12Code: '2' },
  SetControlNumberMismatch: { level: 'Set', x12Code: '3' },
  SegmentCountMismatch: { level: 'Set', x12Code: '4' },
  SegmentsInError: { level: 'Set', x12Code: '5' },
  InvalidSetId: { level: 'Set', x12Code: '6' },
  InvalidSetControlNumber: { level: 'Set', x12Code: '7' },
  // AK905: functional group syntax error codes.
  GroupNotSupported: { level: 'Group', x12Code: '1' },
  GroupVersionNotSupported: { level: 'Group', x12Code: '2' },
  GroupTrailerMissing: { level: 'Group', x12Code: '3' },
  GroupControlNumberMismatch: { level: 'Group', x12Code: '4' },
  SetCountMismatch: { level: 'Group', x12Code: '5' },
  InvalidGroupControlNumber: { level: 'Group', x12Code: '6' },
  // TA105: interchange note codes.
  InterchangeControlNumberMismatch: { level: 'Interchange', x12Code: '001' },
  InterchangeVersionNotSupported: { level: 'Interchange', x12Code: '017' },
  InvalidSenderQualifier: { level: 'Interchange', x12Code: '005' },
  InvalidSenderId: { level: 'Interchange', x12Code: '006' },
  InvalidReceiverQualifier: { level: 'Interchange', x12Code: '007' },
  InvalidReceiverId: { level: 'Interchange', x12Code: '008' },
  InvalidAuthorizationQualifier: { level: 'Interchange', x12Code: '010' },
  InvalidAuthorization: { level: 'Interchange', x12Code: '011' },
  InvalidSecurityQualifier: { level: 'Interchange', x12Code: '012' },
  InvalidSecurity: { level: 'Interchange', x12Code: '013' },
  InvalidInterchangeDate: { level: 'Interchange', x12Code: '014' },
  InvalidInterchangeTime: { level: 'Interchange', x12Code: '015' },
  InvalidStandardsIdentifier: { level: 'Interchange', x12Code: '016' },
  InvalidInterchangeControlNumber: { level: 'Interchange', x12Code: '018' },
  InvalidAcknowledgmentRequested: { level: 'Interchange', x12Code: '019' },
  InvalidUsageIndicator: { level: 'Interchange', x12Code: '020' },
  GroupCountMismatch: { level: 'Interchange', x12Code: '021' },
  InvalidControlStructure: { level: 'Interchange', x12Code: '022' },
  InterchangeTrailerMissing: { level: 'Interchange', x12Code: '023' },
  /** Also a GS element that is wrong (TA105 024: "invalid interchange content, e.g. invalid GS segment"). */
  InvalidInterchangeContent: { level: 'Interchange', x12Code: '024' },
} as const satisfies Record<string, { level: X12ErrorLevel; x12Code: string }>;

export type X12ErrorCode = keyof typeof X12_ERROR_CODES;

const BY_CODE: Record<string, { level: X12ErrorLevel; x12Code: string } | undefined> = X12_ERROR_CODES;

/** The level of one of our codes; undefined for another layer's (a mapping's). */
export function levelOfCode(code: string): X12ErrorLevel | undefined {
  return BY_CODE[code]?.level;
}

/** Our code for an X12 syntax error code of a level (reading a partner's 997), if we have one. */
export function codeOfX12(level: X12ErrorLevel, x12Code: string): string | undefined {
  return Object.entries(X12_ERROR_CODES).find(([, v]) => v.level === level && v.x12Code === x12Code)?.[0];
}
