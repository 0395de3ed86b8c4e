/**
 * Interchanges written for the inbound tests: a partner's envelope around sets given as
 * segments (`[id, ...elements]`), with correct counts and control numbers unless a test breaks
 * them on purpose. Separators `*`, `>` and `~` with a line break.
 */
export interface SetSpec {
  id: string;
  control?: string;
  body: string[][];
  /** SE01 as written; the true count when absent. */
  seCount?: string;
}
export interface GroupSpec {
  functionalId: string;
  control?: number;
  sets: SetSpec[];
  /** GE01 as written; the true count when absent. */
  geCount?: string;
}

const pad = (text: string, width: number) => text.padEnd(width, ' ');

export function buildInterchange(options: { sender?: string; receiver?: string; control: number; groups: GroupSpec[]; ieaCount?: string }): string {
  const sender = options.sender ?? 'HEARTLANDKC';
  const receiver = options.receiver ?? 'WAYBILL';
  const isa13 = String(options.control).padStart(9, '0');
  const lines = [`ISA*00*          *00*          *ZZ*${pad(sender, 15)}*ZZ*${pad(receiver, 15)}*261127*1330*U*00401*${isa13}*0*T*>`];
  options.groups.forEach((group, g) => {
    const gsControl = String(group.control ?? options.control * 10 + g);
    lines.push(`GS*${group.functionalId}*${sender}*${receiver}*20261127*1330*${gsControl}*X*004010`);
    group.sets.forEach((set, s) => {
      const control = set.control ?? String(s + 1).padStart(4, '0');
      const segments = [['ST', set.id, control], ...set.body];
      lines.push(...segments.map((segment) => segment.join('*')));
      lines.push(`SE*${set.seCount ?? String(segments.length + 1)}*${control}`);
    });
    lines.push(`GE*${group.geCount ?? String(group.sets.length)}*${gsControl}`);
  });
  lines.push(`IEA*${options.ieaCount ?? String(options.groups.length)}*${isa13}`);
  return lines.map((line) => `${line}~\n`).join('');
}

export interface TenderSpec {
  shipment: string;
  purpose?: string;
  /** Replaces the header segments after B2A (L11, G62 64, N7). */
  header?: string[][];
  stops?: string[][][];
  /** The L3, or null for none. */
  l3?: string[] | null;
}

export const PICKUP_STOP: string[][] = [
  ['S5', '1', 'LD', '42000', 'L'],
  ['L11', 'PU-7781', 'CR'],
  ['G62', '10', '20261128', 'I', '0800', 'CT'],
  ['N1', 'SH', 'Acme Foods Plant 3'],
  ['N3', '2400 W Industrial Dr', 'Dock 4'],
  ['N4', 'Chicago', 'IL', '60608', 'US'],
];
export const DELIVERY_STOP: string[][] = [
  ['S5', '2', 'UL', '42000', 'L'],
  ['G62', '53', '20261129', 'I', '0900', 'LT'],
  ['G62', '54', '20261129', 'K', '1700', 'LT'],
  ['N1', 'CN', 'Fresh Market DC'],
  ['N3', '55 Harbor Rd'],
  ['N4', 'Columbus', 'OH', '43215'],
];
export const DEFAULT_HEADER: string[][] = [
  ['L11', 'PO-55123', 'PO'],
  ['L11', 'BOL889', 'BM'],
  ['L11', 'X9-1', 'ZZ'],
  ['G62', '64', '20261128', '1', '1200', 'UT'],
  ['N7', '', 'NONE', '42000', 'G', '', '', '', '', '', '', 'RT'],
];

/** A 204's body (B2 … L3). */
export function tender204(spec: TenderSpec): string[][] {
  return [
    ['B2', '', 'WYBL', '', spec.shipment, '', 'PP'],
    ['B2A', spec.purpose ?? '00', 'LT'],
    ...(spec.header ?? DEFAULT_HEADER),
    ...(spec.stops ?? [PICKUP_STOP, DELIVERY_STOP]).flat(),
    ...(spec.l3 === null ? [] : [spec.l3 ?? ['L3', '42000', 'G', '', '', '185000']]),
  ];
}

/** One interchange with one SM group holding these 204s. */
export function interchangeOf204s(control: number, tenders: TenderSpec[], sender?: string): string {
  return buildInterchange({ sender, control, groups: [{ functionalId: 'SM', sets: tenders.map((tender) => ({ id: '204', body: tender204(tender) })) }] });
}
