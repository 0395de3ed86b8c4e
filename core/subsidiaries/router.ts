import { router } from '../trpc.js';
import { findSubsidiaries } from './find-subsidiaries.js';
import { getSubsidiary } from './get-subsidiary.js';

export const subsidiariesRouter = router({ findSubsidiaries, getSubsidiary });
