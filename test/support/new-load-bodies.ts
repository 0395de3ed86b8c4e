/** Bodies of POST /loads and POST /loads/{loadNumber}/trips for the load write tests. */

export const pickup = (overrides: Record<string, unknown> = {}) => ({
  $type: 'appointment',
  StopType: 'Pickup',
  ScheduleType: 'APPT',
  AppointmentDate: '2026-11-25T15:00:00Z',
  Address: { Street: '1 Main St', City: 'Kansas City', State: 'MO', ZipCode: '64105' },
  Coordinates: { Latitude: '39.0997', Longitude: '-94.5786' },
  ...overrides,
});

export const delivery = (overrides: Record<string, unknown> = {}) => ({
  $type: 'delivery_window',
  StopType: 'Delivery',
  ScheduleType: 'FCFS',
  StopWindow: { Begin: '2026-11-26T14:00:00Z', End: '2026-11-26T20:00:00Z' },
  Address: { Street: '9 Elm St', City: 'Wichita', State: 'KS', ZipCode: '67202' },
  ...overrides,
});

export const newTrip = (overrides: Record<string, unknown> = {}) => ({ Stops: [pickup(), delivery()], ...overrides });

export const newLoad = (overrides: Record<string, unknown> = {}) => ({ CustomerId: 'cus_heartland', Trips: [newTrip()], ...overrides });
