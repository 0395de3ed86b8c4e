import { randomUUID } from 'node:crypto';
import { createWriteStream, openSync } from 'node:fs';
import { mkdir, open, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { fileTypeFromBuffer } from 'file-type';
import { CHUNK_BYTES } from '../../core/documents/document-content.js';
import { MAX_UPLOAD_BYTES, UPLOAD_CONTENT_TYPES, type UploadContentType, type UploadedFile } from '../../core/documents/uploaded-file.js';

/**
 * Multipart document uploads (docs/api-rules.md#document-uploads). The body is parsed as
 * it arrives (busboy): the `File` part streams to a staging file while its first bytes are
 * kept to decide its type (file-type reads magic numbers; the name and declared type are never
 * trusted), the `DocumentType` part is a short field. Nothing reaches the database here: the
 * procedure reads the staged bytes inside the write that stores them, and the staging file is
 * removed whatever happens, so a refused upload leaves neither bytes nor a row behind.
 */

/** Where staged uploads wait for their write; one directory per process. */
export const UPLOAD_STAGING_DIR = join(tmpdir(), `waybill-uploads-${process.pid}`);

/** Room for the boundaries, part headers and the DocumentType part around a 10 MiB file. */
const MULTIPART_OVERHEAD = 64 * 1024;
/** Enough of the file for every magic number file-type knows among PDF, JPEG and PNG (and more). */
const SNIFF_BYTES = 4100;
/**
 * Uploads writing their bytes at once. Memory no longer needs it (a write holds one 256 KiB
 * piece, not the file, since migration 0098), but a write holds a database connection for as
 * long as its pieces take: this keeps uploads from taking every pooled connection (10 by
 * default) from the other requests. On SQLite, writes take turns anyway.
 */
const COMMIT_PERMITS = 4;

export type UploadFailure =
  | { kind: 'too-large' }
  | { kind: 'unsupported-media-type' }
  | { kind: 'unsupported-file-type' }
  | { kind: 'invalid'; errors: Record<string, string[]> };

export type UploadFields = { DocumentType?: string; File?: UploadedFile };

class Permits {
  private free: number;
  private waiting: Array<() => void> = [];
  constructor(count: number) {
    this.free = count;
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

const commits = new Permits(COMMIT_PERMITS);

function isMultipart(contentType: string | undefined): boolean {
  return /^multipart\/form-data\s*;.*\bboundary=/i.test(contentType ?? '');
}

/** The name part of what a client sent as filename (browsers may send a path). */
function plainFileName(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
}

function fileNameProblem(name: string): string | null {
  if (name.length === 0) return 'The File part needs a file name (Content-Disposition filename).';
  if (name.length > 255) return 'The file name may be at most 255 characters.';
  if (/[\u0000-\u001f\u007f"]/.test(name)) return 'The file name may not contain quotes or control characters.';
  return null;
}

interface StagedFile {
  path: string;
  fileName: string;
  size: number;
  head: Buffer;
}

/** Reads the multipart body; the staged file, when there is one, is the caller's to remove. */
async function parseUpload(req: IncomingMessage): Promise<{ failure?: UploadFailure; fields: { DocumentType?: string }; file?: StagedFile; path?: string }> {
  const errors: Record<string, string[]> = {};
  const fields: { DocumentType?: string } = {};
  let file: StagedFile | undefined;
  let stagingPath: string | undefined;
  let tooLarge = false;
  let writeError: unknown;
  const writes: Promise<void>[] = [];
  const streams: Array<{ destroy: () => void }> = [];

  await mkdir(UPLOAD_STAGING_DIR, { recursive: true });
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // busboy signals `limit` on reaching the size, so one byte more: a 10 MiB file is allowed.
      limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 2, fields: 10, fieldSize: 1024, parts: 12, headerPairs: 20 },
    });
  } catch {
    return { failure: { kind: 'unsupported-media-type' }, fields };
  }

  // After the limit the streams are cut off and not waited for: the file was created when
  // the part began, and its descriptor closes with the destroyed stream.
  const track = <S extends { destroy: () => void }>(stream: S): S => {
    streams.push(stream);
    return stream;
  };
  const finished = new Promise<void>((resolve, reject) => {
    parser.on('file', (name, stream: Readable & { truncated?: boolean }, info) => {
      if (name !== 'File') {
        errors[name] = ['The part is not allowed; send File and DocumentType.'];
        stream.resume();
        return;
      }
      if (file || stagingPath) {
        errors.File = ['Send one File part.'];
        stream.resume();
        return;
      }
      const fileName = plainFileName(info.filename ?? '');
      const problem = fileNameProblem(fileName);
      if (problem) {
        errors.File = [problem];
        stream.resume();
        return;
      }
      track(stream);
      const path = join(UPLOAD_STAGING_DIR, randomUUID());
      stagingPath = path;
      const head: Buffer[] = [];
      let headSize = 0;
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (headSize < SNIFF_BYTES) {
          head.push(chunk.subarray(0, SNIFF_BYTES - headSize));
          headSize += Math.min(chunk.length, SNIFF_BYTES - headSize);
        }
      });
      stream.on('limit', () => {
        // The rest of the body is not read: the answer is 413 and the connection closes.
        tooLarge = true;
        req.unpipe(parser);
        stream.destroy();
        resolve();
      });
      writes.push(
        // Opened at once, so the file exists (and is removed) whatever becomes of the stream.
        pipeline(stream, track(createWriteStream(path, { fd: openSync(path, 'w') }))).then(
          () => {
            file = { path, fileName, size, head: Buffer.concat(head) };
          },
          (error: unknown) => {
            writeError ??= error;
          },
        ),
      );
    });
    parser.on('field', (name, value, info) => {
      if (name === 'DocumentType') {
        if (info.valueTruncated) errors.DocumentType = ['Must be a document type.'];
        else fields.DocumentType = value;
      } else if (name === 'File') {
        errors.File = ['Send File as a file part (with a filename), not as a text field.'];
      } else errors[name] = ['The part is not allowed; send File and DocumentType.'];
    });
    parser.on('partsLimit', () => (errors.$ = ['Too many parts; send File and DocumentType.']));
    parser.on('filesLimit', () => (errors.File = ['Send one File part.']));
    parser.on('fieldsLimit', () => (errors.$ = ['Too many parts; send File and DocumentType.']));
    parser.on('close', () => resolve());
    parser.on('error', reject);
    req.on('error', reject);
  });
  req.pipe(parser);

  // The staging write must have settled (finished, or closed after an abort) before the
  // caller removes its file, or the file could reappear after the removal.
  const settled = async () => {
    if (tooLarge) for (const stream of streams) stream.destroy();
    else await Promise.all(writes);
  };
  try {
    await finished;
    await settled();
  } catch {
    for (const stream of streams) stream.destroy();
    return { failure: { kind: 'invalid', errors: { $: ['The multipart body is malformed.'] } }, fields, ...(stagingPath ? { path: stagingPath } : {}) };
  }
  const staged = stagingPath ? { path: stagingPath } : {};
  // A write that failed while the body parsed cleanly is the server's (disk) problem, not the client's.
  if (writeError && !tooLarge) {
    if (stagingPath) await rm(stagingPath, { force: true });
    throw writeError;
  }
  if (tooLarge) return { failure: { kind: 'too-large' }, fields, ...staged };
  if (Object.keys(errors).length > 0) return { failure: { kind: 'invalid', errors }, fields, ...staged };
  return { fields, ...(file ? { file } : {}), ...staged };
}

/**
 * The whole body handling of an upload route, in one place (so a check such as an
 * Idempotency-Key can wrap it): refuses what is not multipart (415) or declares more than the
 * limit (413) before reading; parses and stages the file; decides its type from its bytes (415
 * unless PDF, JPEG or PNG); then runs `handle` with the parts (a missing part is the input
 * schema's 400, naming it) under a commit permit, and removes the staging file afterwards.
 */
export async function withUploadBody<T>(
  req: IncomingMessage,
  handle: (fields: UploadFields) => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; failure: UploadFailure }> {
  if (!isMultipart(req.headers['content-type'])) return { ok: false, failure: { kind: 'unsupported-media-type' } };
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD) return { ok: false, failure: { kind: 'too-large' } };

  const parsed = await parseUpload(req);
  try {
    if (parsed.failure) return { ok: false, failure: parsed.failure };
    const fields: UploadFields = { ...parsed.fields };
    if (parsed.file) {
      const staged = parsed.file;
      const type = await fileTypeFromBuffer(staged.head);
      const contentType = UPLOAD_CONTENT_TYPES.find((known) => known === type?.mime);
      if (!contentType) return { ok: false, failure: { kind: 'unsupported-file-type' } };
      fields.File = stagedUpload(staged, contentType);
    }
    return { ok: true, value: await commits.run(() => handle(fields)) };
  } finally {
    if (parsed.path) await rm(parsed.path, { force: true });
  }
}

function stagedUpload(staged: StagedFile, contentType: UploadContentType): UploadedFile {
  return {
    FileName: staged.fileName,
    ContentType: contentType,
    Size: staged.size,
    openContent: () => readPieces(staged.path),
  };
}

/**
 * The staged file in whole pieces of CHUNK_BYTES (the last may be shorter), each read into the
 * same buffer: a fresh buffer per read would leave a file's size of garbage per upload, and
 * garbage buffers are freed only when V8 collects them. Each piece must be used (inserted,
 * hashed) before the next is asked for, as the consumers of ContentSource do.
 */
async function* readPieces(path: string): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    for (;;) {
      let filled = 0;
      while (filled < CHUNK_BYTES) {
        const { bytesRead } = await file.read(buffer, filled, CHUNK_BYTES - filled, null);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      if (filled === 0) return;
      yield buffer.subarray(0, filled);
      if (filled < CHUNK_BYTES) return;
    }
  } finally {
    await file.close();
  }
}
