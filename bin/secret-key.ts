import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError, type Config } from '../core/config.js';

/** Where a generated key is kept: beside the default SQLite file, never inside the database it protects. */
export const DEFAULT_SECRET_KEY_FILE = './data/secret.key';

const MIN_KEY_BYTES = 32;

/**
 * SECRET_KEY (README.md#environment): the environment's value when set; otherwise the key
 * kept in ./data/secret.key, generated there (mode 600) on first use. A file's text is used the
 * way SECRET_KEY's would be, so moving it into the environment keeps every secret readable.
 * Production refuses to make up a key: a key generated on one machine would not decrypt on another.
 */
export function resolveSecretKey(config: Config, options: { keyFile?: string } = {}): Buffer {
  if (config.secretKey) return config.secretKey;
  if (config.production) throw new ConfigError('SECRET_KEY is required when NODE_ENV=production');
  const path = resolve(options.keyFile ?? DEFAULT_SECRET_KEY_FILE);
  const existing = readKeyFile(path);
  if (existing) return existing;
  mkdirSync(dirname(path), { recursive: true });
  try {
    // `wx`: if another process created the file meanwhile, its key wins and is read below.
    writeFileSync(path, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const created = readKeyFile(path);
  if (!created) throw new ConfigError(`could not read the secret key from ${path}`);
  return created;
}

function readKeyFile(path: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = Buffer.from(text, 'utf8');
  if (key.length < MIN_KEY_BYTES) throw new ConfigError(`${path} must hold at least ${MIN_KEY_BYTES} bytes of key text`);
  return key;
}
