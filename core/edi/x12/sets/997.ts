import { loop, use, type SetDefinition } from '../definition.js';
import { AK1, AK2, AK3, AK4, AK5, AK9 } from '../segments.js';

/** 997 Functional Acknowledgment, 004010. */
export const SET_997: SetDefinition = {
  id: '997',
  functionalId: 'FA',
  items: [
    use(AK1, 'M', 1),
    loop('O', 999999, [use(AK2, 'M', 1), loop('O', 999999, [use(AK3, 'M', 1), use(AK4, 'O', 99)]), use(AK5, 'M', 1)]),
    use(AK9, 'M', 1),
  ],
};
