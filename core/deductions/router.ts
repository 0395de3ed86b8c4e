import { router } from '../trpc.js';
import { createDeduction } from './create-deduction.js';
import { deleteDeduction } from './delete-deduction.js';
import { getDeduction } from './get-deduction.js';
import { searchDeductions } from './search-deductions.js';

export const deductionsRouter = router({ getDeduction, searchDeductions, createDeduction, deleteDeduction });
