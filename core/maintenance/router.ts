import { router } from '../trpc.js';
import { createMaintenance } from './create-maintenance.js';
import { getMaintenance } from './get-maintenance.js';
import { searchMaintenance } from './search-maintenance.js';
import { updateMaintenanceRecord } from './update-maintenance.js';

// Literal paths (`/search`) before parameterised ones.
export const maintenanceRouter = router({ searchMaintenance, createMaintenance, updateMaintenanceRecord, getMaintenance });
