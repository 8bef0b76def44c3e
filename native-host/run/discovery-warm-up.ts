import { discoveryWarmUpSteps } from '../../src/discovery/warm-up';

/** The warm-up steps this process has yet to run: a process warms its discovery code once. */
let pending: Array<() => void> | undefined;

export interface WarmUp {
  /** No further step runs (the document answered, or the load ended). Idempotent. */
  stop(): void;
}

/**
 * Runs the discovery warm-up (src/discovery/warm-up.ts) while a load waits for its document's
 * answer, which cannot come sooner than one round trip after the request: one step per turn of the
 * event loop, and only in the first half of that round trip (`rttMs`, what the connection's own
 * TCP handshake took), so a step is over before the answer can arrive. A round trip shorter than
 * {@link MIN_WARM_UP_RTT_MS} (a LAN, loopback) runs nothing. Steps a warm-up left undone are run
 * by the process's next load.
 */
export function warmDiscoveryWhileWaiting(rttMs: number | undefined, now: () => number = () => performance.now()): WarmUp {
  if (rttMs === undefined || rttMs < MIN_WARM_UP_RTT_MS || pending?.length === 0) return { stop: () => undefined };
  const until = now() + rttMs / 2;
  let immediate: NodeJS.Immediate | undefined;
  const step = (): void => {
    immediate = undefined;
    if (now() >= until) return;
    pending ??= discoveryWarmUpSteps();
    const next = pending.shift();
    if (next === undefined) return;
    try {
      next();
    } catch {
      // Warming is never worth failing a load for: a step that throws ends it (tests run every step).
      pending = [];
      return;
    }
    immediate = setImmediate(step);
  };
  immediate = setImmediate(step);
  return {
    stop: () => {
      if (immediate !== undefined) clearImmediate(immediate);
      immediate = undefined;
    },
  };
}

/**
 * A page's own document (and its style sheets, if it has any) ran the code the warm-up exists to
 * warm: later loads of this process skip it. Its steps would then warm little and hold the loop
 * while the load's connections come up (the connect timer hands each socket over in a turn of
 * the loop: bench/README.md, "A warm process does not warm up again").
 */
export function discoveryWarmedByPage(): void {
  pending = [];
}

/**
 * Below this round trip the first steps, which compile the scanner's code (several ms each), could
 * still be running when the answer arrives.
 */
export const MIN_WARM_UP_RTT_MS = 20;

/** Steps this process has left (undefined: not started). For tests. */
export function warmUpStepsLeft(): number | undefined {
  return pending?.length;
}
