import { el, use, withElements, type SetDefinition } from '../definition.js';
import { B1, K1, N9 } from '../segments.js';

/** B1-04: A accepted, D declined. */
const B1_RESPONSE = withElements(B1, { 4: el('M', 'ID', 1, 1, 558, ['A', 'D']) });

/** 990 Response to a Load Tender, 004010. */
export const SET_990: SetDefinition = {
  id: '990',
  functionalId: 'GF',
  items: [use(B1_RESPONSE, 'M', 1), use(N9, 'O', 1), use(K1, 'O', 10)],
};
