import { SchedulerError, type Scheduler } from '../../src/scheduler';

/**
 * Waits until every request enqueued on `scheduler` has settled, or `timeoutMs` has passed, or
 * `signal` aborts — whichever comes first. On the deadline the scheduler is closed with
 * `E_LOAD_TIMEOUT`, so every unfinished request is settled and marked, and what finished is kept:
 * a load that runs out of time still has results (partial results, always).
 */
export async function settleWithin(scheduler: Scheduler, timeoutMs: number, what: string, signal?: AbortSignal): Promise<{ timedOut: boolean }> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    const outcome = await Promise.race([
      scheduler.whenIdle().then(() => 'idle' as const),
      new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      }),
      new Promise<'abort'>((resolve) => {
        onAbort = () => resolve('abort');
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
    if (outcome !== 'timeout') return { timedOut: false };
    scheduler.close(new SchedulerError('E_LOAD_TIMEOUT', `${what} was still unfinished when the load's ${timeoutMs} ms ran out (--timeout)`));
    return { timedOut: true };
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
