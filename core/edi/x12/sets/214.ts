import { loop, use, type SetDefinition } from '../definition.js';
import { AT7, B10, LX, MS1, MS2 } from '../segments.js';
import { PARTY } from './party.js';
import { L11_REFERENCE } from './204.js';

/** 214 Transportation Carrier Shipment Status Message, 004010. */
export const SET_214: SetDefinition = {
  id: '214',
  functionalId: 'QM',
  items: [
    use(B10, 'M', 1),
    use(L11_REFERENCE, 'O', 300),
    loop('O', 10, PARTY, '0100'),
    loop(
      'O',
      999999,
      [
        use(LX, 'M', 1),
        loop('O', 10, [use(AT7, 'M', 1), use(MS1, 'O', 1), use(MS2, 'O', 2)], '0205'),
        use(L11_REFERENCE, 'O', 10),
      ],
      '0200',
    ),
  ],
};
