import { router } from '../trpc.js';
import { findInvoices } from './find-invoices.js';
import { createInvoice } from './create-invoice.js';
import { getInvoice } from './get-invoice.js';
import { recordPayment } from './record-payment.js';
import { searchInvoices } from './search-invoices.js';
import { voidInvoice } from './void-invoice.js';

export const invoicesRouter = router({
  getInvoice,
  findInvoices,
  searchInvoices,
  recordPayment,
  createInvoice,
  voidInvoice,
});
