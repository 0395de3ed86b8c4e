import { router } from '../trpc.js';
import { createCustomer } from './create-customer.js';
import { deleteCustomer } from './delete-customer.js';
import { findCustomers } from './find-customers.js';
import { getCustomer } from './get-customer.js';
import { searchCustomers } from './search-customers.js';
import { updateCustomer } from './update-customer.js';

export const customersRouter = router({
  getCustomer,
  findCustomers,
  searchCustomers,
  createCustomer,
  updateCustomer,
  deleteCustomer,
});
