import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { EdiDocumentsTable } from '../../db/tables/edi.js';
import { inDateTimeRange } from '../shared/master-data-filters.js';
import { newRecordId } from '../shared/record-id.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { DOCUMENT_SETS, type TEdiDocument, type TFindEdiDocumentsInput } from './document.schemas.js';

/** An error a partner's 997 (or our checks) located in a set, stored with the document. */
export interface DocumentError {
  segment: string;
  position: number;
  element: number | null;
  code: string;
  message: string;
}

export type OutboundStatus = 'Pending' | 'Delivered' | 'Failed' | 'Acknowledged' | 'Rejected';

export type EdiDocumentRow = Selectable<EdiDocumentsTable>;

/** The sets an interchange may hold, in the order an inbound `set_id` lists them. */
const INBOUND_SET_ORDER: readonly string[] = DOCUMENT_SETS;

export const newEdiDocumentId = () => newRecordId('edd');

/** `set_id` of an inbound document: its distinct sets, comma-separated in a fixed order, so the Set filter matches by value. */
export function inboundSetList(sets: readonly string[]): string {
  const distinct = [...new Set(sets)];
  return distinct.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).join(',');
}

const rank = (set: string) => {
  const index = INBOUND_SET_ORDER.indexOf(set);
  return index === -1 ? INBOUND_SET_ORDER.length : index;
};

export interface InboundDocumentInput {
  /** From newEdiDocumentId(), so the stored answer can name it. */
  id: string;
  tenantId: string;
  subsidiaryId: string | null;
  partnerId: string;
  /** The set ids the interchange holds (ST01 of each set). */
  sets: readonly string[];
  /** ISA13 as received. */
  controlNumber: string;
  x12: string;
  json: unknown;
  /** The 200 answer, replayed to a repeat of the same control number. */
  answer: unknown;
  tenderId?: string | null;
  createdAt: string;
}

/**
 * Stores a received interchange (Status `Received`). False when the partner's control number
 * is already stored (a concurrent copy of the same interchange won): the caller rolls back and
 * answers the stored one.
 */
export async function insertInboundDocument(trx: Db, input: InboundDocumentInput): Promise<boolean> {
  const result = await trx
    .insertInto('edi_documents')
    .values(
      documentRow(input, {
        direction: 'Inbound',
        set_id: inboundSetList(input.sets),
        control_number: input.controlNumber,
        status: 'Received',
        answer_json: JSON.stringify(input.answer),
        tender_id: input.tenderId ?? null,
      }),
    )
    .onConflict((oc) => oc.columns(['tenant_id', 'partner_id', 'direction', 'control_number']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A new mailbox row: what every document has, then what its direction sets. */
function documentRow(
  input: { id: string; tenantId: string; subsidiaryId: string | null; partnerId: string; x12: string; json: unknown; createdAt: string },
  own: Pick<EdiDocumentRow, 'direction' | 'set_id' | 'control_number' | 'status'> & Partial<Pick<EdiDocumentRow, 'answer_json' | 'tender_id' | 'load_id' | 'invoice_id'>>,
): EdiDocumentRow {
  return {
    id: input.id,
    tenant_id: input.tenantId,
    subsidiary_id: input.subsidiaryId,
    partner_id: input.partnerId,
    x12: input.x12,
    json: JSON.stringify(input.json),
    errors_json: null,
    answer_json: null,
    tender_id: null,
    load_id: null,
    invoice_id: null,
    created_at: input.createdAt,
    updated_at: input.createdAt,
    ...own,
  };
}

/** A received interchange by the partner's ISA13, with the answer stored for its replays. */
export async function findInboundByControlNumber(
  db: Db,
  tenantId: string,
  partnerId: string,
  controlNumber: string,
): Promise<{ id: string; answer: unknown } | undefined> {
  const row = await db
    .selectFrom('edi_documents')
    .select(['id', 'answer_json'])
    .where('tenant_id', '=', tenantId)
    .where('partner_id', '=', partnerId)
    .where('direction', '=', 'Inbound')
    .where('control_number', '=', controlNumber)
    .executeTakeFirst();
  return row && { id: row.id, answer: row.answer_json === null ? null : (JSON.parse(row.answer_json) as unknown) };
}

/**
 * A partner's 997 marks the outbound document it acknowledges (its AK1-02 / AK2-02 is the
 * document's control number, docs/edi.md#acknowledgments). Answers the document's id, or
 * undefined when the partner was sent no document with that number.
 */
export async function markAcknowledged(
  trx: Db,
  tenantId: string,
  partnerId: string,
  controlNumber: string,
  status: 'Acknowledged' | 'Rejected',
  errors: readonly DocumentError[],
  updatedAt: string,
): Promise<string | undefined> {
  const row = await trx
    .updateTable('edi_documents')
    .set({
      status,
      errors_json: status === 'Rejected' ? JSON.stringify(errors.map(({ segment, position, element, code, message }) => ({ segment, position, element, code, message }))) : null,
      updated_at: updatedAt,
    })
    .where('tenant_id', '=', tenantId)
    .where('partner_id', '=', partnerId)
    .where('direction', '=', 'Outbound')
    .where('control_number', '=', String(Number(controlNumber)))
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export interface OutboundDocumentInput {
  id: string;
  tenantId: string;
  subsidiaryId: string | null;
  partnerId: string;
  set: string;
  controlNumber: number;
  x12: string;
  json: unknown;
  tenderId: string | null;
  loadId: string | null;
  invoiceId: string | null;
  createdAt: string;
}

/** Stores documents just emitted, in one statement, `Pending` until their delivery (or the partner's 997) says more. */
export async function insertOutboundDocuments(trx: Db, inputs: readonly OutboundDocumentInput[]): Promise<void> {
  if (inputs.length === 0) return;
  await trx
    .insertInto('edi_documents')
    .values(
      inputs.map((input) =>
        documentRow(input, {
          direction: 'Outbound',
          set_id: input.set,
          control_number: String(input.controlNumber),
          status: 'Pending',
          tender_id: input.tenderId,
          load_id: input.loadId,
          invoice_id: input.invoiceId,
        }),
      ),
    )
    .execute();
}

export function toEdiDocument(row: EdiDocumentRow): TEdiDocument {
  const errors = row.errors_json === null ? [] : (JSON.parse(row.errors_json) as DocumentError[]);
  return {
    Id: row.id,
    PartnerId: row.partner_id,
    Direction: row.direction as TEdiDocument['Direction'],
    Set: row.set_id,
    ControlNumber: row.control_number,
    Status: row.status as TEdiDocument['Status'],
    Errors: errors.map((error) => ({ Segment: error.segment, Position: error.position, Element: error.element, Code: error.code, Message: error.message })),
    CreatedAt: row.created_at,
    X12: row.x12,
    Json: JSON.parse(row.json) as unknown,
  };
}

export async function getDocumentRow(db: Db, scope: Scope, id: string): Promise<EdiDocumentRow | undefined> {
  return db.selectFrom('edi_documents').selectAll().where(inScope('edi_documents', scope)).where('id', '=', id).executeTakeFirst();
}

/**
 * Every stored `set_id` that holds `set`: the set alone (every outbound document) and each
 * inbound list with it, written in INBOUND_SET_ORDER by inboundSetList. An IN list of exact
 * values, so the filter stays a few ranges of `edi_documents_set_list_idx`.
 */
function setListsHolding(set: string): string[] {
  const others = INBOUND_SET_ORDER.filter((other) => other !== set);
  const lists: string[] = [];
  for (let mask = 0; mask < 1 << others.length; mask++) {
    lists.push(inboundSetList([set, ...others.filter((_, bit) => (mask & (1 << bit)) !== 0)]));
  }
  return lists;
}

/** Newest first, the id breaking ties: each filter has an index with the scope and this order (migration 0300). */
const DOCUMENT_ORDER = thenById('edi_documents', { column: 'created_at', type: 'text', desc: true });

export async function findDocuments(db: Db, scope: Scope, filter: TFindEdiDocumentsInput): Promise<PageOf<TEdiDocument>> {
  const conditions: Expression<SqlBool>[] = [
    inScope('edi_documents', scope),
    ...inDateTimeRange('edi_documents.created_at', { Start: filter.CreatedAtStart, End: filter.CreatedAtEnd }),
  ];
  if (filter.PartnerId !== undefined) conditions.push(sql<SqlBool>`${sql.ref('edi_documents.partner_id')} = ${filter.PartnerId}`);
  if (filter.Direction !== undefined) conditions.push(sql<SqlBool>`${sql.ref('edi_documents.direction')} = ${filter.Direction}`);
  if (filter.Status !== undefined) conditions.push(sql<SqlBool>`${sql.ref('edi_documents.status')} = ${filter.Status}`);
  if (filter.Set !== undefined) conditions.push(sql<SqlBool>`${sql.ref('edi_documents.set_id')} in (${sql.join(setListsHolding(filter.Set))})`);
  const query = db.selectFrom('edi_documents').where((eb) => eb.and(conditions));
  const page = await selectPage(db, query, { table: 'edi_documents', order: DOCUMENT_ORDER, page: filter });
  return { ...page, items: page.items.map(toEdiDocument) };
}

/**
 * Writes delivery outcomes on outbound documents, one UPDATE per outcome present. A partner's
 * 997 says more than a delivery, so Acknowledged and Rejected are never downgraded; a document
 * once Delivered stays Delivered when a later resend fails (the partner has it).
 */
export async function recordDeliveryOutcomes(trx: Db, outcomes: { delivered: readonly string[]; failed: readonly string[] }, updatedAt: string): Promise<void> {
  if (outcomes.delivered.length > 0) {
    await trx
      .updateTable('edi_documents')
      .set({ status: 'Delivered', updated_at: updatedAt })
      .where('id', 'in', outcomes.delivered)
      .where('status', 'in', ['Pending', 'Failed'])
      .execute();
  }
  if (outcomes.failed.length > 0) {
    await trx.updateTable('edi_documents').set({ status: 'Failed', updated_at: updatedAt }).where('id', 'in', outcomes.failed).where('status', '=', 'Pending').execute();
  }
}
