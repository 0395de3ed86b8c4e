// A customer's subsidiary follows the rule of every record's (core/subsidiaries/subsidiary-for-write.ts).
export { subsidiaryForWrite as customerSubsidiary } from '../subsidiaries/subsidiary-for-write.js';
