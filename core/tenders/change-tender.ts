import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import { repointKey } from '../idempotency/idempotency.repository.js';
import { formatStoredDateTime } from '../shared/datetime.js';
import type { Scope } from '../shared/scope.js';
import { checkStopLocations, TENDER_KEY_FAMILY, tenderFingerprint, tenderKey, termValuesOf } from './receive-tender.js';
import { appendTenderEvent } from './tender-events.js';
import { invalidState } from './tender-moves.js';
import { termColumns } from './tender-rows.js';
import { moveTender, statusAt, toTender, type TenderRow } from './tender.repository.js';
import type { TTenderTerms } from './tender.schemas.js';

/**
 * Replaces what the sender states about a Pending tender (Rate, Equipment, References, Stops,
 * RespondBy), in the caller's transaction: an EDI 204 change (docs/edi.md#204-to-tender). Any
 * other status, including a Pending tender past its RespondBy (it reads Expired) or one a
 * concurrent answer moved first, throws 409 Conflict/InvalidState. The tender's idempotency
 * key then fingerprints the new terms, so a resend of the change answers the tender and a
 * resend of the original is the reuse it now is. Emits `tender.changed`.
 */
export async function changeTender(trx: Db, clock: Clock, options: { scope: Scope; row: TenderRow; terms: TTenderTerms }): Promise<TenderRow> {
  const { scope, row, terms } = options;
  const now = formatStoredDateTime(clock.now());
  const status = statusAt(row, now);
  if (status !== 'Pending') throw invalidState(status, 'changed');
  await checkStopLocations(trx, scope, terms);
  const changed = await moveTender(trx, row, 'Pending', now, termColumns(termValuesOf(terms)));
  if (!changed) throw invalidState('Pending', 'changed while another answer is made');
  await repointKey(trx, scope, {
    family: TENDER_KEY_FAMILY,
    key: tenderKey(changed.customer_id, changed.external_id),
    recordId: changed.id,
    fingerprint: tenderFingerprint(changed),
  });
  await appendTenderEvent(trx, clock, { tenantId: scope.tenantId, type: 'tender.changed', tender: toTender(changed, now) });
  return changed;
}
