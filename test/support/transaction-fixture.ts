import { testFixture } from '../harness.js';

/**
 * The test fixture plus another tenant's fuel and toll transactions, for the isolation cases
 * (the demo fixture keeps its harbor tenant without them).
 */
export function transactionFixture(): any {
  const fixture = testFixture();
  const harbor = fixture.Tenants.find((t: any) => t.Id === 'tn_harbor');
  harbor.FuelTransactions = [
    {
      Id: 'fuel_h1',
      TransactionId: 'WX-1',
      Source: 'WEX',
      TruckId: 'trk_h1',
      DriverId: 'drv_hal',
      FuelCardNumber: '5555 4444 3333 0007',
      Category: 'Diesel',
      Quantity: { Value: 80, UnitOfMeasure: 'Gallons' },
      PricePerUnit: { Amount: 3.9, Currency: 840 },
      FuelTotal: { Amount: 312, Currency: 840 },
      Total: { Amount: 312, Currency: 840 },
      TransactionDate: '2026-11-17T12:00:00Z',
    },
  ];
  harbor.TollTransactions = [
    { Id: 'toll_h1', TransactionId: 'EZ-1', Source: 'E-ZPass', TransponderId: 'EZ-55', TruckId: 'trk_h1', Amount: { Amount: 12, Currency: 840 }, TransactionDate: '2026-11-17T13:00:00Z' },
  ];
  return fixture;
}
