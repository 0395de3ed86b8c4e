import { router } from '../trpc.js';
import { addTripStop } from './add-trip-stop.js';
import { assignTrip } from './assign-trip.js';
import { clearArrival } from './clear-arrival.js';
import { createTripReference } from './create-trip-reference.js';
import { deleteTripStop } from './delete-trip-stop.js';
import { dispatchTrip } from './dispatch-trip.js';
import { findTripStops } from './find-trip-stops.js';
import { findTrips } from './find-trips.js';
import { getStop } from './get-stop.js';
import { getTrip } from './get-trip.js';
import { recordArrival } from './record-arrival.js';
import { recordDeparture } from './record-departure.js';
import { reorderTripStops } from './reorder-trip-stops.js';
import { searchTrips } from './search-trips.js';
import { setAppointment } from './set-appointment.js';
import { setStopEta } from './set-stop-eta.js';
import { unassignTrip } from './unassign-trip.js';
import { updateTripReference } from './update-trip-reference.js';
import { updateTripStop } from './update-trip-stop.js';

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
  unassignTrip,
  addTripStop,
  updateTripStop,
  deleteTripStop,
  reorderTripStops,
  createTripReference,
  updateTripReference,
});
