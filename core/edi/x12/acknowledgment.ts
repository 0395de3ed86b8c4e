import type { AcknowledgedGroup, FunctionalGroup, TransactionSet, X12Error } from './types.js';

/** The 997 set body (AK1..AK9) for a received group and its sets' errors. */
export function buildAcknowledgment(
  group: FunctionalGroup,
  results: { set: TransactionSet; errors: X12Error[] }[],
  groupErrors: X12Error[],
): string[][] {
  void group;
  void results;
  void groupErrors;
  return [];
}

/** A received 997 read: per acknowledged group and set, Accepted or Rejected with errors. */
export function readAcknowledgment(set: TransactionSet): AcknowledgedGroup[] {
  void set;
  return [];
}
