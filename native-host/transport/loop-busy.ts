import { performance } from 'node:perf_hooks';

/**
 * How long the event loop has been busy (not waiting in the OS poll) since it started, in ms; a
 * running total read from `performance.eventLoopUtilization()`. 0 before the loop's first turn.
 *
 * A socket event's timestamp can only be late by time the loop spent busy: while the loop waits
 * in poll, a ready socket wakes it at once. So the busy time between two readings bounds the
 * scheduling delay any timestamp taken between them may include.
 */
export type LoopBusyClock = () => number;

export const loopBusyMs: LoopBusyClock = () => performance.eventLoopUtilization().active;
