/**
 * The rate rules of docs/api-rules.md#rate-limits. Each rule is a fixed window
 * with an optional block that starts when the threshold is passed.
 */
export interface RateRule {
  /** Name used in the RateLimit-Policy header and as the counter key prefix. */
  name: string;
  points: number;
  windowSeconds: number;
  /** Seconds a key stays blocked once it passes the threshold; 0: only until the window ends. */
  blockSeconds: number;
}

export const tokenRule: RateRule = { name: 'token', points: 10, windowSeconds: 1, blockSeconds: 0 };
export const tenantRule: RateRule = { name: 'tenant', points: 50, windowSeconds: 1, blockSeconds: 0 };

/** Every other path under /api/, per client IP: 10 a minute, 1 in the first second, 3-minute block. */
export const defaultRule: RateRule = { name: 'default', points: 10, windowSeconds: 60, blockSeconds: 180 };
export const defaultBurstRule: RateRule = { name: 'default-burst', points: 1, windowSeconds: 1, blockSeconds: 0 };

/** POST {auth_url}/oauth/token, per client id named in the request (docs/api-rules.md#rate-limits); clients are told to cache tokens. */
export const tokenEndpointRule: RateRule = { name: 'oauth-token', points: 30, windowSeconds: 60, blockSeconds: 0 };

/** /openapi.json (and its fixed-version copy), /docs, /healthz and /files/{token}, per client IP. */
export const publicRule: RateRule = { name: 'public', points: 20, windowSeconds: 1, blockSeconds: 0 };

/** Endpoint table of docs/api-rules.md#rate-limits: threshold per minute per client application, then a block. */
const endpointTable: Array<[method: string, path: string, perMinute: number, blockMinutes: number]> = [
  ['GET', 'drivers/{id}', 10, 3],
  ['GET', 'drivers', 5, 1],
  ['POST', 'drivers/search', 10, 1],
  ['POST', 'drivers/events/search', 10, 3],
  ['GET', 'fuel/{id}', 10, 3],
  ['POST', 'fuel/search', 5, 1],
  ['GET', 'invoices', 5, 3],
  ['POST', 'invoices/search', 10, 3],
  ['GET', 'loads', 5, 3],
  ['POST', 'loads/search', 10, 3],
  ['GET', 'maintenance/{id}', 10, 3],
  ['POST', 'maintenance/search', 10, 1],
  ['GET', 'tolls/{id}', 10, 3],
  ['POST', 'tolls/search', 10, 1],
  ['GET', 'trailers/{id}', 10, 3],
  ['GET', 'trailers', 5, 3],
  ['POST', 'trailers/search', 10, 3],
  ['POST', 'trailers/events/search', 10, 3],
  ['GET', 'trips', 5, 3],
  ['POST', 'trips/search', 10, 3],
  ['GET', 'trucks/{id}', 10, 3],
  ['GET', 'trucks', 5, 3],
  ['POST', 'trucks/search', 10, 3],
  ['POST', 'trucks/events/search', 10, 3],
  ['GET', 'users/list', 5, 3],
  ['POST', 'users/search', 10, 3],
];

const PREFIX = '/api/p/v{version}/';

/** The endpoint rule of a route, looked up by its spec template (parameter names do not matter). */
const endpointRules = new Map<string, RateRule>(
  endpointTable.map(([method, path, perMinute, blockMinutes]) => [
    `${method} ${normaliseTemplate(PREFIX + path)}`,
    { name: `${method} ${path}`, points: perMinute, windowSeconds: 60, blockSeconds: blockMinutes * 60 },
  ]),
);

function normaliseTemplate(template: string): string {
  return template.toLowerCase().replace(/\{[^}]+\}/g, '{}');
}

export function endpointRuleFor(method: string, template: string): RateRule | undefined {
  return endpointRules.get(`${method} ${normaliseTemplate(template)}`);
}

export const endpointRuleCount = endpointRules.size;
