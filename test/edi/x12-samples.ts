import { readFileSync } from 'node:fs';
import {
  checkGroup,
  checkTransactionSet,
  parseInterchange,
  type Interchange,
  type OutboundEnvelope,
  type TransactionSet,
  type X12Error,
} from '../../core/edi/x12/index.js';

/** A sample interchange of test/edi/samples. */
export function readSample(name: string): string {
  return readFileSync(new URL(`./samples/${name}`, import.meta.url), 'utf8');
}

export function parseOk(text: string): { interchange: Interchange; envelopeErrors: X12Error[] } {
  const parsed = parseInterchange(text);
  if (!parsed.ok) throw new Error(`expected an interchange: ${parsed.message}`);
  return parsed;
}

export function firstSet(text: string): TransactionSet {
  const set = parseOk(text).interchange.groups[0]?.sets[0];
  if (!set) throw new Error('no set');
  return set;
}

/** Every error of an interchange: envelope, groups, sets. */
export function allErrors(text: string): X12Error[] {
  const { interchange, envelopeErrors } = parseOk(text);
  return [
    ...envelopeErrors,
    ...interchange.groups.flatMap((group) => [
      ...checkGroup(group),
      ...group.sets.flatMap((set) =>
        checkTransactionSet(set, { functionalId: group.functionalId, component: interchange.separators.component }),
      ),
    ]),
  ];
}

/** The errors' codes with their places, for compact assertions. */
export function located(errors: readonly X12Error[]): string[] {
  return errors.map((e) => `${e.code} ${e.segment}@${e.position}${e.element === null ? '' : `.${e.element}`}`);
}

export const SAMPLES = [
  '204-original.x12',
  '204-change.x12',
  '204-cancel.x12',
  '990-accept.x12',
  '990-reject.x12',
  '214-arrival.x12',
  '210-invoice.x12',
  '997-accept.x12',
  '997-reject.x12',
] as const;

/** The envelope of what the tests emit: the carrier writing to the sample shipper. */
export const OUR_ENVELOPE: OutboundEnvelope = {
  sender: { qualifier: 'ZZ', id: 'WAYBILLCARR' },
  receiver: { qualifier: '02', id: 'ACMEFOODS' },
  senderGsId: 'WAYBILLCARR',
  receiverGsId: 'ACMEFOODS',
  usage: 'P',
  controlNumber: 42,
  at: new Date('2026-03-05T07:04:09Z'),
  functionalId: 'GF',
};
