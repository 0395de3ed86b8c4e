import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * Counts the statements run, by kind, and whether a transaction is open. A plugin sees every
 * builder (subqueries too) in `transformQuery`, but `transformResult` once per executed
 * statement: kinds are noted by query id in the first and counted in the second.
 */
export class StatementCounter implements KyselyPlugin {
  inTransaction = false;
  counts = new Map<string, number>();
  private kinds = new WeakMap<object, string>();
  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    let kind = node.kind.replace('QueryNode', '').toLowerCase();
    if ('with' in node && node.with) kind = `with…${kind}`;
    this.kinds.set(queryId, kind);
    return node;
  }
  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const key = `${this.inTransaction ? 'in transaction' : 'lookups'}: ${this.kinds.get(queryId) ?? 'raw'}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    return result;
  }
  take(): Map<string, number> {
    const taken = this.counts;
    this.counts = new Map();
    return taken;
  }
}
