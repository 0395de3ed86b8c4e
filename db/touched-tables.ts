import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * Notes which tables the statements run through a Kysely instance made with it
 * (`trx.withPlugin(touched)`) may have changed: the target of every insert, update, delete and
 * merge, data-modifying CTEs included. A statement it cannot read (raw SQL, a target that is
 * not a plain table) counts as changing every table, so `mayHaveChanged` errs only towards yes.
 *
 * A trip write (core/trips/trip-write.ts) uses it to know, without being told by each
 * operation, whether the trip's stops and references it read before the write still hold
 * afterwards: on Postgres each read it skips is a round trip.
 */
export class TouchedTables implements KyselyPlugin {
  private readonly tables = new Set<string>();
  private anything = false;

  mayHaveChanged(table: string): boolean {
    return this.anything || this.tables.has(table);
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    this.note(node);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }

  private note(node: OperationNode): void {
    const query = node as OperationNode & { with?: { expressions: readonly { expression: OperationNode }[] } };
    for (const cte of query.with?.expressions ?? []) this.note(cte.expression);
    switch (node.kind) {
      case 'SelectQueryNode':
        return;
      case 'InsertQueryNode':
        return this.target((node as OperationNode & { into?: OperationNode }).into);
      case 'UpdateQueryNode':
        return this.target((node as OperationNode & { table?: OperationNode }).table);
      case 'MergeQueryNode':
        return this.target((node as OperationNode & { into?: OperationNode }).into);
      case 'DeleteQueryNode':
        for (const from of (node as OperationNode & { from: { froms: readonly OperationNode[] } }).from.froms) this.target(from);
        return;
      default:
        // Raw SQL and anything else: it may have changed any table.
        this.anything = true;
    }
  }

  private target(node: OperationNode | undefined): void {
    const table = node?.kind === 'AliasNode' ? (node as OperationNode & { node: OperationNode }).node : node;
    const name = table?.kind === 'TableNode' ? (table as OperationNode & { table: { identifier: { name: string } } }).table.identifier.name : undefined;
    if (name === undefined) this.anything = true;
    else this.tables.add(name);
  }
}
