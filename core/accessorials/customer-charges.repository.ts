import type { Db } from '../../db/create-db.js';

/** A customer accessorial as an invoice bills it: money in minor units, Quantity × 100. */
export interface CustomerCharge {
  tripId: string;
  description: string;
  typeName: string;
  quantityHundredths: number;
  rate: number;
  amount: number;
  currency: number;
}

/**
 * The customer's accessorials (not credits) on these trips of its tenant, detention included,
 * in the order they were dated (then recorded). Read over accessorials_trip_id_idx.
 */
export async function customerChargesOfTrips(db: Db, tenantId: string, customerId: string, tripIds: readonly string[]): Promise<CustomerCharge[]> {
  if (tripIds.length === 0) return [];
  const rows = await db
    .selectFrom('accessorials')
    .innerJoin('accessorial_types', 'accessorial_types.id', 'accessorials.accessorial_type_id')
    .select([
      'accessorials.trip_id',
      'accessorials.description',
      'accessorial_types.name as type_name',
      'accessorials.quantity_hundredths',
      'accessorials.rate',
      'accessorials.amount',
      'accessorials.currency',
    ])
    .where('accessorials.trip_id', 'in', [...tripIds])
    .where('accessorials.tenant_id', '=', tenantId)
    .where('accessorials.party', '=', 'Customer')
    .where('accessorials.type', '=', 'Accessorial')
    .where('accessorials.customer_id', '=', customerId)
    .orderBy('accessorials.date')
    .orderBy('accessorials.created_at')
    .orderBy('accessorials.id')
    .execute();
  return rows.map((row) => ({
    tripId: row.trip_id as string,
    description: row.description,
    typeName: row.type_name,
    quantityHundredths: Number(row.quantity_hundredths),
    rate: Number(row.rate),
    amount: Number(row.amount),
    currency: Number(row.currency),
  }));
}
