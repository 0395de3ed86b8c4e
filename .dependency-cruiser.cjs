/**
 * Import rules for `npm run check:deps` (run in CI by .ci/run). They keep the layers of
 * docs/architecture.md apart: db below core, core below the adapters and workers. Which
 * domain's repository may issue SQL against a table is not an import question:
 * test/table-owners.test.ts checks every statement against db/table-owners.ts.
 */

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle makes load order matter and hides which module is lower.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-domains',
      comment: 'Two domains that import each other are one tangle; the shared piece belongs lower.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^core/' },
      to: { circular: true },
    },
    {
      name: 'db-is-the-bottom-layer',
      comment: 'db/ (schema, migrations, connections) never imports application code.',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: '^(core|adapters|workers|bin|seeding)/' },
    },
    {
      name: 'core-knows-no-transport',
      comment: 'core/ is the product; the adapters, workers and CLI sit on it, never under it.',
      severity: 'error',
      from: { path: '^core/' },
      to: { path: '^(adapters|workers|bin|seeding)/' },
    },
    {
      name: 'core-knows-no-http-server',
      comment:
        'core/ knows nothing about HTTP servers. core/webhooks/post-signed.ts is the one exception: it ' +
        'posts events to subscribers with node:http and node:https as a client, with keep-alive agents ' +
        'and a capped read of the answer, which is the webhooks domain\'s own behaviour.',
      severity: 'error',
      from: { path: '^core/', pathNot: '^core/webhooks/post-signed\\.ts$' },
      to: { dependencyTypes: ['core'], path: '^(node:)?https?$' },
    },
    {
      name: 'workers-do-not-import-adapters',
      comment:
        'Workers are loops and schedules over core; the SQL they run lives in the owning domain.',
      severity: 'error',
      from: { path: '^workers/' },
      to: { path: '^(adapters|bin)/' },
    },
    {
      name: 'adapters-do-not-import-workers',
      comment: 'Only the composition roots (adapters/app.ts and bin/) start workers.',
      severity: 'error',
      from: { path: '^adapters/', pathNot: '^adapters/app\\.ts$' },
      to: { path: '^(workers|bin)/' },
    },
    {
      name: 'http-imports-no-transport',
      comment:
        'adapters/http is shared transport; REST, tRPC, the token host and the pages sit on it ' +
        '(adapters/api-host.ts, above them all, wires them together).',
      severity: 'error',
      from: { path: '^adapters/http/' },
      to: { path: '^adapters/(rest|trpc|auth|web)/' },
    },
    {
      name: 'transports-do-not-import-each-other',
      comment:
        'REST, tRPC, the token host and the pages never import each other; what two of them share ' +
        'belongs in adapters/http.',
      severity: 'error',
      from: { path: '^adapters/(rest|trpc|auth|web)/' },
      to: {
        path: '^adapters/(rest|trpc|auth|web)/',
        pathNot: '^adapters/$1/',
      },
    },
    {
      name: 'domains-do-not-import-seeding',
      comment:
        'Seeding (fixtures, the demo) imports the domains and is imported by none of them; a ' +
        'domain\'s input shapes (a new load with its trips) live in that domain.',
      severity: 'error',
      from: { path: '^(core|adapters|workers|db)/' },
      to: { path: '^seeding/' },
    },
  ],
  options: {
    exclude: { path: '^(node_modules|test|examples|bench|scripts|clients)/' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
  },
};
