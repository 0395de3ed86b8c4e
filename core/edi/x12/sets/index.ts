import type { SetDefinition } from '../definition.js';
import { SET_204 } from './204.js';
import { SET_210 } from './210.js';
import { SET_214 } from './214.js';
import { SET_990 } from './990.js';
import { SET_997 } from './997.js';

/** The sets we read or write, by ST01. */
export const SET_DEFINITIONS: ReadonlyMap<string, SetDefinition> = new Map(
  [SET_204, SET_990, SET_214, SET_210, SET_997].map((definition) => [definition.id, definition]),
);

/** GS01 of each group we read or write. */
export const FUNCTIONAL_IDS: ReadonlySet<string> = new Set([...SET_DEFINITIONS.values()].map((d) => d.functionalId));
