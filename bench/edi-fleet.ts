/**
 * The EDI benchmarks' fleet: the position bench's fleet (bench/position-fleet.ts) with every load
 * tendered by its tenant's EDI partner exchanging 214s. The partners and tenders are written
 * straight into the seeded database: the fixture format has no EDI partners.
 */
import type { Db } from '../db/create-db.js';
import type { Fleet } from './position-fleet.js';

/** Each tenant's customer becomes a partner with 214, and each load the accepted tender of that partner. */
export async function tenderFleetFromPartners(db: Db, fleet: Fleet, options: { destroy: boolean }): Promise<number> {
  const now = '2026-11-21T12:00:00.000Z';
  let tenders = 0;
  try {
    for (const tenant of fleet.fixture.Tenants) {
      const customerId = tenant.Customers[0]!.Id;
      const partnerId = `edp_bench_${tenant.Id}`;
      await db
        .insertInto('edi_partners')
        .values({
          id: partnerId,
          tenant_id: tenant.Id,
          subsidiary_id: null,
          customer_id: customerId,
          name: `EDI ${tenant.Id}`,
          their_isa_qualifier: 'ZZ',
          their_isa_id: tenant.Id.slice(-15).toUpperCase(),
          their_gs_id: 'BENCHSHIPPER',
          our_isa_qualifier: 'ZZ',
          our_isa_id: 'BENCHCARRIER',
          our_gs_id: 'BENCHCARRIER',
          our_scac: 'BNCH',
          transactions: JSON.stringify(['204', '990', '214', '210']),
          outbound_url: null,
          usage_indicator: 'T',
          status: 'Active',
          secret_encrypted: 'unused: no OutboundUrl',
          last_control_number: 0,
          version: 1,
          created_at: now,
          updated_at: now,
        })
        .execute();
      const rows = (tenant.Loads ?? []).map((loadRow) => ({
        id: `tnd_bench_${loadRow.Id}`,
        tenant_id: tenant.Id,
        subsidiary_id: null,
        customer_id: customerId,
        external_id: `SHP-${loadRow.LoadNumber}`,
        status: 'Accepted',
        received_at: now,
        respond_by: null,
        responded_at: now,
        rejection_reason: null,
        load_id: loadRow.Id,
        load_number: loadRow.LoadNumber,
        rate_amount: 185000,
        rate_currency: 840,
        equipment: 'Dry Van',
        references_json: JSON.stringify([{ Name: 'PO Number', Value: `PO-${loadRow.LoadNumber}` }]),
        stops_json: '[]',
        edi_partner_id: partnerId,
        version: 2,
        created_at: now,
        updated_at: now,
      }));
      if (rows.length > 0) await db.insertInto('tenders').values(rows).execute();
      tenders += rows.length;
    }
  } finally {
    if (options.destroy) await db.destroy();
  }
  return tenders;
}

