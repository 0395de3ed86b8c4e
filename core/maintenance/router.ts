import { router } from '../trpc.js';
import { createMaintenance } from './create-maintenance.js';
import { getMaintenance } from './get-maintenance.js';
import { searchMaintenance } from './search-maintenance.js';
import { updateMaintenanceRecord } from './update-maintenance.js';

export const maintenanceRouter = router({ getMaintenance, searchMaintenance, createMaintenance, updateMaintenanceRecord });
