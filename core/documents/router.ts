import { router } from '../trpc.js';
import { changeLoadDocumentType } from './change-load-document-type.js';
import { changeTripDocumentType } from './change-trip-document-type.js';
import { createCarrierDocument } from './create-carrier-document.js';
import { createLoadDocument } from './create-load-document.js';
import { createTripDocument } from './create-trip-document.js';
import { deleteCarrierDocument } from './delete-carrier-document.js';
import { deleteLoadDocument } from './delete-load-document.js';
import { deleteTripDocument } from './delete-trip-document.js';
import { getLoadDocumentHistory } from './get-load-document-history.js';
import { getTripDocumentHistory } from './get-trip-document-history.js';
import { listCarrierDocuments } from './list-carrier-documents.js';
import { listLoadDocuments } from './list-load-documents.js';
import { listTripDocuments } from './list-trip-documents.js';
import { uploadCarrierDocument } from './upload-carrier-document.js';
import { uploadLoadDocument } from './upload-load-document.js';
import { uploadTripDocument } from './upload-trip-document.js';

// REST routes: the document lists and history reads, the type changes, the multipart uploads
// and the deletes. The create procedures have no `openapi` meta: internal apps reach them over
// tRPC only, with the file as base64.
export const documentsRouter = router({
  listLoadDocuments,
  getLoadDocumentHistory,
  changeLoadDocumentType,
  listTripDocuments,
  getTripDocumentHistory,
  changeTripDocumentType,
  listCarrierDocuments,
  uploadLoadDocument,
  uploadTripDocument,
  uploadCarrierDocument,
  deleteLoadDocument,
  deleteTripDocument,
  deleteCarrierDocument,
  createLoadDocument,
  createTripDocument,
  createCarrierDocument,
});
