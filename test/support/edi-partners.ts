import type { Db } from '../../db/create-db.js';
import type { Config } from '../../core/config.js';
import { insertPartner, type EdiPartnerRow } from '../../core/edi/partner.repository.js';
import { sealSecret } from '../../core/webhooks/signing.js';

/** The secret every seeded partner signs with. */
export const SEEDED_PARTNER_SECRET = 'whsec_dGVzdC1wYXJ0bmVyLXNlY3JldC0wMTIzNDU2Nzg5YWI=';

/**
 * Trading partners with fixed ids, for tests that address one before any request runs (the
 * shared auth cases): `edp_kc` (cus_heartland, sub_kc), `edp_dal` (cus_lonestar, sub_dal),
 * `edp_harbor` (tenant tn_harbor).
 */
export async function seedPartners(db: Db, config: Config, now = '2026-11-22T12:00:00.000Z'): Promise<void> {
  const base = (id: string, tenantId: string, subsidiaryId: string, customerId: string, sender: string): EdiPartnerRow => ({
    id,
    tenant_id: tenantId,
    subsidiary_id: subsidiaryId,
    customer_id: customerId,
    name: `Partner ${sender}`,
    their_isa_qualifier: 'ZZ',
    their_isa_id: sender,
    their_gs_id: sender,
    our_isa_qualifier: 'ZZ',
    our_isa_id: 'WAYBILL',
    our_gs_id: 'WAYBILL',
    our_scac: 'WYBL',
    transactions: JSON.stringify(['204', '990', '214', '210']),
    outbound_url: null,
    usage_indicator: 'T',
    status: 'Active',
    secret_encrypted: sealSecret(config, 'edi-partner-secret', SEEDED_PARTNER_SECRET),
    last_control_number: 0,
    version: 1,
    created_at: now,
    updated_at: now,
  });
  await insertPartner(db, base('edp_kc', 'tn_prairie', 'sub_kc', 'cus_heartland', 'HEARTLANDKC'));
  await insertPartner(db, base('edp_dal', 'tn_prairie', 'sub_dal', 'cus_lonestar', 'LONESTAR'));
  await insertPartner(db, base('edp_harbor', 'tn_harbor', 'sub_harbor_main', 'cus_portco', 'PORTCO'));
}
