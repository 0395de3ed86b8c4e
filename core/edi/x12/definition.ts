/**
 * The shape of a transaction set definition (one module per set under sets/), read by the one
 * generic checker in check-set.ts (docs/edi.md#envelope-checks).
 */

/** X12 element types: identifier, string, date CCYYMMDD, time HHMM[SS[d..]], integer, two implied decimals, decimal. */
export type ElementType = 'ID' | 'AN' | 'DT' | 'TM' | 'N0' | 'N2' | 'R';

/** M mandatory; O optional; X conditional (a syntax rule of the segment says when). */
export type Requirement = 'M' | 'O' | 'X';

export interface ElementDef {
  req: Requirement;
  type: ElementType;
  min: number;
  max: number;
  /** The data element reference number, reported in AK402. */
  ref: number;
  /** The code values accepted, where our mapping relies on them. */
  codes?: readonly string[];
  /** A composite: its first component is checked (e.g. AK401's element position). */
  composite?: boolean;
}

/**
 * X12 syntax notes of a segment, element positions 1-based: P paired (all or none), R at least
 * one, C conditional (if the first, then all the others), E at most one.
 */
export interface SyntaxRule {
  kind: 'P' | 'R' | 'C' | 'E';
  elements: readonly number[];
}

export interface SegmentSpec {
  id: string;
  elements: readonly ElementDef[];
  rules?: readonly SyntaxRule[];
}

export interface SegmentUse {
  segment: SegmentSpec;
  req: 'M' | 'O';
  max: number;
}

export interface LoopUse {
  /** The standard's loop identifier when known (AK303); the loop is named by its first segment. */
  loopId?: string;
  req: 'M' | 'O';
  max: number;
  /** The first is the segment that begins an occurrence of the loop. */
  items: readonly [SegmentUse, ...(SegmentUse | LoopUse)[]];
}

export type SetItem = SegmentUse | LoopUse;

export interface SetDefinition {
  id: string;
  functionalId: string;
  /** The segments between ST and SE. */
  items: readonly SetItem[];
}

export function isLoop(item: SetItem): item is LoopUse {
  return 'items' in item;
}

/** An element; `codes` narrows an ID element to the values our mapping relies on. */
export function el(req: Requirement, type: ElementType, min: number, max: number, ref: number, codes?: readonly string[]): ElementDef {
  return codes ? { req, type, min, max, ref, codes } : { req, type, min, max, ref };
}

/** A segment's use in a set. */
export function use(segment: SegmentSpec, req: 'M' | 'O', max: number): SegmentUse {
  return { segment, req, max };
}

/** A copy of a segment with some elements replaced (a set requiring what the standard leaves optional). */
export function withElements(segment: SegmentSpec, replaced: Record<number, ElementDef>): SegmentSpec {
  return {
    ...segment,
    elements: segment.elements.map((element, i) => replaced[i + 1] ?? element),
  };
}

export function loop(req: 'M' | 'O', max: number, items: LoopUse['items'], loopId?: string): LoopUse {
  return loopId ? { loopId, req, max, items } : { req, max, items };
}
