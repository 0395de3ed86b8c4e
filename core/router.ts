import { accessorialsRouter } from './accessorials/router.js';
import { assetsRouter } from './assets/router.js';
import { driverCreditsRouter } from './credits/router.js';
import { deductionsRouter } from './deductions/router.js';
import { documentsRouter } from './documents/router.js';
import { loadsRouter } from './loads/router.js';
import { maintenanceRouter } from './maintenance/router.js';
import { referenceDefinitionsRouter } from './reference-definitions/router.js';
import { settlementsRouter } from './settlements/router.js';
import { subsidiariesRouter } from './subsidiaries/router.js';
import { tripsRouter } from './trips/router.js';
import { tripWritesRouter } from './trips/trip-writes.router.js';
import { visibilityRouter } from './visibility/router.js';
import { webhooksRouter } from './webhooks/router.js';
import { createCallerFactory, router } from './trpc.js';

/**
 * Every procedure of the API. REST routes are registered in this order and the first match
 * wins, so literal paths (`/loads/search`) must come before parameterised ones.
 */
export const appRouter = router({
  subsidiaries: subsidiariesRouter,
  settlements: settlementsRouter,
  deductions: deductionsRouter,
  driverCredits: driverCreditsRouter,
  accessorials: accessorialsRouter,
  maintenance: maintenanceRouter,
  trips: tripsRouter,
  tripWrites: tripWritesRouter,
  loads: loadsRouter,
  referenceDefinitions: referenceDefinitionsRouter,
  documents: documentsRouter,
  webhooks: webhooksRouter,
  assets: assetsRouter,
  visibility: visibilityRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
