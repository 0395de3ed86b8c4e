import { router } from '../trpc.js';
import { findReferenceDefinitions } from './find-reference-definitions.js';

export const referenceDefinitionsRouter = router({ findReferenceDefinitions });
