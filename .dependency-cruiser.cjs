/**
 * Import rules for `npm run check:deps` (run in CI by .ci/run). They keep the layers of
 * docs/architecture.md apart: db below core, core below the adapters and workers. Which
 * domain's repository may issue SQL against a table is not an import question:
 * test/table-owners.test.ts checks every statement against db/table-owners.ts.
 *
 * Rules at severity 'warn' are broken today by code that another part of issue 26 moves, each
 * naming the change that makes it pass. Switch a rule to 'error' once it passes. Warnings are
 * printed but do not fail the check.
 */

/** Folders whose import circles another change of issue 26, or a later one, breaks. */
const domainsInKnownCircles = '^core/(fixtures|loads|trips)(/|$)';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle makes load order matter and hides which module is lower.',
      severity: 'error',
      from: { pathNot: '^workers/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-workers',
      comment:
        'workers/deliveries.ts, delivery-moves.ts and attempt-log.ts import each other. ' +
        'Fixed by the delivery branch (delivery SQL into core/webhooks); then fold this rule into no-circular.',
      severity: 'warn',
      from: { path: '^workers/' },
      to: { circular: true },
    },
    {
      name: 'no-circular-domains',
      comment: 'Two domains that import each other are one tangle; the shared piece belongs lower.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^core/', pathNot: domainsInKnownCircles },
      to: { circular: true, pathNot: domainsInKnownCircles },
    },
    {
      name: 'no-circular-domains-known',
      comment:
        'Circles through core/fixtures (domains import fixture.schemas.ts; fixed by the seeding branch) and ' +
        'between core/loads and core/trips (a trip write emits load.status.changed with the load snapshot, ' +
        'which core/loads assembles from trips). Merge into no-circular-domains once both are gone.',
      severity: 'warn',
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
      severity: 'warn',
      from: { path: '^core/', pathNot: '^core/webhooks/post-signed\\.ts$' },
      to: { dependencyTypes: ['core'], path: '^(node:)?https?$' },
    },
    {
      name: 'workers-do-not-import-adapters',
      comment:
        'Workers are loops over core. workers/idempotency-key-expiry.ts still imports ' +
        'adapters/http/idempotency-key-store.ts; fixed by the tenancy branch (the store moves into core).',
      severity: 'warn',
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
        'adapters/http is shared transport; REST, tRPC, the token host and the pages sit on it. ' +
        'api-host.ts, error-pages.ts, files.ts and tracking-page/ still import adapters/rest and ' +
        'adapters/trpc; fixed by the edge branch.',
      severity: 'warn',
      from: { path: '^adapters/http/' },
      to: { path: '^adapters/(rest|trpc|auth|web)/' },
    },
    {
      name: 'transports-do-not-import-each-other',
      comment:
        'REST, tRPC, the token host and the pages never import each other. adapters/trpc/server.ts ' +
        'still imports adapters/rest/validation.ts and adapters/rest/openapi.ts imports ' +
        'adapters/auth/openapi.ts; fixed by the edge branch.',
      severity: 'warn',
      from: { path: '^adapters/(rest|trpc|auth|web)/' },
      to: {
        path: '^adapters/(rest|trpc|auth|web)/',
        pathNot: '^adapters/$1/',
      },
    },
    {
      name: 'domains-do-not-import-seeding',
      comment:
        'Seeding (fixtures, the demo) imports the domains and is imported by none of them. ' +
        'Loads, trips, tenders, invoices and documents still import core/fixtures/fixture.schemas.ts; ' +
        'fixed by the seeding branch.',
      severity: 'warn',
      from: { path: '^core/', pathNot: '^core/(fixtures|seeding)/' },
      to: { path: '^(core/fixtures|core/seeding|seeding)/' },
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
