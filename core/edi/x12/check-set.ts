import { checkSegmentElements } from './check-segment.js';
import { isSegmentId } from './check-element.js';
import { isLoop, type LoopUse, type SetDefinition, type SetItem } from './definition.js';
import { SET_DEFINITIONS } from './sets/index.js';
import type { Segment, TransactionSet, X12Error } from './types.js';
import { x12Error } from './x12-error.js';

/** Errors kept per set: enough to fix a document, while a hostile one cannot make a huge 997. */
export const MAX_SET_ERRORS = 100;

function firstId(item: SetItem): string {
  return isLoop(item) ? item.items[0].segment.id : item.segment.id;
}

function idsOf(items: readonly SetItem[], into: Set<string>): Set<string> {
  for (const item of items) {
    if (isLoop(item)) idsOf(item.items, into);
    else into.add(item.segment.id);
  }
  return into;
}

const KNOWN_IDS = new Map([...SET_DEFINITIONS.values()].map((d) => [d.id, idsOf(d.items, new Set())]));

interface Walk {
  body: readonly Segment[];
  /** The next segment of the body to match. */
  at: number;
  known: ReadonlySet<string>;
  errors: X12Error[];
  component: string | null;
}

/** Ordinal in the set (ST = 1) of the body's segment `at`, or of SE when the body is done. */
function positionOf(at: number): number {
  return at + 2;
}

function missing(walk: Walk, items: readonly SetItem[], counts: number[], from: number, loopId?: string): void {
  for (let k = from; k < items.length; k++) {
    const item = items[k];
    if (!item || item.req !== 'M' || (counts[k] ?? 0) > 0) continue;
    const id = firstId(item);
    const error = x12Error('MandatorySegmentMissing', id, positionOf(walk.at), null, `${id} is required here`);
    walk.errors.push(loopId ? { ...error, loopId } : error);
  }
}

function misplaced(walk: Walk, segment: Segment, loopId?: string): void {
  const position = positionOf(walk.at);
  const error = !isSegmentId(segment.id)
    ? x12Error('UnrecognizedSegment', segment.id.slice(0, 3), position, null, `"${segment.id.slice(0, 10)}" is not a segment id`)
    : walk.known.has(segment.id)
      ? x12Error('SegmentOutOfSequence', segment.id, position, null, `${segment.id} is not expected here`)
      : x12Error('SegmentNotInSet', segment.id, position, null, `${segment.id} is not a segment of this set`);
  walk.errors.push(loopId ? { ...error, loopId } : error);
}

/**
 * Matches the body from `walk.at` against a sequence of items, in order, each repeated up to its
 * maximum: the set's, or a loop's (`loop`) whose first segment was just consumed. A loop hands a
 * segment it does not hold back to its parent, which may begin the loop's next occurrence or a
 * later item; the set's level reports and skips what no item takes.
 */
function matchItems(walk: Walk, items: readonly SetItem[], loop: LoopUse | null): void {
  const loopId = loop?.loopId;
  const counts = items.map((_, k) => (k === 0 && loop ? 1 : 0));
  let i = 0;
  while (walk.at < walk.body.length && walk.errors.length < MAX_SET_ERRORS) {
    const segment = walk.body[walk.at] as Segment;
    // Within a loop its first segment again begins the next occurrence: the parent's to match.
    let j = loop ? Math.max(i, 1) : i;
    while (j < items.length && firstId(items[j] as SetItem) !== segment.id) j++;
    if (j === items.length) {
      if (loop && walk.known.has(segment.id)) break;
      misplaced(walk, segment, loopId);
      walk.at++;
      continue;
    }
    missing(walk, items.slice(0, j), counts, i + (counts[i] ? 1 : 0), loopId);
    i = j;
    const count = ++counts[j]!;
    const item = items[j] as SetItem;
    const position = positionOf(walk.at);
    const spec = isLoop(item) ? item.items[0].segment : item.segment;
    const inLoop = isLoop(item) ? item.loopId : loopId;
    if (count > item.max) {
      const code = isLoop(item) ? 'LoopOverMaximum' : 'SegmentOverMaximumUse';
      const error = x12Error(code, segment.id, position, null, `${segment.id} occurs more than ${item.max} times here`);
      walk.errors.push(inLoop ? { ...error, loopId: inLoop } : error);
    }
    for (const error of checkSegmentElements(segment, spec, position, walk.component)) {
      walk.errors.push(inLoop ? { ...error, loopId: inLoop } : error);
    }
    walk.at++;
    if (isLoop(item)) matchItems(walk, item.items, item);
  }
  missing(walk, items, counts, i + (counts[i] ? 1 : 0), loopId);
}

function checkBody(definition: SetDefinition, body: readonly Segment[], component: string | null): X12Error[] {
  const walk: Walk = { body, at: 0, known: KNOWN_IDS.get(definition.id) ?? new Set(), errors: [], component };
  matchItems(walk, definition.items, null);
  return walk.errors;
}

export interface SetContext {
  /** GS01 of the set's group: a set of another group is not supported there. */
  functionalId?: string;
  /** The interchange's component separator, for composite elements. */
  component?: string;
}

/**
 * ST/SE control numbers and segment count, then the set's definition: segment order, loops,
 * mandatory segments and elements, lengths, types, dates and times, code values the mapping
 * relies on (docs/edi.md#envelope-checks). At most MAX_SET_ERRORS errors.
 */
export function checkTransactionSet(set: TransactionSet, context: SetContext = {}): X12Error[] {
  const { segments } = set;
  const errors: X12Error[] = [];
  const definition = SET_DEFINITIONS.get(set.id);
  if (!definition) {
    errors.push(x12Error('SetNotSupported', 'ST', 1, 1, `transaction set ${set.id.slice(0, 10)} is not supported`));
  } else if (context.functionalId !== undefined && context.functionalId !== definition.functionalId) {
    errors.push(
      x12Error('SetNotSupported', 'ST', 1, 1, `a ${set.id} belongs in a ${definition.functionalId} group, not ${context.functionalId.slice(0, 10)}`),
    );
  }
  const control = set.controlNumber;
  if (control.length < 4 || control.length > 9) {
    errors.push(x12Error('InvalidSetControlNumber', 'ST', 1, 2, 'ST02 must be 4 to 9 characters'));
  }
  const last = segments[segments.length - 1];
  const hasTrailer = segments.length >= 2 && last?.id === 'SE';
  if (!hasTrailer || !last) {
    errors.push(x12Error('SetTrailerMissing', 'SE', segments.length + 1, null, `the ${set.id} set has no SE`));
  } else {
    const counted = last.elements[0] ?? '';
    if (counted !== String(segments.length) && Number(counted) !== segments.length) {
      errors.push(
        x12Error('SegmentCountMismatch', 'SE', segments.length, 1, `SE01 says ${counted.slice(0, 10) || 'nothing'}, the set has ${segments.length}`),
      );
    }
    if ((last.elements[1] ?? '') !== control) {
      errors.push(x12Error('SetControlNumberMismatch', 'SE', segments.length, 2, 'SE02 differs from ST02'));
    }
  }
  if (definition) {
    const body = segments.slice(1, hasTrailer ? -1 : undefined);
    errors.push(...checkBody(definition, body, context.component ?? null));
  }
  return errors.slice(0, MAX_SET_ERRORS);
}
