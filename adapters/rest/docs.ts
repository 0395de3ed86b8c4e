import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';

// The reference page is Swagger UI served from the swagger-ui-dist package: no CDN, works offline.
const require = createRequire(import.meta.url);
// absolute-path.js only, not the package index, which would load the whole UI bundle into the server.
const assetsDir: string = require('swagger-ui-dist/absolute-path.js')();

const assets: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
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
<script src="/docs/swagger-ui-standalone-preset.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>`;

// Kept in a file of its own so the page works under a Content-Security-Policy without inline scripts.
const init = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' });`;

const cache = new Map<string, Buffer>();

/** Serves `/docs` and its assets; returns false when the path is not a docs path. */
export async function serveDocs(pathname: string, res: ServerResponse): Promise<boolean> {
  if (pathname === '/docs' || pathname === '/docs/') {
    send(res, 'text/html; charset=utf-8', Buffer.from(page));
    return true;
  }
  if (pathname === '/docs/init.js') {
    send(res, 'text/javascript; charset=utf-8', Buffer.from(init));
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
  send(res, type, body, 'public, max-age=3600');
  return true;
}

function send(res: ServerResponse, type: string, body: Buffer, cacheControl = 'no-cache'): void {
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': body.length,
    'Cache-Control': cacheControl,
    'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'",
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(body);
}
