import { router } from '../trpc.js';
import { assignTrip } from './assign-trip.js';
import { clearArrival } from './clear-arrival.js';
import { createTripReference } from './create-trip-reference.js';
import { dispatchTrip } from './dispatch-trip.js';
import { recordArrival } from './record-arrival.js';
import { recordDeparture } from './record-departure.js';
import { setAppointment } from './set-appointment.js';
import { setStopEta } from './set-stop-eta.js';
import { updateTripReference } from './update-trip-reference.js';

/** Writes to trips, their stops and their references (every path is parameterised, no literal clashes). */
export const tripWritesRouter = router({
  recordArrival,
  clearArrival,
  recordDeparture,
  setAppointment,
  setStopEta,
  assignTrip,
  dispatchTrip,
  createTripReference,
  updateTripReference,
});
