/**
 * The nearest-rank percentile of ascending `sorted` (NaN when empty). A module of its own so
 * the load generators (bench/position-load.ts, in their own processes) use it without loading
 * the database code the rest of bench/big-tenant-server.ts needs.
 */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}
