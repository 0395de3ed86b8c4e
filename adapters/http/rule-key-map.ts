import type { RateRule } from './rate-rules.js';

/**
 * A rate-limit store's values by rule, then counted key: looked up by the rule's constant
 * name, so a request builds and hashes no combined key.
 */
export class RuleKeyMap<V> {
  private readonly rules = new Map<string, Map<string, V>>();

  /** The rule's values by counted key, created empty on first use. */
  of(rule: RateRule): Map<string, V> {
    let byKey = this.rules.get(rule.name);
    if (!byKey) {
      byKey = new Map();
      this.rules.set(rule.name, byKey);
    }
    return byKey;
  }

  get(rule: RateRule, key: string): V | undefined {
    return this.rules.get(rule.name)?.get(key);
  }

  /** Forgets the values `ended` picks, so the maps do not grow without bound. */
  deleteWhere(ended: (value: V) => boolean): void {
    for (const byKey of this.rules.values()) {
      for (const [key, value] of byKey) {
        if (ended(value)) byKey.delete(key);
      }
    }
  }

  *values(): IterableIterator<V> {
    for (const byKey of this.rules.values()) yield* byKey.values();
  }

  get size(): number {
    let size = 0;
    for (const byKey of this.rules.values()) size += byKey.size;
    return size;
  }
}
