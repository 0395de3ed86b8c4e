import { availableParallelism } from 'node:os';

/**
 * Runtime settings, read once from the environment (README.md#environment).
 * Everything downstream takes a `Config`, so tests build one directly.
 */
export interface Config {
  databaseUrl: string;
  host: string;
  port: number;
  authPort: number;
  publicBaseUrl: string;
  publicAuthUrl: string;
  /** The JWT `iss`: PUBLIC_AUTH_URL with exactly one trailing slash. */
  issuer: string;
  audience: string;
  /** 32+ bytes; null until resolved by `resolveSecretKey` at start-up. */
  secretKey: Buffer | null;
  jwtPrivateKeyPem: string | null;
  production: boolean;
  rateLimits: boolean;
  seed: string | null;
  webhooks: boolean;
  webhookTimeoutMs: number;
  webhookRetryDelays: number[];
  positionRetentionDays: number | null;
  logLevel: string;
  /** Requests per second per client on /api/trpc. */
  trpcRateLimitPerSecond: number;
  tokenLifetimeSeconds: number;
  /** CORS_ORIGINS: exact origins (`scheme://host[:port]`) browsers may call both hosts from. */
  corsOrigins: string[];
  /** Postgres connections per process (API or worker); SQLite ignores it. */
  databasePoolSize: number;
  /** Named prepared statements kept per Postgres connection; 0 runs every statement unnamed. */
  databaseStatementCache: number;
  /** The Prometheus `/metrics` listener's port; null keeps it off (it never shares the API port). */
  metricsPort: number | null;
  /** WEB_CONCURRENCY: API processes `npm start` runs on the shared ports (more than 1: Postgres only). */
  webConcurrency: number;
}

/** More API processes than this is a typo, not a machine: each holds its own Postgres pool. */
export const MAX_WEB_CONCURRENCY = 64;

export class ConfigError extends Error {}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  return value;
}

/** A whole number within [min, max]; a clear start-up error otherwise. */
function intInRange(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/**
 * WEB_CONCURRENCY: a whole number from 1 to 64, or `auto` for one process per core the
 * machine gives this one (capped at 64). 0 is refused rather than guessed at: some platforms
 * use it for "off", others for "one per core".
 */
function webConcurrencyFrom(env: NodeJS.ProcessEnv): number {
  const raw = env.WEB_CONCURRENCY?.trim();
  if (raw?.toLowerCase() === 'auto') return Math.min(availableParallelism(), MAX_WEB_CONCURRENCY);
  try {
    return intInRange(env, 'WEB_CONCURRENCY', 1, 1, MAX_WEB_CONCURRENCY);
  } catch {
    throw new ConfigError(`WEB_CONCURRENCY must be a whole number from 1 to ${MAX_WEB_CONCURRENCY} or "auto", got "${env.WEB_CONCURRENCY}"`);
  }
}

function onOff(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? 'on').toLowerCase();
  if (raw === 'on' || raw === 'true' || raw === '1') return true;
  if (raw === 'off' || raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be "on" or "off", got "${env[name]}"`);
}

/** CORS_ORIGINS as exact origins; anything else (a path, a wildcard) is refused at start-up, not silently ignored. */
function originsFrom(env: NodeJS.ProcessEnv): string[] {
  const values = (env.CORS_ORIGINS ?? '').split(',').map((value) => value.trim()).filter(Boolean);
  for (const value of values) {
    let origin: string | undefined;
    try {
      origin = new URL(value).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== value) throw new ConfigError(`CORS_ORIGINS must list origins like https://portal.example.com, got "${value}"`);
  }
  return values;
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.HOST || '127.0.0.1';
  const port = intFrom(env, 'PORT', 3000);
  const authPort = intFrom(env, 'AUTH_PORT', 3001);
  const publicAuthUrl = stripSlash(env.PUBLIC_AUTH_URL || `http://${host}:${authPort}`);
  const secretKey = env.SECRET_KEY ? Buffer.from(env.SECRET_KEY, 'utf8') : null;
  if (secretKey && secretKey.length < 32) throw new ConfigError('SECRET_KEY must be at least 32 bytes');
  const delays = (env.WEBHOOK_RETRY_DELAYS || '5,300,1800,7200,18000,36000').split(',').map((s) => Number(s.trim()));
  if (delays.some((d) => !Number.isFinite(d) || d < 0)) {
    throw new ConfigError('WEBHOOK_RETRY_DELAYS must be comma-separated seconds');
  }
  const retention = env.POSITION_RETENTION_DAYS ? intFrom(env, 'POSITION_RETENTION_DAYS', 0) : null;
  return {
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/freight.db',
    host,
    port,
    authPort,
    publicBaseUrl: stripSlash(env.PUBLIC_BASE_URL || `http://${host}:${port}`),
    publicAuthUrl,
    issuer: `${publicAuthUrl}/`,
    audience: env.API_AUDIENCE || 'https://api.freight.local',
    secretKey,
    jwtPrivateKeyPem: env.JWT_PRIVATE_KEY || null,
    production: env.NODE_ENV === 'production',
    rateLimits: onOff(env, 'RATE_LIMITS'),
    seed: env.SEED || null,
    webhooks: onOff(env, 'WEBHOOKS'),
    webhookTimeoutMs: intFrom(env, 'WEBHOOK_TIMEOUT_MS', 10_000),
    webhookRetryDelays: delays,
    positionRetentionDays: retention,
    logLevel: env.LOG_LEVEL || 'info',
    trpcRateLimitPerSecond: intFrom(env, 'TRPC_RATE_LIMIT', 100),
    tokenLifetimeSeconds: 86_400,
    corsOrigins: originsFrom(env),
    databasePoolSize: intInRange(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseStatementCache: intInRange(env, 'DATABASE_STATEMENT_CACHE', 200, 0, 10_000),
    metricsPort: env.METRICS_PORT ? intInRange(env, 'METRICS_PORT', 0, 0, 65_535) : null,
    webConcurrency: webConcurrencyFrom(env),
  };
}
