import type { TransactionSet, X12Error } from './types.js';

export function checkTransactionSet(set: TransactionSet): X12Error[] {
  void set;
  return [];
}
