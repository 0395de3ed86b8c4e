import { codeOfX12, type X12ErrorLevel } from './error-codes.js';
import type { AcknowledgedGroup, AcknowledgedSet, Segment, TransactionSet, X12Error } from './types.js';

function element(segment: Segment, n: number): string {
  return segment.elements[n - 1] ?? '';
}

type Place = Pick<X12Error, 'segment' | 'position' | 'element'>;

function readError(level: X12ErrorLevel, x12Code: string, at: Place, message: string, loopId = ''): X12Error {
  const error = { ...at, code: codeOfX12(level, x12Code) ?? `X12${level}Error`, message, x12Code };
  return loopId ? { ...error, loopId } : error;
}

function accepted(code: string): boolean {
  return code === 'A' || code === 'E';
}

interface Ak3 {
  segment: string;
  position: number;
  loopId: string;
  code: string;
  /** Its AK4s so far: an AK3 with code 8 is told by them. */
  elements: number;
}

/** The state of a 997 read segment by segment: the group, set and AK3 being read. */
class AcknowledgmentReader {
  readonly groups: AcknowledgedGroup[] = [];
  private group: AcknowledgedGroup | null = null;
  private set: AcknowledgedSet | null = null;
  private ak3: Ak3 | null = null;

  read(segment: Segment): void {
    if (segment.id !== 'AK4') this.closeAk3();
    switch (segment.id) {
      case 'AK1':
        this.group = { groupControlNumber: element(segment, 2), functionalId: element(segment, 1), sets: [], status: 'Rejected', errors: [] };
        this.groups.push(this.group);
        break;
      case 'AK2':
        this.set = { setId: element(segment, 1), controlNumber: element(segment, 2), status: 'Rejected', errors: [] };
        this.group?.sets.push(this.set);
        break;
      case 'AK3':
        this.ak3 = {
          segment: element(segment, 1),
          position: Number(element(segment, 2)) || 0,
          loopId: element(segment, 3),
          code: element(segment, 4),
          elements: 0,
        };
        break;
      case 'AK4':
        this.readAk4(segment);
        break;
      case 'AK5':
        this.readAk5(segment);
        break;
      case 'AK9':
        this.readAk9(segment);
        break;
    }
  }

  /** An AK3 stands as an error of its own unless its AK4s told its element errors. */
  private closeAk3(): void {
    const { set, ak3 } = this;
    if (set && ak3 && (ak3.code !== '8' || ak3.elements === 0)) {
      const at = { segment: ak3.segment, position: ak3.position, element: null };
      set.errors.push(readError('Segment', ak3.code || '8', at, `${ak3.segment} at position ${ak3.position} is in error`, ak3.loopId));
    }
    this.ak3 = null;
  }

  private readAk4(segment: Segment): void {
    const { set, ak3 } = this;
    if (!set || !ak3) return;
    ak3.elements++;
    const position = Number(element(segment, 1).split(/\D/, 1)[0]) || null;
    const bad = element(segment, 4);
    const name = `${ak3.segment}${String(position ?? '').padStart(2, '0')}`;
    const at = { segment: ak3.segment, position: ak3.position, element: position };
    set.errors.push(readError('Element', element(segment, 3), at, `${name} is in error${bad ? `: "${bad}"` : ''}`, ak3.loopId));
  }

  private readAk5(segment: Segment): void {
    const { set } = this;
    if (set) {
      set.status = accepted(element(segment, 1)) ? 'Accepted' : 'Rejected';
      for (const x12Code of segment.elements.slice(1).filter(Boolean)) {
        const at = { segment: 'ST', position: 1, element: null };
        set.errors.push(readError('Set', x12Code, at, `the set is rejected (AK5 code ${x12Code})`));
      }
    }
    this.set = null;
  }

  private readAk9(segment: Segment): void {
    const { group } = this;
    if (group) {
      const code = element(segment, 1);
      group.status = accepted(code) ? 'Accepted' : code === 'P' ? 'Partial' : 'Rejected';
      for (const x12Code of segment.elements.slice(4).filter(Boolean)) {
        const at = { segment: 'GS', position: 0, element: null };
        group.errors.push(readError('Group', x12Code, at, `the group is rejected (AK9 code ${x12Code})`));
      }
    }
    this.group = null;
    this.set = null;
  }
}

/**
 * A received 997 read (docs/edi.md#acknowledgments): per AK1 group its sets (AK2..AK5, Accepted
 * when AK501 is `A` or `E`) with their errors from AK3/AK4/AK5, and the group's own status and
 * AK905 errors from AK9. A 997 may leave accepted sets out: a group Accepted without AK2
 * accepts every set of it.
 */
export function readAcknowledgment(set: TransactionSet): AcknowledgedGroup[] {
  const reader = new AcknowledgmentReader();
  for (const segment of set.segments) reader.read(segment);
  return reader.groups;
}
