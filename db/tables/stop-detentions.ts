/** One row per arrived stop (migration 2026-11-27T0210; docs/api-rules.md#detention). */
export interface StopDetentionsTable {
  stop_id: string;
  tenant_id: string;
  /** The trip's subsidiary: the detention events are routed like trip events. */
  subsidiary_id: string | null;
  trip_id: string;
  load_number: string;
  /** The ArrivedAt the terms below were fixed for: a corrected arrival fixes them again. */
  arrived_at: string;
  /** Free time fixed when the arrival was recorded: the location's, else the customer's, else 120. */
  free_minutes: number;
  /** The later of ArrivedAt and the appointment (APPT) or window Begin (FCFS). */
  clock_start: string;
  /** clock_start + free_minutes: the Detention's StartedAt. */
  due_at: string;
  /** 1 once stop.detention.started was emitted: the stop reads a Detention from then on. */
  started: number;
  departed_at: string | null;
  /** The customer accessorial billed at departure, when the customer has a DetentionRate. */
  accessorial_id: string | null;
  created_at: string;
  updated_at: string;
}
