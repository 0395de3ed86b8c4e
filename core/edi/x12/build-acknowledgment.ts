import { isLoop, type SetItem } from './definition.js';
import { levelOfCode } from './error-codes.js';
import { SET_DEFINITIONS } from './sets/index.js';
import type { FunctionalGroup, TransactionSet, X12Error } from './types.js';

/** AK502 and AK905 repeat at most five times. */
const MAX_CODES = 5;
/** AK404: a copy of the bad data, at most 99 characters. */
const MAX_BAD_DATA = 99;

/** The data element reference number (AK402) of a segment's element in a set, when defined. */
function elementRef(setId: string, segmentId: string, element: number): string {
  const find = (items: readonly SetItem[]): number | undefined => {
    for (const item of items) {
      const found = isLoop(item) ? find(item.items) : item.segment.id === segmentId ? item.segment.elements[element - 1]?.ref : undefined;
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const ref = find(SET_DEFINITIONS.get(setId)?.items ?? []);
  return ref === undefined ? '' : String(ref);
}

function badData(set: TransactionSet, error: X12Error): string {
  const segment = set.segments[error.position - 1];
  if (!segment || segment.id !== error.segment || error.element === null) return '';
  return (segment.elements[error.element - 1] ?? '').slice(0, MAX_BAD_DATA);
}

function unique(codes: string[]): string[] {
  return [...new Set(codes)].slice(0, MAX_CODES);
}

/**
 * AK2..AK5 of one set (docs/edi.md#acknowledgments): an AK3 per segment in error (segment id,
 * position in the set, loop, AK304: `8` when its elements are in error), an AK4 per element
 * error (position, reference number, AK403, a copy of the bad data); AK5 `A`, or `R` with the
 * set's AK502 codes (`5` when segments are in error; none when only its envelope is).
 */
function setResponse(set: TransactionSet, errors: readonly X12Error[]): string[][] {
  const out: string[][] = [['AK2', set.id, set.controlNumber]];
  const setCodes: string[] = [];
  let segmentsInError = false;
  let lastAk3: string | null = null;
  for (const error of errors) {
    const level = levelOfCode(error.code);
    if (level === 'Set') {
      if (error.x12Code) setCodes.push(error.x12Code);
      continue;
    }
    // The envelope's errors reject the sets inside it, reported by AK9 (the group's) or not at
    // all in a 997 (the interchange's): not a segment of this set.
    if (level === 'Group' || level === 'Interchange') continue;
    segmentsInError = true;
    // AK301 is 2 or 3 characters: a segment without such an id (an empty one) is told by AK5 alone.
    if (error.segment.length < 2 || error.segment.length > 3) continue;
    // Another layer's code (a mapping's) is an element's only when it brings an AK403 code.
    const elementLevel = error.element !== null && (level === 'Element' || (level === undefined && error.x12Code !== undefined));
    const key = `${error.segment}\u0000${error.position}`;
    if (!elementLevel || key !== lastAk3) {
      out.push(['AK3', error.segment, String(error.position), error.loopId ?? '', elementLevel ? '8' : (error.x12Code ?? '')]);
      lastAk3 = elementLevel ? key : null;
    }
    if (elementLevel && error.element !== null) {
      out.push(['AK4', String(error.element), elementRef(set.id, error.segment, error.element), error.x12Code ?? '', badData(set, error)]);
    }
  }
  if (errors.length === 0) out.push(['AK5', 'A']);
  else out.push(['AK5', 'R', ...unique(segmentsInError ? [...setCodes, '5'] : setCodes)]);
  return out;
}

/** AK1 names a group by GS01 (2 characters) and GS06 (1 to 9 digits). */
export function acknowledgeable(group: FunctionalGroup): boolean {
  return group.functionalId.length === 2 && /^\d{1,9}$/.test(group.controlNumber);
}

/** AK2 names a set by ST01 (3 characters) and ST02 (4 to 9). */
function nameable(set: TransactionSet): boolean {
  return set.id.length === 3 && set.controlNumber.length >= 4 && set.controlNumber.length <= 9;
}

/**
 * The 997 set body (AK1..AK9) for a received group and its sets' errors
 * (docs/edi.md#acknowledgments). A set with errors is rejected. AK9: `R` when the group has
 * errors or no set is accepted, `P` when some are, `A` when all are; AK902 the count GE01
 * declares (else the sets found), AK903 the sets received, AK904 those accepted, AK905 the
 * group's codes. A set whose ST01 or ST02 cannot be written in AK2 is counted in AK9 only; a
 * group whose GS01 or GS06 cannot be written in AK1 cannot be acknowledged (acknowledgeable).
 */
export function buildAcknowledgment(
  group: FunctionalGroup,
  results: { set: TransactionSet; errors: X12Error[] }[],
  groupErrors: X12Error[],
): string[][] {
  const body: string[][] = [['AK1', group.functionalId, group.controlNumber]];
  for (const { set, errors } of results) if (nameable(set)) body.push(...setResponse(set, errors));
  const accepted = results.filter((r) => r.errors.length === 0).length;
  const declared = group.ge?.elements[0] ?? '';
  const included = /^\d{1,6}$/.test(declared) ? String(Number(declared)) : String(group.sets.length);
  const status = groupErrors.length > 0 || accepted === 0 ? 'R' : accepted < results.length ? 'P' : 'A';
  const groupCodes = unique(groupErrors.filter((e) => levelOfCode(e.code) === 'Group' && e.x12Code).map((e) => e.x12Code as string));
  body.push(['AK9', status, included, String(results.length), String(accepted), ...groupCodes]);
  return body;
}
