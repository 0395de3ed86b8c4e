/**
 * The document's global tag list, in the order an integrator learns the API: get a token,
 * read and move loads and trips, handle documents, follow assets, settle money, subscribe to
 * events; then the reference data. Swagger UI and other renderers group operations in this
 * order. Every tag an operation uses must be listed here (openapi-document.test.ts checks it,
 * so a branch that adds a tag finds out at merge).
 */
export const OPENAPI_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  {
    name: 'Authentication',
    description:
      'Every operation needs `Authorization: Bearer <token>`. Get the token from the token host with the OAuth 2.0 ' +
      'client-credentials grant (its own document is linked below); cache it for `expires_in` seconds.',
  },
  { name: 'Loads', description: 'Loads, their status (which follows their trips), and searches.' },
  { name: 'Trips', description: 'Trips of a load: assignment, dispatch, ETag-guarded writes, line items.' },
  { name: 'Stops', description: 'Arrival, departure, appointments and ETAs of a trip\'s stops; each write returns the trip\'s new ETag.' },
  { name: 'Load notes', description: 'Notes on a load, Internal or Public (Public ones appear on the customer tracking page); written once.' },
  { name: 'Check calls', description: "Status reports on a trip from the road: where the truck is, how it is going, the next stop's ETA." },
  { name: 'References', description: 'Custom references on trips, and the tenant\'s reference definitions.' },
  { name: 'Documents', description: 'Load, trip and carrier documents: lists, type changes and their history, signed download links.' },
  { name: 'Visibility', description: 'Asset positions and telemetry (record readings, read history and the latest location), and what each load shared with its customer and received.' },
  { name: 'Tracking', description: 'Tracking links: a page a shipper forwards to its customer, with the stops, the ETA and the last position.' },
  { name: 'Drivers', description: 'Drivers and their events.' },
  { name: 'Trucks', description: 'Trucks and their events.' },
  { name: 'Trailers', description: 'Trailers and their events.' },
  { name: 'Carrier Settlement Statements', description: 'What the tenant owes carriers, per statement.' },
  { name: 'Driver Settlement Statements', description: 'What the tenant owes drivers, per statement.' },
  { name: 'Deductions', description: 'One-off deductions from driver or truck settlements.' },
  { name: 'Credits', description: 'Credits to drivers, customers and carriers.' },
  { name: 'Accessorials', description: 'Accessorial charges for drivers, customers and carriers.' },
  { name: 'Invoices', description: 'Customer invoices and their payments.' },
  { name: 'Fuel', description: 'Fuel card transactions.' },
  { name: 'Tolls', description: 'Toll transactions.' },
  { name: 'Maintenance', description: 'Maintenance records of trucks and trailers, with driver chargebacks.' },
  {
    name: 'Webhooks',
    description:
      'Subscriptions, verification, test events, secrets, delivery logs and health. The payload of every event type is ' +
      'in the document\'s `webhooks` section.',
  },
  {
    name: 'Events',
    description:
      'The events feed: every event the subscriptions could receive, pulled in commit order with a cursor (and long polling), ' +
      'for integrations that cannot take webhooks or that mirror the tenant.',
  },
  { name: 'Tenders', description: 'Load tenders from customers: receive, accept (which creates the load), reject, cancel.' },
  {
    name: 'EDI',
    description:
      'X12 004010 with shippers, without middleware: trading partners, the mailbox of every interchange received and sent, ' +
      '204 tenders in; 990, 214, 210 and 997 out.',
  },
  { name: 'Customers', description: 'Customers and their invoicing details.' },
  { name: 'Carriers', description: 'Carriers and their insurance.' },
  { name: 'Locations', description: 'Shared locations (shippers, receivers, yards).' },
  { name: 'Users', description: 'Users of the tenant.' },
  { name: 'DispatchPreferences', description: 'Dispatch preferences of drivers and trucks.' },
  { name: 'Subsidiaries', description: 'The tenant\'s subsidiaries; a subsidiary-bound client sees only its own.' },
];
