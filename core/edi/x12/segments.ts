import { el, type SegmentSpec } from './definition.js';

/**
 * The X12 004010 segments our sets use, elements as the standard defines them (requirement,
 * type, min/max length, data element reference number), up to the last element we read or
 * write. A set may tighten an element its mapping needs (definition.ts withElements).
 */

export const ST: SegmentSpec = { id: 'ST', elements: [el('M', 'ID', 3, 3, 143), el('M', 'AN', 4, 9, 329)] };
export const SE: SegmentSpec = { id: 'SE', elements: [el('M', 'N0', 1, 10, 96), el('M', 'AN', 4, 9, 329)] };

/** Beginning segment for shipment information transaction (204). */
export const B2: SegmentSpec = {
  id: 'B2',
  elements: [
    el('O', 'ID', 2, 2, 375),
    el('O', 'ID', 2, 4, 140),
    el('O', 'AN', 2, 4, 195),
    el('O', 'AN', 1, 30, 145),
    el('O', 'ID', 1, 1, 188),
    el('M', 'ID', 2, 2, 146),
    el('O', 'ID', 1, 1, 147),
    el('O', 'N0', 1, 3, 86),
    el('O', 'ID', 1, 1, 183),
    el('O', 'ID', 1, 1, 335),
    el('O', 'ID', 1, 1, 1267),
    el('O', 'ID', 1, 1, 1268),
  ],
};

/** Set purpose (204). */
export const B2A: SegmentSpec = { id: 'B2A', elements: [el('M', 'ID', 2, 2, 353), el('O', 'ID', 2, 2, 346)] };

export const L11: SegmentSpec = {
  id: 'L11',
  elements: [el('X', 'AN', 1, 30, 127), el('X', 'ID', 2, 3, 128), el('O', 'AN', 1, 80, 352)],
  rules: [{ kind: 'R', elements: [1, 3] }],
};

export const G62: SegmentSpec = {
  id: 'G62',
  elements: [
    el('X', 'ID', 2, 2, 432),
    el('X', 'DT', 8, 8, 373),
    el('X', 'ID', 1, 2, 176),
    el('X', 'TM', 4, 8, 337),
    el('O', 'ID', 2, 2, 623),
  ],
  rules: [
    { kind: 'R', elements: [1, 3] },
    { kind: 'P', elements: [1, 2] },
    { kind: 'P', elements: [3, 4] },
  ],
};

export const MS3: SegmentSpec = {
  id: 'MS3',
  elements: [
    el('M', 'ID', 2, 4, 140),
    el('M', 'ID', 1, 2, 133),
    el('X', 'AN', 2, 30, 19),
    el('O', 'ID', 1, 2, 91),
    el('O', 'ID', 2, 2, 156),
  ],
};

export const NTE: SegmentSpec = { id: 'NTE', elements: [el('O', 'ID', 3, 3, 363), el('M', 'AN', 1, 80, 352)] };

export const N1: SegmentSpec = {
  id: 'N1',
  elements: [
    el('M', 'ID', 2, 3, 98),
    el('X', 'AN', 1, 60, 93),
    el('X', 'ID', 1, 2, 66),
    el('X', 'AN', 2, 80, 67),
    el('O', 'ID', 2, 2, 706),
    el('O', 'ID', 2, 3, 98),
  ],
  rules: [{ kind: 'R', elements: [2, 3] }, { kind: 'P', elements: [3, 4] }],
};

export const N3: SegmentSpec = { id: 'N3', elements: [el('M', 'AN', 1, 55, 166), el('O', 'AN', 1, 55, 166)] };

export const N4: SegmentSpec = {
  id: 'N4',
  elements: [
    el('O', 'AN', 2, 30, 19),
    el('O', 'ID', 2, 2, 156),
    el('O', 'ID', 3, 15, 116),
    el('O', 'ID', 2, 3, 26),
    el('X', 'ID', 1, 2, 309),
    el('O', 'AN', 1, 30, 310),
  ],
  rules: [{ kind: 'C', elements: [6, 5] }],
};

export const G61: SegmentSpec = {
  id: 'G61',
  elements: [el('M', 'ID', 2, 2, 366), el('M', 'AN', 1, 60, 93), el('X', 'ID', 2, 2, 365), el('X', 'AN', 1, 80, 364)],
  rules: [{ kind: 'P', elements: [3, 4] }],
};

/** Equipment details (204). */
export const N7: SegmentSpec = {
  id: 'N7',
  elements: [
    el('O', 'AN', 1, 4, 206),
    el('M', 'AN', 1, 10, 207),
    el('O', 'R', 1, 10, 81),
    el('X', 'ID', 1, 2, 187),
    el('O', 'R', 3, 8, 167),
    el('O', 'N0', 2, 6, 232),
    el('O', 'N0', 1, 6, 205),
    el('X', 'R', 1, 8, 183),
    el('X', 'ID', 1, 1, 184),
    el('O', 'ID', 1, 1, 102),
    el('O', 'ID', 2, 2, 40),
  ],
  rules: [{ kind: 'P', elements: [3, 4] }, { kind: 'P', elements: [8, 9] }],
};

/** Stop-off details (204). */
export const S5: SegmentSpec = {
  id: 'S5',
  elements: [
    el('M', 'N0', 1, 3, 165),
    el('M', 'ID', 2, 2, 163),
    el('X', 'R', 1, 10, 81),
    el('X', 'ID', 1, 1, 188),
    el('X', 'R', 1, 10, 382),
    el('X', 'ID', 2, 2, 355),
    el('X', 'R', 1, 8, 183),
    el('X', 'ID', 1, 1, 184),
    el('O', 'AN', 1, 80, 352),
  ],
  rules: [
    { kind: 'P', elements: [3, 4] },
    { kind: 'P', elements: [5, 6] },
    { kind: 'P', elements: [7, 8] },
  ],
};

export const AT8: SegmentSpec = {
  id: 'AT8',
  elements: [
    el('X', 'ID', 1, 2, 187),
    el('X', 'ID', 1, 1, 188),
    el('X', 'R', 1, 10, 81),
    el('O', 'N0', 1, 7, 80),
    el('O', 'N0', 1, 7, 80),
    el('X', 'ID', 1, 1, 184),
    el('X', 'R', 1, 8, 183),
  ],
  rules: [{ kind: 'P', elements: [1, 2, 3] }, { kind: 'P', elements: [6, 7] }],
};

/** Total weight and charges (204, 210). */
export const L3: SegmentSpec = {
  id: 'L3',
  elements: [
    el('X', 'R', 1, 10, 81),
    el('X', 'ID', 1, 2, 187),
    el('X', 'R', 1, 9, 60),
    el('X', 'ID', 2, 2, 122),
    el('O', 'N2', 1, 12, 58),
    el('O', 'N2', 1, 9, 191),
    el('O', 'N2', 1, 9, 117),
    el('O', 'ID', 3, 3, 150),
    el('X', 'R', 1, 8, 183),
    el('X', 'ID', 1, 1, 184),
    el('O', 'N0', 1, 7, 80),
    el('O', 'ID', 1, 1, 188),
  ],
  rules: [
    { kind: 'P', elements: [1, 2] },
    { kind: 'P', elements: [3, 4] },
    { kind: 'P', elements: [9, 10] },
  ],
};

/** Beginning segment for booking or pick-up/delivery (990). */
export const B1: SegmentSpec = {
  id: 'B1',
  elements: [
    el('M', 'ID', 2, 4, 140),
    el('M', 'AN', 1, 30, 145),
    el('M', 'DT', 8, 8, 373),
    el('M', 'ID', 1, 1, 558),
  ],
};

export const N9: SegmentSpec = {
  id: 'N9',
  elements: [
    el('M', 'ID', 2, 3, 128),
    el('X', 'AN', 1, 30, 127),
    el('X', 'AN', 1, 45, 369),
    el('O', 'DT', 8, 8, 373),
    el('X', 'TM', 4, 8, 337),
    el('O', 'ID', 2, 2, 623),
  ],
  rules: [{ kind: 'R', elements: [2, 3] }, { kind: 'C', elements: [6, 5] }],
};

/** Remarks (990): the rejection reason, 30 characters a piece. */
export const K1: SegmentSpec = { id: 'K1', elements: [el('M', 'AN', 1, 30, 61), el('O', 'AN', 1, 30, 61)] };

/** Beginning segment for transportation carrier shipment status message (214). */
export const B10: SegmentSpec = {
  id: 'B10',
  elements: [
    el('X', 'AN', 1, 30, 127),
    el('X', 'AN', 1, 30, 145),
    el('M', 'ID', 2, 4, 140),
    el('O', 'N0', 1, 3, 71),
  ],
  rules: [{ kind: 'R', elements: [1, 2] }],
};

export const LX: SegmentSpec = { id: 'LX', elements: [el('M', 'N0', 1, 6, 554)] };

/** Shipment status details (214). */
export const AT7: SegmentSpec = {
  id: 'AT7',
  elements: [
    el('X', 'ID', 2, 2, 1650),
    el('X', 'ID', 2, 2, 1651),
    el('X', 'ID', 2, 2, 1652),
    el('X', 'ID', 2, 2, 1651),
    el('O', 'DT', 8, 8, 373),
    el('X', 'TM', 4, 8, 337),
    el('O', 'ID', 2, 2, 623),
  ],
  rules: [
    { kind: 'P', elements: [1, 2] },
    { kind: 'P', elements: [3, 4] },
    { kind: 'C', elements: [7, 6] },
  ],
};

/** Equipment, shipment or real property location (214). */
export const MS1: SegmentSpec = {
  id: 'MS1',
  elements: [
    el('X', 'AN', 2, 30, 19),
    el('X', 'ID', 2, 2, 156),
    el('O', 'ID', 2, 3, 26),
    el('X', 'N0', 7, 7, 1654),
    el('X', 'N0', 7, 7, 1655),
    el('X', 'ID', 1, 1, 1280),
    el('X', 'ID', 1, 1, 1280),
  ],
  rules: [
    { kind: 'P', elements: [4, 5] },
    { kind: 'C', elements: [6, 4] },
    { kind: 'C', elements: [7, 5] },
  ],
};

/** Equipment or container owner and type (214). */
export const MS2: SegmentSpec = {
  id: 'MS2',
  elements: [el('X', 'ID', 2, 4, 140), el('X', 'AN', 1, 10, 207), el('O', 'ID', 2, 2, 40), el('O', 'N0', 1, 1, 761)],
  rules: [{ kind: 'P', elements: [1, 2] }],
};

/** Beginning segment for carrier's invoice (210). */
export const B3: SegmentSpec = {
  id: 'B3',
  elements: [
    el('O', 'ID', 1, 1, 147),
    el('M', 'AN', 1, 22, 76),
    el('O', 'AN', 1, 30, 145),
    el('M', 'ID', 2, 2, 146),
    el('O', 'ID', 1, 1, 188),
    el('M', 'DT', 8, 8, 373),
    el('M', 'N2', 1, 12, 193),
    el('O', 'ID', 2, 2, 202),
    el('X', 'DT', 8, 8, 32),
    el('X', 'ID', 3, 3, 374),
    el('M', 'ID', 2, 4, 140),
  ],
  rules: [{ kind: 'P', elements: [9, 10] }],
};

/** Currency (210). */
export const C3: SegmentSpec = { id: 'C3', elements: [el('M', 'ID', 3, 3, 100), el('O', 'R', 4, 10, 280)] };

/** Description, marks and numbers (210). */
export const L5: SegmentSpec = {
  id: 'L5',
  elements: [el('O', 'N0', 1, 3, 213), el('O', 'AN', 1, 50, 79), el('X', 'AN', 1, 30, 22), el('X', 'ID', 1, 1, 23)],
  rules: [{ kind: 'P', elements: [3, 4] }],
};

/** Line item: quantity and weight (210). */
export const L0: SegmentSpec = {
  id: 'L0',
  elements: [
    el('O', 'N0', 1, 3, 213),
    el('X', 'R', 1, 11, 220),
    el('X', 'ID', 2, 2, 221),
    el('X', 'R', 1, 10, 81),
    el('X', 'ID', 1, 2, 187),
  ],
  rules: [{ kind: 'P', elements: [2, 3] }, { kind: 'P', elements: [4, 5] }],
};

/** Rate and charges (210). */
export const L1: SegmentSpec = {
  id: 'L1',
  elements: [
    el('O', 'N0', 1, 3, 213),
    el('X', 'R', 1, 9, 60),
    el('X', 'ID', 2, 2, 122),
    el('X', 'N2', 1, 12, 58),
    el('O', 'N2', 1, 9, 191),
    el('O', 'N2', 1, 9, 117),
    el('O', 'AN', 1, 9, 120),
    el('O', 'ID', 3, 3, 150),
    el('O', 'ID', 1, 3, 39),
    el('O', 'ID', 1, 1, 16),
    el('O', 'ID', 1, 1, 276),
    el('O', 'AN', 2, 25, 257),
  ],
  rules: [{ kind: 'P', elements: [2, 3] }],
};

/** Functional group response header (997). */
export const AK1: SegmentSpec = { id: 'AK1', elements: [el('M', 'ID', 2, 2, 479), el('M', 'N0', 1, 9, 28)] };

/** Transaction set response header (997). */
export const AK2: SegmentSpec = { id: 'AK2', elements: [el('M', 'ID', 3, 3, 143), el('M', 'AN', 4, 9, 329)] };

/** Data segment note (997). */
export const AK3: SegmentSpec = {
  id: 'AK3',
  elements: [el('M', 'ID', 2, 3, 721), el('M', 'N0', 1, 6, 719), el('O', 'AN', 1, 6, 447), el('O', 'ID', 1, 3, 720)],
};

/** Data element note (997); AK401 is the composite C030 (element position, component position). */
export const AK4: SegmentSpec = {
  id: 'AK4',
  elements: [
    { ...el('M', 'N0', 1, 2, 722), composite: true },
    el('O', 'N0', 1, 4, 725),
    el('M', 'ID', 1, 3, 723),
    el('O', 'AN', 1, 99, 724),
  ],
};


/** Transaction set response trailer (997). */
export const AK5: SegmentSpec = {
  id: 'AK5',
  elements: [
    el('M', 'ID', 1, 1, 717, ['A', 'E', 'M', 'R', 'W', 'X']),
    ...Array.from({ length: 5 }, () => el('O', 'ID', 1, 3, 718)),
  ],
};

/** Functional group response trailer (997). */
export const AK9: SegmentSpec = {
  id: 'AK9',
  elements: [
    el('M', 'ID', 1, 1, 715, ['A', 'E', 'M', 'P', 'R', 'W', 'X']),
    el('M', 'N0', 1, 6, 97),
    el('M', 'N0', 1, 6, 123),
    el('M', 'N0', 1, 6, 2),
    ...Array.from({ length: 5 }, () => el('O', 'ID', 1, 3, 716)),
  ],
};
