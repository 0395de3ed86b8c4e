import { accessorialsRouter } from './accessorials/router.js';
import { assetsRouter } from './assets/router.js';
import { carriersRouter } from './carriers/router.js';
import { checkCallsRouter } from './check-calls/router.js';
import { driverCreditsRouter } from './credits/router.js';
import { customersRouter } from './customers/router.js';
import { dispatchPreferencesRouter } from './dispatch-preferences/router.js';
import { ediInboundRouter } from './edi/inbound/router.js';
import { deductionsRouter } from './deductions/router.js';
import { documentsRouter } from './documents/router.js';
import { send210sOfInvoice } from './edi/outbound/send-210.js';
import { send214OfVisit } from './edi/outbound/send-214-of-visit.js';
import { send214OfTripWrite, send214sOfPositions } from './edi/outbound/send-214-in-transit.js';
import { send990OfAnswer } from './edi/outbound/send-990.js';
import { ediRouter } from './edi/router.js';
import { eventsRouter } from './events-feed/router.js';
import { followInvoiceCreation } from './invoices/invoice-events.js';
import { invoicesRouter } from './invoices/router.js';
import { fuelRouter } from './fuel/router.js';
import { followTenderAnswers } from './tenders/tender-events.js';
import { tendersRouter } from './tenders/router.js';
import { loadNotesRouter } from './load-notes/router.js';
import { loadFollowsItsTrip } from './loads/load-follows-trips.js';
import { loadsRouter } from './loads/router.js';
import { locationsRouter } from './locations/router.js';
import { maintenanceRouter } from './maintenance/router.js';
import { referenceDefinitionsRouter } from './reference-definitions/router.js';
import { settlementsRouter } from './settlements/router.js';
import { subsidiariesRouter } from './subsidiaries/router.js';
import { tollsRouter } from './tolls/router.js';
import { trackingRouter } from './tracking/router.js';
import { followStopVisits } from './trips/stop-visit.js';
import { followTripWrites } from './trips/trip-write.js';
import { tripsRouter } from './trips/router.js';
import { usersRouter } from './users/router.js';
import { followPositionBatches } from './visibility/commit-positions.js';
import { visibilityRouter } from './visibility/router.js';
import { visibilitySharesRouter } from './visibility-shares/router.js';
import { webhooksRouter } from './webhooks/router.js';
import { createCallerFactory, router } from './trpc.js';

/**
 * Every procedure of the API, by domain. The key order does not matter to REST: routes order
 * themselves by specificity (adapters/rest/routes.ts).
 */
export const appRouter = router({
  subsidiaries: subsidiariesRouter,
  settlements: settlementsRouter,
  deductions: deductionsRouter,
  driverCredits: driverCreditsRouter,
  accessorials: accessorialsRouter,
  maintenance: maintenanceRouter,
  trips: tripsRouter,
  loads: loadsRouter,
  referenceDefinitions: referenceDefinitionsRouter,
  documents: documentsRouter,
  webhooks: webhooksRouter,
  assets: assetsRouter,
  visibility: visibilityRouter,
  visibilityShares: visibilitySharesRouter,
  users: usersRouter,
  locations: locationsRouter,
  carriers: carriersRouter,
  customers: customersRouter,
  dispatchPreferences: dispatchPreferencesRouter,
  invoices: invoicesRouter,
  fuel: fuelRouter,
  tolls: tollsRouter,
  tenders: tendersRouter,
  ediInbound: ediInboundRouter,
  tracking: trackingRouter,
  loadNotes: loadNotesRouter,
  checkCalls: checkCallsRouter,
  events: eventsRouter,
  edi: ediRouter,
});

// Trips sit below loads, so the loads domain's answer to a trip write is handed to them here;
// and below EDI, whose 214 of a moved delivery ETA follows the same write.
followTripWrites(async (trx, clock, scope, before, after, now) => {
  await loadFollowsItsTrip(trx, clock, scope, before, after, now);
  await send214OfTripWrite(trx, clock, before, after);
});
// Outbound EDI (docs/edi.md#outbound-990): the domains below it hand it their changes.
followTenderAnswers(send990OfAnswer);
followStopVisits(send214OfVisit);
followPositionBatches(send214sOfPositions);
followInvoiceCreation(send210sOfInvoice);

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
