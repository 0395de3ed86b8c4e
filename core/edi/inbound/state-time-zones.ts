/**
 * The main IANA zone of each US state (with DC and Puerto Rico) and Canadian province: the
 * zone a 204 stop's local times are read in when its G62 says `LT` or nothing and the stop has
 * no coordinates (docs/edi.md#204-to-tender). A state spanning two zones gets the one most of
 * its people and freight live in (Texas: Central, Florida: Eastern, …).
 */
const US_STATES: Record<string, string> = {
  AL: 'America/Chicago', AK: 'America/Anchorage', AZ: 'America/Phoenix', AR: 'America/Chicago', CA: 'America/Los_Angeles',
  CO: 'America/Denver', CT: 'America/New_York', DE: 'America/New_York', DC: 'America/New_York', FL: 'America/New_York',
  GA: 'America/New_York', HI: 'Pacific/Honolulu', ID: 'America/Boise', IL: 'America/Chicago', IN: 'America/Indiana/Indianapolis',
  IA: 'America/Chicago', KS: 'America/Chicago', KY: 'America/New_York', LA: 'America/Chicago', ME: 'America/New_York',
  MD: 'America/New_York', MA: 'America/New_York', MI: 'America/Detroit', MN: 'America/Chicago', MS: 'America/Chicago',
  MO: 'America/Chicago', MT: 'America/Denver', NE: 'America/Chicago', NV: 'America/Los_Angeles', NH: 'America/New_York',
  NJ: 'America/New_York', NM: 'America/Denver', NY: 'America/New_York', NC: 'America/New_York', ND: 'America/Chicago',
  OH: 'America/New_York', OK: 'America/Chicago', OR: 'America/Los_Angeles', PA: 'America/New_York', RI: 'America/New_York',
  SC: 'America/New_York', SD: 'America/Chicago', TN: 'America/Chicago', TX: 'America/Chicago', UT: 'America/Denver',
  VT: 'America/New_York', VA: 'America/New_York', WA: 'America/Los_Angeles', WV: 'America/New_York', WI: 'America/Chicago',
  WY: 'America/Denver', PR: 'America/Puerto_Rico',
};

const CANADIAN_PROVINCES: Record<string, string> = {
  AB: 'America/Edmonton', BC: 'America/Vancouver', MB: 'America/Winnipeg', NB: 'America/Moncton', NL: 'America/St_Johns',
  NS: 'America/Halifax', ON: 'America/Toronto', PE: 'America/Halifax', QC: 'America/Toronto', SK: 'America/Regina',
  NT: 'America/Yellowknife', NU: 'America/Iqaluit', YT: 'America/Whitehorse',
};

/** The state's main zone, or null for a state (or country) this table does not know. */
export function stateTimeZone(state: string, country: string): string | null {
  const code = state.trim().toUpperCase();
  const land = country.trim().toUpperCase();
  if (land === 'US' || land === 'USA') return US_STATES[code] ?? null;
  if (land === 'CA' || land === 'CAN') return CANADIAN_PROVINCES[code] ?? null;
  return null;
}
