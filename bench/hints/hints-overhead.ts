/**
 * The background's per-navigation work for hints, timed on the learned state the extension really
 * stored: `hintsFor` (run once per committed navigation) and `hintRules` (run once per learned
 * load, never on a navigation's critical path). Median µs over `iterations` calls.
 */
import { performance } from 'node:perf_hooks';
import { hintRules } from '../../src/page/hints/dnr-rules';
import { hintsFor } from '../../src/page/hints/hint-list';
import { DEFAULT_HINT_LIMITS } from '../../src/page/hints/hint-types';
import { learnedStateFromJson } from '../../src/page/hints/learned-state-json';

export interface HintsOverhead {
  perNavigationUs: number;
  rulesRebuildUs: number;
  entries: number;
}

export function hintsOverhead(stored: unknown, url: string, iterations = 2000): HintsOverhead {
  const state = learnedStateFromJson(stored);
  const time = (fn: () => void): number => {
    const xs: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const t = performance.now();
      fn();
      xs.push(performance.now() - t);
    }
    xs.sort((a, b) => a - b);
    return Math.round((xs[Math.floor(xs.length / 2)] ?? NaN) * 1000 * 10) / 10;
  };
  return {
    perNavigationUs: time(() => hintsFor(state.entries, url, DEFAULT_HINT_LIMITS)),
    rulesRebuildUs: time(() => hintRules(state, { limits: DEFAULT_HINT_LIMITS, allowed: () => true })),
    entries: state.entries.size,
  };
}
