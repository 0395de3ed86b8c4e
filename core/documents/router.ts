import { router } from '../trpc.js';
import { changeDocumentTypeProcedure } from './change-document-type.js';
import { createDocumentProcedure } from './create-document.js';
import { deleteDocumentProcedure } from './delete-document.js';
import { carrierOwner, loadOwner, tripOwner } from './document-owners.js';
import { getDocumentHistoryProcedure } from './get-document-history.js';
import { listDocumentsProcedure } from './list-documents.js';
import { uploadDocumentProcedure } from './upload-document.js';

// REST routes: the document lists and history reads, the type changes, the multipart uploads
// and the deletes. The create procedures have no `openapi` meta: internal apps reach them over
// tRPC only, with the file as base64. Each operation is one implementation for every owner.
export const documentsRouter = router({
  listLoadDocuments: listDocumentsProcedure(loadOwner),
  getLoadDocumentHistory: getDocumentHistoryProcedure(loadOwner),
  changeLoadDocumentType: changeDocumentTypeProcedure(loadOwner),
  listTripDocuments: listDocumentsProcedure(tripOwner),
  getTripDocumentHistory: getDocumentHistoryProcedure(tripOwner),
  changeTripDocumentType: changeDocumentTypeProcedure(tripOwner),
  listCarrierDocuments: listDocumentsProcedure(carrierOwner),
  uploadLoadDocument: uploadDocumentProcedure(loadOwner),
  uploadTripDocument: uploadDocumentProcedure(tripOwner),
  uploadCarrierDocument: uploadDocumentProcedure(carrierOwner),
  deleteLoadDocument: deleteDocumentProcedure(loadOwner),
  deleteTripDocument: deleteDocumentProcedure(tripOwner),
  deleteCarrierDocument: deleteDocumentProcedure(carrierOwner),
  createLoadDocument: createDocumentProcedure(loadOwner),
  createTripDocument: createDocumentProcedure(tripOwner),
  createCarrierDocument: createDocumentProcedure(carrierOwner),
});
