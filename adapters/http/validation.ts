import type { z } from 'zod';
// Installs the one wording of Zod's messages wherever a request is validated.
import '../../core/shared/validation-messages.js';

type Issue = z.core.$ZodIssue;

/** `['Stops', 2, 'Coordinates', 'Latitude']` → `Stops[2].Coordinates.Latitude`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

// Worded by core/shared/validation-messages.ts, or by the schema's own rule.
const messageOf = (issue: Issue): string => issue.message;

/**
 * The `Errors` map of a validation problem: PascalCase field path → messages. An unknown
 * property is reported under its own name so the client sees which field to remove.
 */
export function errorsFromIssues(issues: ReadonlyArray<Issue>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (field: string, message: string) => {
    (errors[field || '$'] ??= []).push(message);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(fieldPath([...issue.path, key]), 'is not allowed');
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0 && issue.errors[0]!.length > 0) {
      for (const nested of issue.errors[0]!) add(fieldPath([...issue.path, ...nested.path]), messageOf(nested));
    } else {
      add(fieldPath(issue.path), messageOf(issue));
    }
  }
  return errors;
}
