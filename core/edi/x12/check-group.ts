import type { FunctionalGroup, X12Error } from './types.js';

export function checkGroup(group: FunctionalGroup): X12Error[] {
  void group;
  return [];
}
