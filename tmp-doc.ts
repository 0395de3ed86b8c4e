import { appRouter } from './core/router.js';
import { buildRoutes } from './adapters/rest/routes.js';
import { buildOpenApiDocument } from './adapters/rest/openapi.js';
import { loadConfig } from './core/config.js';
const doc = buildOpenApiDocument(appRouter, buildRoutes(appRouter), loadConfig({}));
console.log(JSON.stringify(doc, null, 1));
