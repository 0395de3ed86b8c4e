/** The start banner of `npm start` (bin/start.ts). */

export interface Welcome {
  apiUrl: string;
  authUrl: string;
  metricsUrl: string | null;
  audience: string;
  /** The demo data's published client, when the database holds it (never in production). */
  client: { id: string; secret: string } | null;
  production: boolean;
  /** Production started on an empty database: nobody can get a token yet. */
  noTenants: boolean;
  /** WEB_CONCURRENCY: API processes sharing the two ports (the line is left out for 1). */
  workers?: number;
}

/** The start banner: where the hosts are and how to get a first token. */
export function welcome(w: Welcome): string {
  const lines = [
    '',
    `Waybill is running${w.production ? ' (NODE_ENV=production)' : ''}.`,
    `  API host:   ${w.apiUrl}   (REST under /api/p/v1.0/, docs at ${w.apiUrl}/docs, OpenAPI at ${w.apiUrl}/openapi.json, /healthz, /readyz)`,
    `  Token host: ${w.authUrl}   (POST /oauth/token, GET /.well-known/jwks.json)`,
    ...(w.metricsUrl ? [`  Metrics:    ${w.metricsUrl}/metrics   (Prometheus; keep this port private)`] : []),
    ...(w.workers && w.workers > 1 ? [`  Workers:    ${w.workers} API processes share these ports (WEB_CONCURRENCY)`] : []),
    '',
  ];
  if (w.noTenants) {
    lines.push(
      'The database is empty and no demo data was loaded (NODE_ENV=production loads only a SEED fixture).',
      'Create a tenant, a subsidiary and an API client with the operator CLI (the secret is printed once):',
      '  npm run admin -- tenant:create --id acme --name "Acme Freight"',
      '  npm run admin -- subsidiary:create --tenant acme --id acme-main --name "Acme Main"',
      '  npm run admin -- client:create --tenant acme --id acme-tms --scopes "load:read trip:read"',
      'or restart with SEED=<fixture.json> on the empty database. `npm run admin -- help` lists every command.',
      '',
    );
    return lines.join('\n') + '\n';
  }
  const id = w.client?.id ?? '<CLIENT_ID>';
  const secret = w.client?.secret ?? '<CLIENT_SECRET>';
  lines.push('Store a token in TOKEN (paste into bash):', `  ${tokenLine(w.authUrl, w.audience, id, secret)}`, '');
  lines.push('Then call the API with it:', `  curl -s ${w.apiUrl}/api/p/v1.0/subsidiaries -H "Authorization: Bearer $TOKEN"`, '');
  return lines.join('\n') + '\n';
}

/**
 * One shell line that asks the token host for a token and exports it as TOKEN. Only curl and
 * node (both on any machine that runs the server), no jq. Printed in the banner and run as is
 * by test/sandbox.test.ts.
 */
export function tokenLine(authUrl: string, audience: string, clientId: string, secret: string): string {
  const body = JSON.stringify({ client_id: clientId, client_secret: secret, audience, grant_type: 'client_credentials' });
  const pick = `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s).access_token??""))`;
  return `export TOKEN=$(curl -s -X POST ${authUrl}/oauth/token -H 'content-type: application/json' -d ${shellQuote(body)} | node -e ${shellQuote(pick)})`;
}

/** Single-quoted for bash, whatever the text holds. */
function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
