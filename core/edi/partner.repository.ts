import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { EdiPartnersTable } from '../../db/tables/edi.js';
import { AppError } from '../errors.js';
import { etagOf } from '../shared/etag.js';
import { inScope, type Scope } from '../shared/scope.js';
import type { PageOf, TPageRequest } from '../shared/search-page.js';
import { selectPage, thenById } from '../shared/select-page.js';
import { updateAtVersion } from '../shared/update-at-version.js';
import type { TEdiPartner } from './partner.schemas.js';

export type EdiPartnerRow = Selectable<EdiPartnersTable>;

/** A trading partner as the EDI code uses it (docs/edi.md#trading-partners); ISA ids trimmed. */
export interface EdiPartner {
  id: string;
  tenantId: string;
  subsidiaryId: string | null;
  customerId: string;
  name: string;
  their: { isaQualifier: string; isaId: string; gsId: string };
  our: { isaQualifier: string; isaId: string; gsId: string; scac: string };
  transactions: string[];
  outboundUrl: string | null;
  usageIndicator: 'P' | 'T';
  status: 'Active' | 'Inactive';
}

export function toEdiPartner(row: EdiPartnerRow): EdiPartner {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    subsidiaryId: row.subsidiary_id,
    customerId: row.customer_id,
    name: row.name,
    their: { isaQualifier: row.their_isa_qualifier, isaId: row.their_isa_id, gsId: row.their_gs_id },
    our: { isaQualifier: row.our_isa_qualifier, isaId: row.our_isa_id, gsId: row.our_gs_id, scac: row.our_scac },
    transactions: JSON.parse(row.transactions) as string[],
    outboundUrl: row.outbound_url,
    usageIndicator: row.usage_indicator as EdiPartner['usageIndicator'],
    status: row.status as EdiPartner['status'],
  };
}

/**
 * The partner an inbound interchange names as its sender (ISA05/ISA06, the id trimmed), of any
 * status: the caller decides what an Inactive one means.
 */
export async function findPartnerBySender(db: Db, tenantId: string, qualifier: string, isaId: string): Promise<EdiPartner | undefined> {
  const row = await db
    .selectFrom('edi_partners')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('their_isa_qualifier', '=', qualifier)
    .where('their_isa_id', '=', isaId.trim())
    .executeTakeFirst();
  return row && toEdiPartner(row);
}

/** A partner of the tenant by id, for server-side work (followers, the dispatcher); no subsidiary filter. */
export async function getPartnerById(db: Db, tenantId: string, partnerId: string): Promise<EdiPartner | undefined> {
  const row = await db.selectFrom('edi_partners').selectAll().where('tenant_id', '=', tenantId).where('id', '=', partnerId).executeTakeFirst();
  return row && toEdiPartner(row);
}

/**
 * The partners' next outbound control numbers (ISA13 = GS06 = ST02), `count` of them each, taken
 * in the caller's transaction by one UPDATE: the increment locks the rows (Postgres) or the
 * database (SQLite) until it commits, so two sends never share a number and a rolled-back send
 * gives its numbers back. Answers each partner's first number; its others follow in order.
 * Partners in id order, so two takers lock them in the same order and never deadlock. Server
 * side (followers of a position batch span tenants): each partner is named with its tenant, and
 * one of another tenant is a defect, thrown.
 */
export async function takeControlNumbers(
  trx: Db,
  counts: ReadonlyMap<string, { tenantId: string; count: number }>,
): Promise<Map<string, number>> {
  const ids = [...counts.keys()].sort();
  if (ids.length === 0) return new Map();
  const step = sql<number>`case ${sql.ref('id')} ${sql.join(
    ids.map((id) => sql`when ${id} then cast(${counts.get(id)!.count} as integer)`),
    sql` `,
  )} end`;
  const rows = await trx
    .updateTable('edi_partners')
    .set((eb) => ({ last_control_number: eb('last_control_number', '+', step) }))
    .where('id', 'in', ids)
    .where('tenant_id', 'in', [...new Set(ids.map((id) => counts.get(id)!.tenantId))])
    .returning(['id', 'tenant_id', 'last_control_number'])
    .execute();
  const first = new Map<string, number>();
  for (const row of rows) {
    const taken = counts.get(row.id)!;
    if (row.tenant_id === taken.tenantId) first.set(row.id, Number(row.last_control_number) - taken.count + 1);
  }
  if (first.size !== ids.length) throw new Error('A partner sent to is not of its tenant');
  return first;
}

/** The API shape (docs/edi.md#trading-partners); the secret is never part of it. */
export function toPartnerResource(row: EdiPartnerRow): TEdiPartner {
  return {
    Id: row.id,
    Name: row.name,
    CustomerId: row.customer_id,
    Their: { IsaQualifier: row.their_isa_qualifier, IsaId: row.their_isa_id, GsId: row.their_gs_id },
    Our: { IsaQualifier: row.our_isa_qualifier, IsaId: row.our_isa_id, GsId: row.our_gs_id, Scac: row.our_scac },
    Transactions: JSON.parse(row.transactions) as TEdiPartner['Transactions'],
    OutboundUrl: row.outbound_url,
    UsageIndicator: row.usage_indicator as TEdiPartner['UsageIndicator'],
    Status: row.status as TEdiPartner['Status'],
    CreatedAt: row.created_at,
    UpdatedAt: row.updated_at,
  };
}

export const partnerEtag = (row: Pick<EdiPartnerRow, 'id' | 'version'>) => etagOf(row.id, row.version);

/** A partner the caller may see: its tenant's, and for a subsidiary-bound caller only its subsidiary's (a partner of no subsidiary is tenant-wide). */
export async function getPartnerRow(db: Db, scope: Scope, id: string): Promise<EdiPartnerRow | undefined> {
  return db.selectFrom('edi_partners').selectAll().where(inScope('edi_partners', scope)).where('id', '=', id).executeTakeFirst();
}

/** Newest first, the id breaking ties: one range of `edi_partners_list_idx` or `_subsidiary_list_idx`. */
const PARTNER_ORDER = thenById('edi_partners', { column: 'created_at', type: 'text', desc: true });

export async function findPartners(db: Db, scope: Scope, page: TPageRequest): Promise<PageOf<TEdiPartner>> {
  const query = db.selectFrom('edi_partners').where(inScope('edi_partners', scope));
  const found = await selectPage(db, query, { table: 'edi_partners', order: PARTNER_ORDER, page });
  return { ...found, items: found.items.map(toPartnerResource) };
}

export async function insertPartner(trx: Db, row: Insertable<EdiPartnersTable>): Promise<void> {
  await trx.insertInto('edi_partners').values(row).execute();
}

/** Writes `changes` and the next version to the partner in scope still at the version read; answers whether it wrote. */
export async function updatePartnerAtVersion(trx: Db, scope: Scope, row: EdiPartnerRow, changes: Updateable<EdiPartnersTable>): Promise<boolean> {
  return updateAtVersion(trx, 'edi_partners', scope, row, changes);
}

function duplicateSender(qualifier: string, isaId: string): AppError {
  return new AppError('CONFLICT', `Another trading partner of the tenant sends as ${qualifier}/${isaId} (Their.IsaQualifier, Their.IsaId).`, {
    subtype: 'Duplicate',
    extensions: { Field: 'Their.IsaId' },
  });
}

/**
 * 409 Conflict/Duplicate when another partner of the tenant has these sender ids: an inbound
 * interchange must name one partner. A concurrent write that slips past it ends on the unique
 * index (`duplicateSenderFromConstraint`).
 */
export async function refuseDuplicateSender(trx: Db, tenantId: string, their: { qualifier: string; isaId: string }, exceptId?: string): Promise<void> {
  let query = trx
    .selectFrom('edi_partners')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('their_isa_qualifier', '=', their.qualifier)
    .where('their_isa_id', '=', their.isaId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  if (await query.executeTakeFirst()) throw duplicateSender(their.qualifier, their.isaId);
}

/** The 409 of the sender index a concurrent write won, or undefined for any other error. */
export function duplicateSenderFromConstraint(error: unknown, their: { qualifier: string; isaId: string }): AppError | undefined {
  const { code, constraint, message } = (error ?? {}) as { code?: string; constraint?: string; message?: string };
  const unique = code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
  if (unique && /edi_partners_sender_key|edi_partners\.their_isa/.test(`${constraint ?? ''} ${message ?? ''}`)) return duplicateSender(their.qualifier, their.isaId);
  return undefined;
}

/** Every partner of a tenant, newest first, for the operator CLI. */
export async function listTenantPartners(db: Db, tenantId: string): Promise<EdiPartnerRow[]> {
  return db.selectFrom('edi_partners').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at', 'desc').orderBy('id').execute();
}
