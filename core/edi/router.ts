import { router } from '../trpc.js';
import { createEdiPartner } from './create-edi-partner.js';
import { findEdiDocuments } from './find-edi-documents.js';
import { findEdiPartners } from './find-edi-partners.js';
import { getEdiDocument } from './get-edi-document.js';
import { getEdiPartner } from './get-edi-partner.js';
import { updateEdiPartner } from './update-edi-partner.js';

export const ediRouter = router({
  findEdiPartners,
  getEdiPartner,
  createEdiPartner,
  updateEdiPartner,
  findEdiDocuments,
  getEdiDocument,
});
