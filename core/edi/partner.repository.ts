import type { Selectable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { EdiPartnersTable } from '../../db/tables/edi.js';

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
 * The partner's next outbound control number (ISA13 = GS06 = ST02), taken in the caller's
 * transaction: the increment locks the row (Postgres) or the database (SQLite) until it
 * commits, so two sends never share a number and a rolled-back send gives its number back.
 */
export async function takeControlNumber(trx: Db, tenantId: string, partnerId: string): Promise<number> {
  const row = await trx
    .updateTable('edi_partners')
    .set((eb) => ({ last_control_number: eb('last_control_number', '+', 1) }))
    .where('tenant_id', '=', tenantId)
    .where('id', '=', partnerId)
    .returning('last_control_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_control_number);
}
