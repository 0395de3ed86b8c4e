import { loop, use, type SetDefinition } from '../definition.js';
import { B3, C3, G62, L0, L1, L3, L5, LX, N9 } from '../segments.js';
import { PARTY } from './party.js';

/** 210 Motor Carrier Freight Details and Invoice, 004010. */
export const SET_210: SetDefinition = {
  id: '210',
  functionalId: 'IM',
  items: [
    use(B3, 'M', 1),
    use(C3, 'O', 1),
    use(N9, 'O', 300),
    use(G62, 'O', 6),
    loop('O', 10, PARTY, '0100'),
    loop('M', 9999, [use(LX, 'M', 1), use(L5, 'O', 30), use(L0, 'O', 10), use(L1, 'O', 10)], '0400'),
    use(L3, 'M', 1),
  ],
};
