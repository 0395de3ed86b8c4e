import { router } from '../trpc.js';
import { createAssetLocation } from './create-asset-location.js';
import { createTypedAssetLocation } from './create-typed-asset-location.js';

export const visibilityRouter = router({ createAssetLocation, createTypedAssetLocation });
