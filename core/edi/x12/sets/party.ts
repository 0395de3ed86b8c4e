import { use, type SegmentUse } from '../definition.js';
import { G61, N1, N3, N4 } from '../segments.js';

/** A party's name, address and place: the N1 loop of 204, 214 and 210. */
export const PARTY: readonly [SegmentUse, ...SegmentUse[]] = [use(N1, 'M', 1), use(N3, 'O', 2), use(N4, 'O', 1)];

/** A party with its contacts (204). */
export const PARTY_WITH_CONTACTS: readonly [SegmentUse, ...SegmentUse[]] = [...PARTY, use(G61, 'O', 3)];
