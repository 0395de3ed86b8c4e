import { AppError } from '../errors.js';
import { toMoney } from '../shared/money.js';
import { PAYABLE_STATUSES } from './invoice.schemas.js';
import type { InvoiceRow } from './invoice.repository.js';

/**
 * Why a payment the conditional update refused was refused, from the invoice as it is now. A
 * Paid or Void invoice is InvalidState whatever the amount (docs/api-rules.md#invoices: checked before the
 * balance); otherwise the amount was more than the remaining balance.
 */
export function paymentRefusal(invoice: InvoiceRow): AppError {
  if (!(PAYABLE_STATUSES as readonly string[]).includes(invoice.status)) {
    return new AppError('CONFLICT', `The invoice is ${invoice.status}: it takes no payment.`, {
      subtype: 'InvalidState',
      extensions: { CurrentStatus: invoice.status },
    });
  }
  const remaining = toMoney(invoice.total - invoice.amount_paid, invoice.currency);
  return new AppError('CONFLICT', `The amount is more than the remaining balance of ${remaining.Amount}.`, {
    subtype: 'Overpayment',
    extensions: { RemainingBalance: remaining },
  });
}
