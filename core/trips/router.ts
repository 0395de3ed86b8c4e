import { router } from '../trpc.js';
import { assignTrip } from './assign-trip.js';
import { clearArrival } from './clear-arrival.js';
import { createTripReference } from './create-trip-reference.js';
import { dispatchTrip } from './dispatch-trip.js';
import { findTripStops } from './find-trip-stops.js';
import { findTrips } from './find-trips.js';
import { getStop } from './get-stop.js';
import { getTrip } from './get-trip.js';
import { recordArrival } from './record-arrival.js';
import { recordDeparture } from './record-departure.js';
import { searchTrips } from './search-trips.js';
import { setAppointment } from './set-appointment.js';
import { setStopEta } from './set-stop-eta.js';
import { updateTripReference } from './update-trip-reference.js';

/** Trips, their stops and their references: reads and writes. */
export const tripsRouter = router({
  getTrip,
  findTrips,
  searchTrips,
  findTripStops,
  getStop,
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
