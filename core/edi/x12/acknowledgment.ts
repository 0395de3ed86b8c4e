import { isLoop, type SetItem } from './definition.js';
import { codeOfX12, levelOfCode, type X12ErrorLevel } from './error-codes.js';
import { SET_DEFINITIONS } from './sets/index.js';
import type { AcknowledgedGroup, AcknowledgedSet, FunctionalGroup, Segment, TransactionSet, X12Error } from './types.js';

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
 * set's AK502 codes (`5` when segments are in error).
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
    segmentsInError = true;
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
  else out.push(['AK5', 'R', ...unique(segmentsInError ? [...setCodes, '5'] : setCodes.length ? setCodes : ['5'])]);
  return out;
}

/**
 * The 997 set body (AK1..AK9) for a received group and its sets' errors
 * (docs/edi.md#acknowledgments). A set with errors is rejected. AK9: `R` when the group has
 * errors or no set is accepted, `P` when some are, `A` when all are; AK902 the count GE01
 * declares (else the sets found), AK903 the sets received, AK904 those accepted, AK905 the
 * group's codes.
 */
export function buildAcknowledgment(
  group: FunctionalGroup,
  results: { set: TransactionSet; errors: X12Error[] }[],
  groupErrors: X12Error[],
): string[][] {
  const body: string[][] = [['AK1', group.functionalId, group.controlNumber]];
  for (const { set, errors } of results) body.push(...setResponse(set, errors));
  const accepted = results.filter((r) => r.errors.length === 0).length;
  const declared = group.ge?.elements[0] ?? '';
  const included = /^\d{1,6}$/.test(declared) ? String(Number(declared)) : String(group.sets.length);
  const status = groupErrors.length > 0 || accepted === 0 ? 'R' : accepted < results.length ? 'P' : 'A';
  const groupCodes = unique(groupErrors.filter((e) => levelOfCode(e.code) === 'Group' && e.x12Code).map((e) => e.x12Code as string));
  body.push(['AK9', status, included, String(results.length), String(accepted), ...groupCodes]);
  return body;
}

function element(segment: Segment, n: number): string {
  return segment.elements[n - 1] ?? '';
}

function readError(level: X12ErrorLevel, x12Code: string, at: { segment: string; position: number; element: number | null }, message: string): X12Error {
  return { ...at, code: codeOfX12(level, x12Code) ?? `X12${level}Error`, message, x12Code };
}

/**
 * A received 997 read (docs/edi.md#acknowledgments): per AK1 group its sets (AK2..AK5, Accepted
 * when AK501 is `A` or `E`) with their errors from AK3/AK4/AK5, and the group's own status and
 * AK905 errors from AK9. A 997 may leave accepted sets out: a group Accepted without AK2
 * accepts every set of it.
 */
export function readAcknowledgment(set: TransactionSet): AcknowledgedGroup[] {
  const groups: AcknowledgedGroup[] = [];
  let group: AcknowledgedGroup | null = null;
  let current: AcknowledgedSet | null = null;
  let ak3: { segment: string; position: number; loopId: string; code: string; elements: number } | null = null;
  const flushAk3 = () => {
    if (current && ak3 && (ak3.code !== '8' || ak3.elements === 0)) {
      const at = { segment: ak3.segment, position: ak3.position, element: null };
      const error = readError('Segment', ak3.code || '8', at, `${ak3.segment} at position ${ak3.position} is in error`);
      current.errors.push(ak3.loopId ? { ...error, loopId: ak3.loopId } : error);
    }
    ak3 = null;
  };
  for (const segment of set.segments) {
    switch (segment.id) {
      case 'AK1':
        group = { groupControlNumber: element(segment, 2), functionalId: element(segment, 1), sets: [], status: 'Rejected', errors: [] };
        groups.push(group);
        break;
      case 'AK2':
        flushAk3();
        current = { setId: element(segment, 1), controlNumber: element(segment, 2), status: 'Rejected', errors: [] };
        group?.sets.push(current);
        break;
      case 'AK3':
        flushAk3();
        ak3 = { segment: element(segment, 1), position: Number(element(segment, 2)) || 0, loopId: element(segment, 3), code: element(segment, 4), elements: 0 };
        break;
      case 'AK4':
        if (current && ak3) {
          ak3.elements++;
          const position = Number(element(segment, 1).split(/\D/, 1)[0]) || null;
          const bad = element(segment, 4);
          const at = { segment: ak3.segment, position: ak3.position, element: position };
          const message = `${ak3.segment}${String(position ?? '').padStart(2, '0')} is in error${bad ? `: "${bad}"` : ''}`;
          const error = readError('Element', element(segment, 3), at, message);
          current.errors.push(ak3.loopId ? { ...error, loopId: ak3.loopId } : error);
        }
        break;
      case 'AK5':
        flushAk3();
        if (current) {
          const code = element(segment, 1);
          current.status = code === 'A' || code === 'E' ? 'Accepted' : 'Rejected';
          for (const x12Code of segment.elements.slice(1).filter(Boolean)) {
            current.errors.push(readError('Set', x12Code, { segment: 'ST', position: 1, element: null }, `the set is rejected (AK5 code ${x12Code})`));
          }
        }
        current = null;
        break;
      case 'AK9':
        flushAk3();
        if (group) {
          const code = element(segment, 1);
          group.status = code === 'A' || code === 'E' ? 'Accepted' : code === 'P' ? 'Partial' : 'Rejected';
          for (const x12Code of segment.elements.slice(4).filter(Boolean)) {
            group.errors.push(readError('Group', x12Code, { segment: 'GS', position: 0, element: null }, `the group is rejected (AK9 code ${x12Code})`));
          }
        }
        group = null;
        current = null;
        break;
    }
  }
  return groups;
}
