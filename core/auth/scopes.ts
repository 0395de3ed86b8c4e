/**
 * The scope catalog (docs/api-rules.md#scopes). Clients can only be granted scopes from
 * this list, so a typo in the operator CLI fails loudly instead of granting nothing.
 */
export const SCOPES = [
  'load:read',
  'load:update',
  'load:create',
  'trip:read',
  'trip:update',
  'carrier:read',
  'carrier:update',
  'carrier:create',
  'customer:read',
  'customer:create',
  'customer:update',
  'customer:delete',
  'location:read',
  'location:create',
  'location:update',
  'driver:read',
  'driver:create',
  'driver:update',
  'truck:read',
  'truck:create',
  'truck:update',
  'trailer:read',
  'trailer:create',
  'trailer:update',
  'visibility:read',
  'visibility:create',
  'deduction:read',
  'deduction:create',
  'deduction:update',
  'deduction:delete',
  'accessorial:read',
  'accessorial:create',
  'accessorial:update',
  'maintenance:read',
  'maintenance:create',
  'maintenance:update',
  'invoice:read',
  'invoice:update',
  'invoice:create',
  'fuel:read',
  'fuel:create',
  'toll:read',
  'toll:create',
  'user:read',
  'subsidiary:read',
  'tender:read',
  'tender:create',
  'tender:update',
  'dispatch:read',
  'dispatch:update',
  'webhook:read',
  'webhook:manage',
  'event:read',
  'edi:read',
  'edi:manage',
  'edi:submit',
] as const;

export type TScopeName = (typeof SCOPES)[number];

const known: ReadonlySet<string> = new Set(SCOPES);

export function isScopeName(value: string): value is TScopeName {
  return known.has(value);
}

/** Space-delimited scope text (RFC 6749 3.3) to a list without empty entries or repeats. */
export function parseScopeList(text: string): string[] {
  return [...new Set(text.split(' ').filter((part) => part !== ''))];
}
