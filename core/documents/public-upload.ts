import { AppError } from '../errors.js';
import type { Upload } from './create-document.js';
import { isInvoiceFamily } from './document-types.js';
import type { UploadedFile } from './uploaded-file.js';

/**
 * The public upload routes' rule on invoice-family types: recognised (so not the 400 of an
 * unknown type) but protected, refused with 422 once the owner is found (docs/api-rules.md#order-of-checks).
 */
export function refuseProtectedType(documentType: string): void {
  if (isInvoiceFamily(documentType)) {
    throw new AppError('UNPROCESSABLE', 'Invoice-family documents cannot be uploaded through the API.', { subtype: 'ProtectedDocumentType' });
  }
}

/** A staged multipart file as the domain's Upload: the sniffed content type, bytes read at commit. */
export function uploadOf(input: { DocumentType: string; File: UploadedFile }): Upload {
  return {
    AttachmentType: input.DocumentType,
    FileName: input.File.FileName,
    ContentType: input.File.ContentType,
    Size: input.File.Size,
    openContent: input.File.openContent,
  };
}
