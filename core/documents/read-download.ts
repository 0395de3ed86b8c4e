import type { Db } from '../../db/create-db.js';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { findStoredFile, type StoredFile } from './document.repository.js';
import { downloadLinkKey, verifyDownloadToken } from './download-link.js';

/**
 * The file behind a download token: 404 for a token this server did not sign (or one altered
 * in any way) and for a deleted document, 410 for a genuine token past its expiry.
 */
export async function readDownload(deps: { db: Db; config: Config; clock: Clock }, token: string): Promise<StoredFile> {
  const check = verifyDownloadToken(downloadLinkKey(deps.config.secretKey), token, deps.clock.now());
  if (!check.valid && check.reason === 'expired') {
    throw new AppError('GONE', 'The download link has expired; list the documents again for a fresh link.');
  }
  if (!check.valid) throw new AppError('NOT_FOUND', 'No file exists at this link.');
  const file = await findStoredFile(deps.db, check.documentId);
  if (!file) throw new AppError('NOT_FOUND', 'No file exists at this link.');
  return file;
}
