import type { KyselyPlugin, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';

/**
 * Counts the statements run through a Kysely instance made with it (`db.withPlugin(counter)`),
 * its transactions included. `transformResult` runs once per executed statement (a plugin sees
 * every builder, subqueries too, in `transformQuery`); BEGIN and COMMIT are not counted.
 */
export class StatementCount implements KyselyPlugin {
  count = 0;
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    return node;
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    this.count++;
    return result;
  }
}
