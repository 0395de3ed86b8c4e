import { z } from 'zod';
import type { ContentSource } from './document-content.js';

/** Largest file the public upload routes take (docs/api-rules.md#document-uploads). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The media types an upload may be, decided from the file's bytes, never from its name or declared type. */
export const UPLOAD_CONTENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];

/**
 * A file an edge received and staged before the procedure runs (the REST adapter streams a
 * multipart part to temporary storage). Its bytes are read only by `openContent`, inside the
 * write that stores them and piece by piece, so a large upload is never held in memory whole.
 */
export interface UploadedFile {
  /** The name the client gave the part (no path). */
  FileName: string;
  /** Sniffed from the bytes. */
  ContentType: UploadContentType;
  Size: number;
  /** A fresh read of the staged bytes each call. */
  openContent: () => ContentSource;
}

function isUploadedFile(value: unknown): value is UploadedFile {
  const file = value as Partial<UploadedFile> | null;
  return (
    typeof file === 'object' &&
    file !== null &&
    typeof file.FileName === 'string' &&
    typeof file.ContentType === 'string' &&
    typeof file.Size === 'number' &&
    typeof file.openContent === 'function'
  );
}

/**
 * The `File` part of a multipart upload. Only the REST edge can produce one; a JSON or tRPC
 * caller naming `File` gets the validation 400. The OpenAPI document describes the part as
 * binary (adapters/rest/openapi.ts replaces the whole request body of upload routes).
 */
export const ZUploadedFile = z
  .custom<UploadedFile>(isUploadedFile, { message: 'Send the file as the multipart part "File".' })
  .meta({ description: 'The file (PDF, JPEG or PNG, at most 10 MiB).', override: { type: 'string', format: 'binary' } });
