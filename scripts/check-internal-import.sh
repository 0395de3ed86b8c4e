#!/usr/bin/env bash
# Checks the README's promise to internal apps from outside the repository: after `npm run build`,
# a consumer package in a temporary folder, with this repository as its `waybill` dependency
# (a symlink in its node_modules, as `npm install <path>` makes; offline), type-checks
# `import { createCaller } from 'waybill/core/router'` and the other entry points, and runs them
# against a migrated in-memory database.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$root/dist/core/router.d.ts" ] || { echo "dist/core/router.d.ts missing: run npm run build first"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/node_modules"
ln -s "$root" "$tmp/node_modules/waybill"
# The tRPC client an internal app installs beside it, for the remote half of the README's example.
ln -s "$root/node_modules/@trpc" "$tmp/node_modules/@trpc"
cat >"$tmp/package.json" <<'JSON'
{ "name": "waybill-consumer", "private": true, "type": "module" }
JSON
cat >"$tmp/tsconfig.json" <<JSON
{
  "compilerOptions": {
    "target": "ES2022", "module": "NodeNext", "moduleResolution": "NodeNext", "strict": true,
    "skipLibCheck": true, "outDir": "out", "typeRoots": ["$root/node_modules/@types"], "types": ["node"]
  },
  "include": ["app.ts"]
}
JSON
cat >"$tmp/app.ts" <<'TS'
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { systemClock } from 'waybill/core/clock';
import { loadConfig } from 'waybill/core/config';
import { AppError } from 'waybill/core/errors';
import { createCaller, type AppRouter } from 'waybill/core/router';
import type { Principal } from 'waybill/core/trpc';
import { createDb } from 'waybill/db/create-db';
import { migrateToLatest } from 'waybill/db/migrate';

const db = createDb('sqlite::memory:');
await migrateToLatest(db);
const principal: Principal = { TenantId: 'tn_internal', SubsidiaryId: null, ClientId: 'internal-app', Scopes: ['subsidiary:read'] };
const caller = createCaller({ db, clock: systemClock, config: loadConfig({}), principal });
const page: { Items: { Id: string; Name: string }[]; Total: number } = await caller.subsidiaries.findSubsidiaries({ PageSize: 10 });
// The types are the procedures' own, not `any`: misuse does not compile (an unused directive fails).
// @ts-expect-error a Name is a string
const wrongType: number | undefined = page.Items[0]?.Name;
// @ts-expect-error no such procedure
const noSuchProcedure = caller.subsidiaries.deleteEverything;
void wrongType, noSuchProcedure;
const missing = await caller.subsidiaries.getSubsidiary({ id: 'sub_missing' }).catch((error: unknown) => error);
if (!(missing instanceof AppError) || missing.appCode !== 'NOT_FOUND') throw new Error(`expected a NOT_FOUND AppError, got ${String(missing)}`);
await db.destroy();

// Over HTTP with the router's type (not called: the check stays offline).
const client = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: 'http://127.0.0.1:9/api/trpc' })] });
const remote: () => Promise<{ Id: string; Name: string }> = () => client.subsidiaries.getSubsidiary.query({ id: 'sub_kc' });
void remote;
console.log(`ok: waybill/core/router from dist (${page.Total} subsidiaries, a missing one is NOT_FOUND)`);
TS

cd "$tmp"
node "$root/node_modules/typescript/bin/tsc" -p tsconfig.json
node out/app.js
