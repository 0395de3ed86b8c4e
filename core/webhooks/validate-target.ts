import { validationError } from '../errors.js';
import type { Config } from '../config.js';
import { targetProblem } from './target-url.js';

/** 400 naming the field (Url unless told) when the server must not post there (private targets in production). */
export async function assertTarget(config: Config, url: string, field = 'Url'): Promise<void> {
  const problem = await targetProblem(url, config.production);
  if (problem) throw validationError(field, `The URL ${problem}.`);
}
