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
export { checkTransactionSet } from './check-set.js';
export { emitInterchange } from './emit.js';
export { buildAcknowledgment, readAcknowledgment } from './acknowledgment.js';
export { interchangeJson } from './interchange-json.js';
export { formatX12Date, formatX12Time } from './dates.js';
export { checkOutboundInterchange } from './check-outbound.js';
