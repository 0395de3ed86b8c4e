/**
 * The X12 004010 layer: pure code, no database and no clock (times are passed in).
 * docs/edi.md#x12-library explains why this is our own tokenizer; docs/edi.md#envelope-checks
 * and docs/edi.md#acknowledgments the rules it enforces.
 */
export type {
  AcknowledgedGroup,
  AcknowledgedSet,
  FunctionalGroup,
  Interchange,
  OutboundEnvelope,
  ParseResult,
  Segment,
  Separators,
  TransactionSet,
  X12Error,
} from './types.js';
export { parseInterchange } from './parse.js';
export { checkGroup } from './check-group.js';
export { checkTransactionSet, MAX_SET_ERRORS, type SetContext } from './check-set.js';
export { emitInterchange } from './emit.js';
export { acknowledgeable, buildAcknowledgment } from './build-acknowledgment.js';
export { readAcknowledgment } from './read-acknowledgment.js';
export { interchangeJson } from './interchange-json.js';
export { formatX12Date, formatX12Time } from './dates.js';
export { checkOutboundInterchange } from './check-outbound.js';
export { X12_ERROR_CODES, type X12ErrorCode, type X12ErrorLevel } from './error-codes.js';
export { x12Error } from './x12-error.js';
