import type { Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { formatStoredDateTime } from '../../shared/datetime.js';
import { markAcknowledged } from '../document.repository.js';
import type { EdiPartner } from '../partner.repository.js';
import { readAcknowledgment, type TransactionSet, type X12Error } from '../x12/index.js';

/**
 * A partner's 997 marks what we sent it (docs/edi.md#inbound): each acknowledged group names
 * one of our documents by its control number (ISA13 = GS06 = ST02 of everything we send), which
 * becomes `Acknowledged`, or `Rejected` with the 997's errors when its set (or, without AK2, the
 * group) was rejected. A control number that names no document sent to the partner changes
 * nothing and is listed as a note (code UnknownControlNumber) on the Accepted set.
 */
export async function apply997(trx: Db, clock: Clock, options: { partner: EdiPartner; set: TransactionSet }): Promise<X12Error[]> {
  const { partner, set } = options;
  const now = formatStoredDateTime(clock.now());
  // AK1s in order, with their ordinals in the set (ST = 1): where a note points.
  const ak1Positions = set.segments.flatMap((segment, index) => (segment.id === 'AK1' ? [index + 1] : []));
  const notes: X12Error[] = [];
  const groups = readAcknowledgment(set);
  for (const [index, group] of groups.entries()) {
    const setErrors = group.sets.flatMap((acknowledged) => acknowledged.errors);
    const rejected = group.sets.length > 0 ? group.sets.some((acknowledged) => acknowledged.status === 'Rejected') : group.status === 'Rejected';
    const errors = group.sets.length > 0 ? setErrors : group.errors;
    const marked = await markAcknowledged(trx, partner.tenantId, partner.id, group.groupControlNumber, rejected ? 'Rejected' : 'Acknowledged', errors, now);
    if (!marked) {
      notes.push({
        segment: 'AK1',
        position: ak1Positions[index] ?? 1,
        element: 2,
        code: 'UnknownControlNumber',
        message: `AK1-02 ${group.groupControlNumber} names no document sent to this partner; nothing was marked.`,
      });
    }
  }
  return notes;
}
