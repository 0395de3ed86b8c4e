/**
 * Operational measurements the core and the workers report without knowing who listens (the
 * Prometheus registry in adapters/metrics listens when the process serves metrics). Process
 * wide, like the registry; a no-op until something listens, so the hot paths pay one call.
 */
export interface Observations {
  /** A position batch written by the position writer: how many readings it held. */
  positionBatch(size: number): void;
  /** One webhook or visibility delivery attempt and its outcome (`success`, `failure`, `timeout`, `skipped`). */
  deliveryAttempt(outcome: string): void;
}

const noop: Observations = { positionBatch() {}, deliveryAttempt() {} };

let current: Observations = noop;

export function observations(): Observations {
  return current;
}

/** Sets the listener; `null` restores the no-op. */
export function setObservations(listener: Observations | null): void {
  current = listener ?? noop;
}
