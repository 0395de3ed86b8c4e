import { validationError } from '../errors.js';
import type { Config } from '../config.js';
import { targetProblem } from './target-url.js';

/** 400 naming Url when the server must not post there (private targets in production). */
export async function assertTarget(config: Config, url: string): Promise<void> {
  const problem = await targetProblem(url, config.production);
  if (problem) throw validationError('Url', `The URL ${problem}.`);
}
