import { router } from '../trpc.js';
import {
  createCarrierAccessorial,
  createCarrierCredit,
  createCustomerAccessorial,
  createCustomerCredit,
  createDriverAccessorial,
} from './create-accessorial.js';
import { getCarrierAccessorial, getCarrierCredit, getCustomerAccessorial, getCustomerCredit, getDriverAccessorial } from './get-accessorial.js';
import { listAccessorialTypes } from './list-accessorial-types.js';
import {
  updateCarrierAccessorial,
  updateCarrierCredit,
  updateCustomerAccessorial,
  updateCustomerCredit,
  updateDriverAccessorial,
} from './update-accessorial.js';

export const accessorialsRouter = router({
  listAccessorialTypes,
  createDriverAccessorial,
  createCustomerAccessorial,
  createCarrierAccessorial,
  createCustomerCredit,
  createCarrierCredit,
  getDriverAccessorial,
  getCustomerAccessorial,
  getCarrierAccessorial,
  getCustomerCredit,
  getCarrierCredit,
  updateDriverAccessorial,
  updateCustomerAccessorial,
  updateCarrierAccessorial,
  updateCustomerCredit,
  updateCarrierCredit,
});
