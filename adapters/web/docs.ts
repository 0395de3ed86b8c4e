import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../../core/config.js';
import { originOf } from '../http/cors.js';
import { sendStaticBody } from '../http/static-body.js';

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
<link rel="stylesheet" href="/docs/page.css">
</head>
<body>
<p id="documents">OpenAPI 3.1: <a href="/openapi.json">/openapi.json</a> (paths as the API reads them, <code>/api/p/v{version}/…</code>) ·
<a href="/openapi/v1.0.json">/openapi/v1.0.json</a> (version 1.0 fixed in the paths: generate clients from this one, so no call passes a version)</p>
<nav id="tags" aria-label="API sections"></nav>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

// The links to both documents (adapters/rest/openapi-fixed-version.ts serves the second), and
// the list of sections above Swagger UI (init.js fills it).
const pageCss = `#documents { max-width: 1460px; margin: 0 auto; padding: 12px 20px 0; box-sizing: border-box; font-family: sans-serif; font-size: 13px; color: #3b4151; }
#tags { display: flex; flex-wrap: wrap; gap: 6px; max-width: 1460px; margin: 0 auto; padding: 16px 20px 0; box-sizing: border-box; font-family: sans-serif; }
#tags a { padding: 4px 10px; border: 1px solid #d0d4da; border-radius: 14px; color: #3b4151; text-decoration: none; font-size: 13px; }
#tags a[aria-current="page"] { background: #3b4151; border-color: #3b4151; color: #fff; }
`;

/**
 * The page's script, in a file of its own so the page works under a Content-Security-Policy
 * without inline scripts. It loads the document, then:
 * - shows one tag at a time, picked from a list of the document's tags (and the webhook
 *   events) above Swagger UI, or from the deep link (`#/Loads/loads-findLoads`). Swagger UI
 *   reads an OpenAPI 3.1 document through ApiDOM, which converts the whole document again for
 *   every part it resolves; on the whole 1.9 MB document that took 15 to 50 s on a busy
 *   machine before the first operation appeared (docs/first-ten-minutes.md). One tag's
 *   operations with only the components they reach is a document of a few dozen KB. The
 *   document at /openapi.json stays whole.
 * - empties the client-credentials flow's scope list for the page alone: the token host gives
 *   a token every scope granted to the client whatever is asked (a `scope` only checks), so
 *   asking for none is what works and is true; a "select all" over the whole catalog would ask
 *   for scopes the client lacks (400 invalid_scope). Each operation still names its scopes.
 * - adds the `audience` the token host requires to the token request's form body, which
 *   Swagger UI does not send on its own.
 * The bearer scheme beside it takes a pasted token. Authorization survives a change of tag.
 */
function initScript(config: Config): string {
  const settings = { tokenUrl: `${config.publicAuthUrl}/oauth/token`, audience: config.audience };
  return `(function () {
  var settings = ${JSON.stringify(settings)};
  var EVENTS = 'Webhook events';
  function addAudience(request) {
    var isTokenRequest = String(request.method).toUpperCase() === 'POST' && String(request.url).split('?')[0] === settings.tokenUrl;
    if (isTokenRequest && typeof request.body === 'string' && !/(^|&)audience=/.test(request.body)) {
      request.body += (request.body ? '&' : '') + 'audience=' + encodeURIComponent(settings.audience);
    }
    return request;
  }
  function tagOf(operation) { return operation && operation.tags && operation.tags[0]; }
  function operationsOf(pathItem) {
    return Object.keys(pathItem).filter(function (key) { return pathItem[key] && pathItem[key].tags; });
  }
  // The components a part of the document reaches through $ref, transitively.
  function reached(full, roots) {
    var kept = {};
    var queue = roots.slice();
    while (queue.length) {
      var node = queue.pop();
      if (Array.isArray(node)) { queue.push.apply(queue, node); continue; }
      if (!node || typeof node !== 'object') continue;
      Object.keys(node).forEach(function (key) {
        var value = node[key];
        var match = key === '$ref' && typeof value === 'string' && value.indexOf('#/components/') === 0 && value.split('/');
        if (match) {
          var kind = match[2], name = match.slice(3).join('/').split('~1').join('/').split('~0').join('~');
          kept[kind] = kept[kind] || {};
          if (!kept[kind][name] && full.components[kind] && full.components[kind][name]) {
            kept[kind][name] = full.components[kind][name];
            queue.push(kept[kind][name]);
          }
        } else if (value && typeof value === 'object') queue.push(value);
      });
    }
    kept.securitySchemes = full.components.securitySchemes;
    return kept;
  }
  function partOf(full, tag) {
    var part = {};
    Object.keys(full).forEach(function (key) { if (key !== 'paths' && key !== 'webhooks' && key !== 'components') part[key] = full[key]; });
    part.paths = {};
    if (tag === EVENTS) {
      part.webhooks = full.webhooks;
    } else {
      Object.keys(full.paths).forEach(function (path) {
        var item = full.paths[path];
        var mine = operationsOf(item).filter(function (method) { return tagOf(item[method]) === tag; });
        if (!mine.length) return;
        part.paths[path] = {};
        Object.keys(item).forEach(function (key) {
          if (mine.indexOf(key) >= 0 || !item[key] || !item[key].tags) part.paths[path][key] = item[key];
        });
      });
    }
    part.tags = (full.tags || []).filter(function (t) { return t.name === tag; });
    part.components = reached(full, [part.paths, part.webhooks || {}]);
    return part;
  }
  function tagsOf(full) {
    var used = {};
    Object.keys(full.paths).forEach(function (path) {
      operationsOf(full.paths[path]).forEach(function (method) { used[tagOf(full.paths[path][method])] = true; });
    });
    var names = (full.tags || []).map(function (t) { return t.name; }).filter(function (name) { return used[name]; });
    Object.keys(used).forEach(function (name) { if (names.indexOf(name) < 0) names.push(name); });
    if (full.webhooks && Object.keys(full.webhooks).length) names.push(EVENTS);
    return names;
  }
  function tagInHash(names) {
    var first = decodeURIComponent((location.hash.split('/')[1] || '')).replace(/_/g, ' ');
    return names.indexOf(first) >= 0 ? first : null;
  }
  function renderNav(names, current) {
    var nav = document.getElementById('tags');
    nav.textContent = '';
    names.forEach(function (name) {
      var link = document.createElement('a');
      link.href = '#/' + encodeURIComponent(name);
      link.textContent = name;
      if (name === current) link.setAttribute('aria-current', 'page');
      nav.appendChild(link);
    });
  }
  fetch('/openapi.json').then(function (response) { return response.json(); }).then(function (full) {
    full.components.securitySchemes.oauth2.flows.clientCredentials.scopes = {};
    var names = tagsOf(full);
    var current = tagInHash(names) || names[0];
    renderNav(names, current);
    window.ui = SwaggerUIBundle({ spec: partOf(full, current), dom_id: '#swagger-ui', deepLinking: true, requestInterceptor: addAudience,
      docExpansion: 'list', defaultModelsExpandDepth: -1, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
    window.addEventListener('hashchange', function () {
      var next = tagInHash(names);
      if (!next || next === current) return;
      current = next;
      renderNav(names, current);
      window.ui.specActions.updateSpec(JSON.stringify(partOf(full, current)));
    });
  });
})();
`;
}

const cache = new Map<string, Buffer>();

/** Serves `/docs` and its assets; returns false when the path is not a docs path. */
export async function serveDocs(pathname: string, req: IncomingMessage, res: ServerResponse, config: Config): Promise<boolean> {
  const csp = contentSecurityPolicy(config);
  if (pathname === '/docs' || pathname === '/docs/') {
    send(res, csp, 'text/html; charset=utf-8', Buffer.from(page));
    return true;
  }
  if (pathname === '/docs/page.css') {
    send(res, csp, 'text/css; charset=utf-8', Buffer.from(pageCss));
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
  sendStaticBody(req, res, body, { 'Content-Type': type, 'Cache-Control': 'public, max-age=3600', 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' });
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
