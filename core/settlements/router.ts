import { router } from '../trpc.js';
import { getCarrierStatement } from './get-carrier-statement.js';
import { getDriverStatement } from './get-driver-statement.js';
import { searchCarrierStatements } from './search-carrier-statements.js';
import { searchDriverStatements } from './search-driver-statements.js';

export const settlementsRouter = router({ getCarrierStatement, searchCarrierStatements, getDriverStatement, searchDriverStatements });
