/**
 * Time and timers for the emulated link, injectable so the scheduling arithmetic can be tested
 * with a fake clock. Times are milliseconds on a monotonic scale.
 */
import { performance } from 'node:perf_hooks';

export interface LinkClock {
  now(): number;
  /** Calls `fn` once after `delayMs`; returns a handle for {@link LinkClock.clearTimer}. */
  setTimer(fn: () => void, delayMs: number): unknown;
  clearTimer(handle: unknown): void;
}

export const realClock: LinkClock = {
  now: () => performance.now(),
  setTimer: (fn, delayMs) => setTimeout(fn, delayMs),
  clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
