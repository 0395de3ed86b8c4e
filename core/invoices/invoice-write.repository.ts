import { sql, type Insertable } from 'kysely';
import type { Db } from '../../db/create-db.js';
import type { InvoiceLineItemsTable, InvoicesTable } from '../../db/tables/invoices.js';
import { inScope, type Scope } from '../shared/scope.js';
import { invoiceInScope, type InvoiceRow } from './invoice.repository.js';

/**
 * Takes the tenant's invoice-number lock for the rest of the transaction (migration 0160): every
 * create takes it first, so an assigned Number and a chosen one never race. Answers the last
 * number assigned.
 */
export async function lockInvoiceNumbers(trx: Db, tenantId: string): Promise<number> {
  await trx.insertInto('invoice_numbers').values({ tenant_id: tenantId, last_number: 0 }).onConflict((oc) => oc.column('tenant_id').doNothing()).execute();
  const row = await trx
    .updateTable('invoice_numbers')
    .set({ last_number: sql<number>`last_number` })
    .where('tenant_id', '=', tenantId)
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

/**
 * The next free Number, `INV-<n>` with n one more than the highest `INV-<n>` of the tenant and
 * than the last one assigned (so a number is never handed out twice), recorded as assigned.
 * Call it under lockInvoiceNumbers, in the creating transaction.
 */
export async function assignInvoiceNumber(trx: Db, tenantId: string, last: number): Promise<string> {
  const highest = await trx
    .selectFrom('invoices')
    .select((eb) => eb.fn.max('number_value').as('highest'))
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  const next = Math.max(last, Number(highest?.highest ?? 0)) + 1;
  await trx.updateTable('invoice_numbers').set({ last_number: next }).where('tenant_id', '=', tenantId).execute();
  return `INV-${next}`;
}

/** Whether an invoice of the tenant (in any subsidiary: Numbers are unique per tenant) has this Number. */
export async function invoiceNumberTaken(trx: Db, tenantId: string, number: string): Promise<boolean> {
  const row = await trx.selectFrom('invoices').select('id').where('tenant_id', '=', tenantId).where('number', '=', number).executeTakeFirst();
  return row !== undefined;
}

/**
 * Which of `loadNumbers` an invoice of the tenant that is not Void bills (fixture invoices
 * included, whatever their subsidiary), in no particular order. Read over invoice_loads_load_idx.
 */
export async function loadsOnLiveInvoices(db: Db, tenantId: string, loadNumbers: readonly string[]): Promise<Set<string>> {
  if (loadNumbers.length === 0) return new Set();
  const rows = await db
    .selectFrom('invoice_loads')
    .innerJoin('invoices', 'invoices.id', 'invoice_loads.invoice_id')
    .select('invoice_loads.load_number')
    .where('invoice_loads.tenant_id', '=', tenantId)
    .where('invoice_loads.load_number', 'in', [...loadNumbers])
    .where('invoices.status', '!=', 'Void')
    .execute();
  return new Set(rows.map((row) => row.load_number));
}

export interface NewInvoiceRows {
  invoice: Insertable<InvoicesTable>;
  loadNumbers: readonly string[];
  lineItems: Array<Insertable<InvoiceLineItemsTable>>;
}

/**
 * Inserts an invoice created through the API with its loads, which it holds (migration 0160:
 * a load another live API invoice holds fails on invoice_loads_held_key), and its line items.
 */
export async function insertInvoice(trx: Db, rows: NewInvoiceRows): Promise<void> {
  const { invoice } = rows;
  await trx.insertInto('invoices').values(invoice).execute();
  await trx
    .insertInto('invoice_loads')
    .values(rows.loadNumbers.map((loadNumber, index) => ({ tenant_id: invoice.tenant_id, invoice_id: invoice.id, sequence: index + 1, load_number: loadNumber, holds_load: 1 })))
    .execute();
  if (rows.lineItems.length > 0) await trx.insertInto('invoice_line_items').values(rows.lineItems).execute();
}

/** Which unique index a failed insert met: the held-load key, the Number key, or neither (another error). */
export function uniqueIndexOf(error: unknown): 'load' | 'number' | undefined {
  const { code, constraint, message } = (error ?? {}) as { code?: string; constraint?: string; message?: string };
  if (code !== '23505' && code !== 'SQLITE_CONSTRAINT_UNIQUE') return undefined;
  const text = `${constraint ?? ''} ${message ?? ''}`;
  if (/invoice_loads_held_key|invoice_loads\.load_number/.test(text)) return 'load';
  if (/invoices_number_key|invoices\.number/.test(text)) return 'number';
  return undefined;
}

/**
 * Voids the invoice while it is Open, without payments, and at the version read, and releases
 * its loads; answers the row as written, or undefined (nothing written) when any of that no
 * longer holds.
 */
export async function voidInvoiceAtVersion(
  trx: Db,
  scope: Scope,
  row: Pick<InvoiceRow, 'id' | 'version'>,
  change: { reason: string | null; now: string },
): Promise<InvoiceRow | undefined> {
  const voided = await trx
    .updateTable('invoices')
    .set({ status: 'Void', void_reason: change.reason, version: row.version + 1, updated_at: change.now })
    .where(invoiceInScope(scope))
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .where('status', '=', 'Open')
    .where('payment_count', '=', 0)
    .where('amount_paid', '=', 0)
    .returningAll()
    .executeTakeFirst();
  if (!voided) return undefined;
  await trx
    .updateTable('invoice_loads')
    .set({ holds_load: 0 })
    .where(inScope('invoice_loads', scope, { subsidiaryColumn: null }))
    .where('invoice_id', '=', row.id)
    .execute();
  return voided;
}
