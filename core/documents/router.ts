import { router } from '../trpc.js';
import { changeLoadDocumentType } from './change-load-document-type.js';
import { changeTripDocumentType } from './change-trip-document-type.js';
import { createCarrierDocument } from './create-carrier-document.js';
import { createLoadDocument } from './create-load-document.js';
import { createTripDocument } from './create-trip-document.js';
import { getLoadDocumentHistory } from './get-load-document-history.js';
import { getTripDocumentHistory } from './get-trip-document-history.js';
import { listCarrierDocuments } from './list-carrier-documents.js';
import { listLoadDocuments } from './list-load-documents.js';
import { listTripDocuments } from './list-trip-documents.js';

// REST routes: the document lists and history reads, then the type changes. The create
// procedures have no `openapi` meta: internal apps reach them over tRPC only.
export const documentsRouter = router({
  listLoadDocuments,
  getLoadDocumentHistory,
  changeLoadDocumentType,
  listTripDocuments,
  getTripDocumentHistory,
  changeTripDocumentType,
  listCarrierDocuments,
  createLoadDocument,
  createTripDocument,
  createCarrierDocument,
});
