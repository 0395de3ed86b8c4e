import { testFixture } from '../harness.js';

/**
 * The test fixture plus money records the demo lacks: another tenant's statement, deductions
 * and credits (for the isolation cases), and statements that must read as 404 (Failed,
 * deleted).
 */
export function moneyFixture(): any {
  const fixture = testFixture();
  const prairie = fixture.Tenants.find((t: any) => t.Id === 'tn_prairie');
  const harbor = fixture.Tenants.find((t: any) => t.Id === 'tn_harbor');
  const statement = prairie.CarrierSettlementStatements[0];

  prairie.CarrierSettlementStatements.push(
    { ...statement, Number: 70002, Status: 'Failed', Trips: [], Payments: [] },
    { ...statement, Number: 70003, Status: 'Paid', IsDeleted: true, Trips: [], Payments: [] },
    { ...statement, Number: 70004, Status: 'Paid', SubsidiaryId: 'sub_kc', StatementDate: '2026-11-01T00:00:00Z', Trips: [], Payments: [] },
  );

  prairie.Deductions.push({
    Id: 'cr_ben_dal',
    Type: 'Credit',
    GroupId: 'grp_ben',
    Description: 'Layover',
    Category: 'Layover',
    Amount: { Amount: 80, Currency: 840 },
    Date: '2026-11-12T00:00:00Z',
    IsPaid: false,
    CreatedAt: '2026-11-12T00:00:00Z',
    DriverId: 'drv_ben',
  });

  prairie.DriverSettlementStatements.push({ Number: 80002, DriverId: 'drv_ben', Status: 'Processed', StatementDate: '2026-11-15T00:00:00Z' });
  harbor.DriverSettlementStatements = [{ Number: 89001, DriverId: 'drv_hal', Status: 'Open', StatementDate: '2026-11-15T00:00:00Z' }];

  harbor.Carriers.push({ Id: 'car_harbor', Name: 'Harbor Drayage', McNumber: null, DotNumber: null });
  harbor.AccessorialTypes = [{ Id: 'acc_harbor_chassis', Name: 'Chassis', AppliesTo: ['Driver', 'Customer', 'Carrier'] }];
  harbor.CarrierSettlementStatements.push({
    ...statement,
    Number: 79001,
    SubsidiaryId: 'sub_harbor_main',
    Payee: { Type: 'Carrier', Id: 'car_harbor', Name: 'Harbor Drayage', McNumber: null, DotNumber: null },
    Trips: [],
    Payments: [],
  });
  harbor.Deductions.push(
    {
      Id: 'ded_harbor',
      Type: 'Deduction',
      GroupId: 'grp_h1',
      Description: 'Harbor fuel advance',
      Category: 'Advance',
      Amount: { Amount: -50, Currency: 840 },
      Date: '2026-11-17T00:00:00Z',
      IsPaid: false,
      CreatedAt: '2026-11-17T10:00:00Z',
      DriverId: 'drv_hal',
      TruckId: null,
    },
    {
      Id: 'cr_harbor',
      Type: 'Credit',
      GroupId: 'grp_h2',
      Description: 'Harbor bonus',
      Category: 'Bonus',
      Amount: { Amount: 25, Currency: 840 },
      Date: '2026-11-17T00:00:00Z',
      IsPaid: false,
      CreatedAt: '2026-11-17T10:00:00Z',
      DriverId: 'drv_hal',
      TruckId: null,
    },
  );
  return fixture;
}
