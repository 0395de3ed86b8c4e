/** Migration 0340: what a partner's 214s last said of a load in transit (core/edi/outbound). */
export interface EdiLoadStatusTable {
  load_id: string;
  tenant_id: string;
  /** When the last `X6` (en route) 214 was sent (stored date-time). */
  en_route_sent_at: string | null;
  /** The delivery ETA the last `AG` 214 carried (stored date-time). */
  eta_sent: string | null;
}
