import type { EdiPartner } from '../partner.repository.js';

/** docs/edi.md#trading-partners: a partner gets a set only when its Transactions list it. */
export const exchanges = (partner: EdiPartner, set: '990' | '214' | '210'): boolean => partner.transactions.includes(set);
