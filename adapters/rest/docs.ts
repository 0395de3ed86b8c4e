import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Config } from '../../core/config.js';
import { originOf } from '../http/cors.js';

// The reference page is Swagger UI served from the swagger-ui-dist package: no CDN, works offline.
const require = createRequire(import.meta.url);
// absolute-path.js only, not the package index, which would load the whole UI bundle into the server.
const assetsDir: string = require('swagger-ui-dist/absolute-path.js')();

const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Waybill API reference</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

/**
 * The page's script, in a file of its own so the page works under a Content-Security-Policy
 * without inline scripts. It loads the document, then:
 * - empties the client-credentials flow's scope list for the page alone: the token host gives
 *   a token every scope granted to the client whatever is asked (a `scope` only checks), so
 *   asking for none is what works and is true; a "select all" over the whole catalog would ask
 *   for scopes the client lacks (400 invalid_scope). Each operation still names its scopes.
 * - adds the `audience` the token host requires to the token request's form body, which
 *   Swagger UI does not send on its own.
 * The bearer scheme beside it takes a pasted token.
 */
function initScript(config: Config): string {
  const settings = { tokenUrl: `${config.publicAuthUrl}/oauth/token`, audience: config.audience };
  return `(function () {
  var settings = ${JSON.stringify(settings)};
  function addAudience(request) {
    var isTokenRequest = String(request.method).toUpperCase() === 'POST' && String(request.url).split('?')[0] === settings.tokenUrl;
    if (isTokenRequest && typeof request.body === 'string' && !/(^|&)audience=/.test(request.body)) {
      request.body += (request.body ? '&' : '') + 'audience=' + encodeURIComponent(settings.audience);
    }
    return request;
  }
  fetch('/openapi.json').then(function (response) { return response.json(); }).then(function (spec) {
    spec.components.securitySchemes.oauth2.flows.clientCredentials.scopes = {};
    // Tags start collapsed and the schema list hidden: the document is large, and rendering
    // every operation and model up front makes the page slow to open.
    window.ui = SwaggerUIBundle({ spec: spec, dom_id: '#swagger-ui', deepLinking: true, requestInterceptor: addAudience,
      docExpansion: 'none', defaultModelsExpandDepth: -1, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
  });
})();
`;
}

const cache = new Map<string, Buffer>();

/** Serves `/docs` and its assets; returns false when the path is not a docs path. */
export async function serveDocs(pathname: string, res: ServerResponse, config: Config): Promise<boolean> {
  const csp = contentSecurityPolicy(config);
  if (pathname === '/docs' || pathname === '/docs/') {
    send(res, csp, 'text/html; charset=utf-8', Buffer.from(page));
    return true;
  }
  if (pathname === '/docs/init.js') {
    send(res, csp, 'text/javascript; charset=utf-8', Buffer.from(initScript(config)));
    return true;
  }
  const name = pathname.startsWith('/docs/') ? pathname.slice('/docs/'.length) : '';
  const type = assets[name];
  if (!type) return false;
  let body = cache.get(name);
  if (!body) {
    body = await readFile(join(assetsDir, name));
    cache.set(name, body);
  }
  send(res, csp, type, body, 'public, max-age=3600');
  return true;
}

/**
 * Scripts, styles and fonts from this host only; "Try it out" may call the API host (its
 * public origin, which may differ from the one the page was opened on) and Authorize the
 * token host.
 */
function contentSecurityPolicy(config: Config): string {
  const connect = ["'self'", originOf(config.publicBaseUrl), originOf(config.publicAuthUrl)].filter(Boolean);
  return `default-src 'self'; connect-src ${[...new Set(connect)].join(' ')}; img-src 'self' data:; style-src 'self' 'unsafe-inline'`;
}

function send(res: ServerResponse, csp: string, type: string, body: Buffer, cacheControl = 'no-cache'): void {
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': body.length,
    'Cache-Control': cacheControl,
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
