/**
 * The five route families of the accessorials table: accessorial charges (Rate > 0) for
 * drivers, customers and carriers, and credits (Rate < 0) for customers and carriers. Driver
 * credits are deductions (core/credits). A record is reachable only through its own family's
 * routes; any other family's route answers 404 (docs/api-rules.md#credits-and-accessorials).
 */
export type Party = 'Driver' | 'Customer' | 'Carrier';
export type ChargeType = 'Accessorial' | 'Credit';

export interface Family {
  party: Party;
  type: ChargeType;
  /** Path segment after /api/p/v{version}/, also the idempotency key family. */
  path: string;
  tag: 'Accessorials' | 'Credits';
  /** The body field naming the party. */
  partyField: 'DriverId' | 'CustomerId' | 'CarrierId';
  /** Singular noun for messages and summaries. */
  noun: string;
}

function family(party: Party, type: ChargeType): Family {
  const lower = party.toLowerCase();
  return {
    party,
    type,
    path: `${type === 'Credit' ? 'credits' : 'accessorials'}/${lower}`,
    tag: type === 'Credit' ? 'Credits' : 'Accessorials',
    partyField: `${party}Id`,
    noun: `${lower} ${type === 'Credit' ? 'credit' : 'accessorial'}`,
  };
}

export const FAMILIES = {
  driverAccessorial: family('Driver', 'Accessorial'),
  customerAccessorial: family('Customer', 'Accessorial'),
  carrierAccessorial: family('Carrier', 'Accessorial'),
  customerCredit: family('Customer', 'Credit'),
  carrierCredit: family('Carrier', 'Credit'),
} as const;

/** Accessorial charges are positive, credits negative (docs/api-rules.md#credits-and-accessorials). */
export function rateSignProblem(family: Family, rate: number): string | null {
  if (family.type === 'Accessorial') return rate > 0 ? null : 'The rate of an accessorial must be greater than zero.';
  return rate < 0 ? null : 'The rate of a credit must be less than zero (a signed negative amount).';
}
