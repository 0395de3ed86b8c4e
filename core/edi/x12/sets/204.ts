import { el, loop, use, withElements, type SetDefinition } from '../definition.js';
import { AT8, B2, B2A, G62, L11, L3, MS3, N7, NTE, S5 } from '../segments.js';
import { PARTY_WITH_CONTACTS } from './party.js';

/** Purpose codes the tender mapping acts on (docs/edi.md#envelope-checks). */
export const PURPOSE_CODES = ['00', '01', '04'] as const;
/** Stop reason codes: pickups then deliveries. */
export const STOP_REASON_CODES = ['LD', 'CL', 'PL', 'UL', 'CU', 'PU'] as const;

/** B2-04, the shipment id, is the tender's ExternalId: required here though the standard leaves it optional. */
const B2_TENDER = withElements(B2, { 4: el('M', 'AN', 1, 30, 145) });
const B2A_TENDER = withElements(B2A, { 1: el('M', 'ID', 2, 2, 353, PURPOSE_CODES) });
/** A reference is read as its qualifier and value: both required. */
export const L11_REFERENCE = withElements(L11, { 1: el('M', 'AN', 1, 30, 127), 2: el('M', 'ID', 2, 3, 128) });
const S5_STOP = withElements(S5, { 2: el('M', 'ID', 2, 2, 163, STOP_REASON_CODES) });

/** 204 Motor Carrier Load Tender, 004010. */
export const SET_204: SetDefinition = {
  id: '204',
  functionalId: 'SM',
  items: [
    use(B2_TENDER, 'M', 1),
    use(B2A_TENDER, 'M', 1),
    use(L11_REFERENCE, 'O', 50),
    use(G62, 'O', 1),
    use(MS3, 'O', 1),
    use(NTE, 'O', 10),
    loop('O', 5, PARTY_WITH_CONTACTS, '0100'),
    loop('O', 10, [use(N7, 'M', 1)], '0200'),
    loop(
      'M',
      999,
      [
        use(S5_STOP, 'M', 1),
        use(L11_REFERENCE, 'O', 50),
        use(G62, 'O', 2),
        use(AT8, 'O', 1),
        use(NTE, 'O', 20),
        loop('O', 1, PARTY_WITH_CONTACTS, '0310'),
      ],
      '0300',
    ),
    use(L3, 'O', 1),
  ],
};
