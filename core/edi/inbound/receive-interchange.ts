import type { Db } from '../../../db/create-db.js';
import type { Clock } from '../../clock.js';
import { AppError } from '../../errors.js';
import { formatStoredDateTime } from '../../shared/datetime.js';
import { withSavepoint } from '../../shared/savepoint.js';
import type { Scope } from '../../shared/scope.js';
import type { Principal } from '../../trpc.js';
import { findInboundByControlNumber, insertInboundDocument, newEdiDocumentId } from '../document.repository.js';
import { findPartnerBySender, type EdiPartner } from '../partner.repository.js';
import { sendEdiDocument } from '../send-edi-document.js';
import {
  acknowledgeable,
  buildAcknowledgment,
  checkGroup,
  checkTransactionSet,
  interchangeJson,
  parseInterchange,
  type FunctionalGroup,
  type Interchange,
  type TransactionSet,
  type X12Error,
} from '../x12/index.js';
import { apply204, type SetOutcome } from './apply-204.js';
import { apply997 } from './apply-997.js';
import type { TInboundAnswer, TInboundTransaction } from './inbound.schemas.js';

/** The sets a partner may send us: 204s when its Transactions list them, 997s always. */
const RECEIVED_SETS = new Set(['204', '997']);

/** Thrown to roll back an interchange whose control number a concurrent copy stored first. */
class StoredMeanwhile extends Error {}

/**
 * Receives one interchange (docs/edi.md#inbound): the sender must be an Active partner of the
 * caller (422 otherwise); an ISA13 the partner already sent answers what the first copy
 * answered, byte for byte, and changes nothing. Otherwise every set is checked and, when clean,
 * applied in its own savepoint (a set that fails changes nothing, the others apply); each group
 * that holds more than 997s is acknowledged with a 997 sent to the partner; the interchange and
 * its answer are stored in the mailbox. All of it commits in one transaction: two copies posted
 * at once race for the mailbox's unique (partner, direction, control number), and the loser
 * rolls back and answers the winner's answer.
 */
export async function receiveInterchange(db: Db, clock: Clock, principal: Principal, scope: Scope, text: string): Promise<TInboundAnswer> {
  const parsed = parseInterchange(text);
  if (!parsed.ok) {
    throw new AppError('VALIDATION', `The body is not an X12 interchange: ${parsed.message}.`, { fieldErrors: { Interchange: [parsed.message] } });
  }
  const { interchange, envelopeErrors } = parsed;
  const partner = await senderOf(db, principal, interchange);
  const stored = await findInboundByControlNumber(db, partner.tenantId, partner.id, interchange.controlNumber);
  if (stored) return stored.answer as TInboundAnswer;
  try {
    return await db.transaction().execute(async (trx) => {
      const answer = await applyInterchange(trx, clock, { scope, partner, interchange, envelopeErrors });
      const inserted = await insertInboundDocument(trx, {
        id: answer.Id,
        tenantId: partner.tenantId,
        subsidiaryId: partner.subsidiaryId,
        partnerId: partner.id,
        sets: answer.Transactions.map((transaction) => transaction.Set),
        controlNumber: interchange.controlNumber,
        x12: text,
        json: interchangeJson(interchange),
        answer,
        tenderId: answer.Transactions.find((transaction) => transaction.TenderId !== null)?.TenderId ?? null,
        createdAt: formatStoredDateTime(clock.now()),
      });
      if (!inserted) throw new StoredMeanwhile();
      return answer;
    });
  } catch (error) {
    if (!(error instanceof StoredMeanwhile)) throw error;
    const winner = await findInboundByControlNumber(db, partner.tenantId, partner.id, interchange.controlNumber);
    if (!winner) throw error;
    return winner.answer as TInboundAnswer;
  }
}

/**
 * The partner ISA05/ISA06 names, when it is Active, of the caller's tenant (and subsidiary, for
 * a subsidiary-bound caller), and ISA07/ISA08 are our ids for it. One answer for every miss, so
 * a caller learns nothing about partners it may not see.
 */
async function senderOf(db: Db, principal: Principal, interchange: Interchange): Promise<EdiPartner> {
  const { sender, receiver } = interchange;
  const partner = await findPartnerBySender(db, principal.TenantId, sender.qualifier, sender.id);
  const known =
    partner !== undefined &&
    partner.status === 'Active' &&
    (principal.SubsidiaryId === null || partner.subsidiaryId === principal.SubsidiaryId) &&
    partner.our.isaQualifier === receiver.qualifier.trim() &&
    partner.our.isaId.trim() === receiver.id.trim();
  if (!known) {
    throw new AppError(
      'UNPROCESSABLE',
      `The sender ${sender.qualifier}/${sender.id} (ISA05/ISA06) is not an active trading partner of yours addressing ${receiver.qualifier}/${receiver.id} (ISA07/ISA08) as our ids.`,
      { subtype: 'UnknownPartner' },
    );
  }
  return partner;
}

interface Received {
  scope: Scope;
  partner: EdiPartner;
  interchange: Interchange;
  envelopeErrors: X12Error[];
}

async function applyInterchange(trx: Db, clock: Clock, received: Received): Promise<TInboundAnswer> {
  const { partner, interchange, envelopeErrors } = received;
  const transactions: TInboundTransaction[] = [];
  const acknowledgments: string[] = [];
  let setNumber = 0;
  for (const group of interchange.groups) {
    // An envelope in error (the interchange's or the group's) rejects every set it holds.
    const groupErrors = [...envelopeErrors, ...checkGroup(group)];
    const results: Array<{ set: TransactionSet; errors: X12Error[] }> = [];
    for (const set of group.sets) {
      const checked = [...groupErrors, ...checkTransactionSet(set, { functionalId: group.functionalId, component: interchange.separators.component }), ...exchangeErrors(partner, set)];
      const outcome = checked.length > 0 ? { errors: checked, tenderId: null, notes: [] as X12Error[] } : await applySet(trx, clock, received, set, `edi_set_${setNumber++}`);
      results.push({ set, errors: outcome.errors });
      transactions.push({
        Set: set.id,
        ControlNumber: set.controlNumber,
        Status: outcome.errors.length === 0 ? 'Accepted' : 'Rejected',
        Errors: [...outcome.errors, ...outcome.notes].map(({ segment, position, element, code, message }) => ({ Segment: segment, Position: position, Element: element, Code: code, Message: message })),
        TenderId: outcome.tenderId,
      });
    }
    if (acknowledges(group)) {
      const sent = await sendEdiDocument(trx, clock, { partner, set: '997', body: buildAcknowledgment(group, results, groupErrors) });
      acknowledgments.push(sent.x12);
    }
  }
  return {
    Id: newEdiDocumentId(),
    ControlNumber: interchange.controlNumber,
    Transactions: transactions,
    Acknowledgment: acknowledgments.length > 0 ? acknowledgments.join('') : null,
  };
}

/**
 * 997s are never acknowledged (X12): a group of nothing but 997s gets none. Nor does a group
 * whose GS01 or GS06 an AK1 cannot name; its sets are rejected by its own errors.
 */
function acknowledges(group: FunctionalGroup): boolean {
  return acknowledgeable(group) && (group.sets.length === 0 || group.sets.some((set) => set.id !== '997'));
}

/** A set the partner does not exchange with us: a 204 it was not set up for, or a set we only send. */
function exchangeErrors(partner: EdiPartner, set: TransactionSet): X12Error[] {
  const at = { segment: 'ST', position: 1, element: 1 };
  if (!RECEIVED_SETS.has(set.id)) {
    return [{ ...at, code: 'TransactionNotExchanged', message: `A ${set.id.slice(0, 10)} is not received here: partners send 204s and 997s.` }];
  }
  if (set.id === '204' && !partner.transactions.includes('204')) {
    return [{ ...at, code: 'TransactionNotExchanged', message: "The partner's Transactions do not include 204: its load tenders are not received." }];
  }
  return [];
}

/** One checked set applied in its own savepoint: rolled back when the application rejects it. */
async function applySet(trx: Db, clock: Clock, received: Received, set: TransactionSet, savepoint: string): Promise<SetOutcome & { notes: X12Error[] }> {
  return withSavepoint<SetOutcome & { notes: X12Error[] }>(trx, savepoint, async () => {
    if (set.id === '997') {
      const notes = await apply997(trx, clock, { partner: received.partner, set });
      return { keep: true, value: { errors: [], tenderId: null, notes } };
    }
    const outcome = await apply204(trx, clock, { scope: received.scope, partner: received.partner, set });
    return { keep: outcome.errors.length === 0, value: { ...outcome, notes: [] } };
  });
}
