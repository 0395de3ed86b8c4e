import { router } from '../trpc.js';
import { findTripStops } from './find-trip-stops.js';
import { findTrips } from './find-trips.js';
import { getStop } from './get-stop.js';
import { getTrip } from './get-trip.js';
import { searchTrips } from './search-trips.js';

/** Trip and stop reads. Literal paths first: `/trips/search` must not be read as a trip id. */
export const tripsRouter = router({ searchTrips, findTrips, getTrip, findTripStops, getStop });
