/**
 * The subsidiaries an event about a record goes to (docs/api-rules.md#events): its own, or
 * every subscription of the tenant (null) when it has none. A record that moved between two
 * subsidiaries is announced to both; a move to or from no subsidiary to every subscription,
 * which saw it before or sees it now.
 */
export function subsidiaryRoutes(now: string | null, earlier: string | null = now): Array<string | null> {
  if (now === earlier) return [now];
  return now === null || earlier === null ? [null] : [earlier, now];
}
