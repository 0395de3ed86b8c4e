/**
 * How an internal TypeScript app calls Waybill's procedures, fully typed, two ways:
 *
 * 1. In-process with `createCaller`: same procedures, schemas and errors as the REST API,
 *    no HTTP. The app supplies the principal it acts for.
 * 2. Remotely with the tRPC client over `/api/trpc` on the API host, with a bearer token from
 *    the token host (same tokens and scopes as REST).
 *
 * Run against `npm start` (demo data):  npx tsx examples/internal-app.ts
 */
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { createCaller, type AppRouter } from '../core/router.js';
import type { Principal } from '../core/trpc.js';
import { createDb, type Db } from '../db/create-db.js';

export async function listSubsidiariesInProcess(db: Db, principal: Principal) {
  const caller = createCaller({ db, clock: systemClock, config: loadConfig(), principal });
  const page = await caller.subsidiaries.findSubsidiaries({ PageSize: 10 });
  // `page` is typed: { Items: { Id: string; Name: string }[]; Page; PageSize; Total }
  return page.Items.map((subsidiary) => `${subsidiary.Id}: ${subsidiary.Name}`);
}

export function remoteClient(apiUrl: string, accessToken: string) {
  return createTRPCClient<AppRouter>({
    links: [httpBatchLink({ url: `${apiUrl}/api/trpc`, headers: { authorization: `Bearer ${accessToken}` } })],
  });
}

export async function getAccessToken(authUrl: string, clientId: string, clientSecret: string, audience: string): Promise<string> {
  const response = await fetch(`${authUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: clientId, client_secret: clientSecret, audience, grant_type: 'client_credentials' }),
  });
  if (!response.ok) throw new Error(`token request failed with ${response.status}`);
  const body = (await response.json()) as { access_token: string };
  return body.access_token;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const db = createDb(config.databaseUrl);
  try {
    const principal: Principal = { TenantId: 'tn_prairie', SubsidiaryId: null, ClientId: 'internal-example', Scopes: ['subsidiary:read'] };
    console.log('in-process:', await listSubsidiariesInProcess(db, principal));
  } finally {
    await db.destroy();
  }
  const token = await getAccessToken(config.publicAuthUrl, 'prairie-integration', 'demo-secret-prairie-all-0001', config.audience);
  const client = remoteClient(config.publicBaseUrl, token);
  const subsidiary = await client.subsidiaries.getSubsidiary.query({ id: 'sub_kc' });
  console.log('remote:', subsidiary.Id, subsidiary.Name);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
