import type { OriginMemory } from '../../src/origins/origin-memory';
import { SchedulerError, type RequestResult, type Scheduler } from '../../src/scheduler';
import { memoryFor, type PageLesson } from './page-memory';
import { runSession, type RunSessionOptions, type RunSessionResult } from './run-session';

/** What every run of a page's requests takes, whatever enqueues them. */
export interface PageRunOptions
  extends Pick<RunSessionOptions, 'strategy' | 'transport' | 'allowUnsafePorts' | 'sizeHints' | 'budgets' | 'signal' | 'now'> {
  /** The page: recorded as the run's `url`, and what origin memory knows it by. */
  url: string;
  /**
   * What is unfinished after this long fails with `E_LOAD_TIMEOUT`; what finished is kept.
   * @default RUN_TIMEOUT_MS (src/protocol/run-limits.ts)
   */
  timeoutMs?: number;
  /**
   * Origin memory (a returning visitor): the run starts from what earlier runs learned per origin
   * and about the page, and writes back what it learns. Used only by strategies with a
   * `memory` policy; the others run as a first visit whatever is passed.
   */
  memory?: OriginMemory;
}

/** What one kind of run brings to the common setup and teardown: its requests and its verdict. */
export interface RunPlan extends Pick<RunSessionOptions, 'hooks' | 'onTlsStart' | 'onIdle' | 'record'> {
  /** Names the run in its timeout message: a page `load` (bounded by `--timeout`) or a `replay` of a known list. */
  kind: 'load' | 'replay';
  /** Enqueues the first requests; `memory` is the run's origin memory (undefined unless its strategy uses one). */
  start(scheduler: Scheduler, memory: OriginMemory | undefined): void;
  /** Throws the run's failure, if the results make it one (a load whose document failed). */
  check?(results: readonly RequestResult[]): void;
  /** What the run teaches the page's entry in origin memory, asked only of a run with a memory that did not fail. @default nothing */
  learn?(results: readonly RequestResult[]): PageLesson;
}

const WORDING = {
  load: { doing: 'loading', hint: ' (--timeout)' },
  replay: { doing: 'replaying', hint: '' },
} as const;

/**
 * The one setup and teardown of every run of a page's requests (a page load, a replayed list,
 * the loopback bench's contender): chooses the origin memory the strategy may use, runs a session
 * on fresh connections (run-session.ts) in which `plan.start` enqueues, fails what is unfinished
 * when the time runs out with `E_LOAD_TIMEOUT` (what finished is kept: a timeout alone is not an
 * error), then asks the plan whether the run failed and, if not, what the page's memory learns.
 * @throws the `AbortError` of `options.signal`, before or after the session; what `plan.check` throws.
 */
export async function runPage(options: PageRunOptions, plan: RunPlan): Promise<RunSessionResult> {
  options.signal?.throwIfAborted();
  const { url, strategy } = options;
  const memory = memoryFor(strategy, options.memory);
  const session = await runSession(
    {
      ...options,
      memory,
      hooks: plan.hooks,
      ...(plan.onTlsStart ? { onTlsStart: plan.onTlsStart } : {}),
      onIdle: plan.onIdle,
      record: plan.record,
      timeoutError: (ms) => {
        const { doing, hint } = WORDING[plan.kind];
        return new SchedulerError('E_LOAD_TIMEOUT', `${doing} ${url} with ${strategy.name}: still unfinished when the ${plan.kind}'s ${ms} ms ran out${hint}`);
      },
    },
    (scheduler) => plan.start(scheduler, memory),
  );
  options.signal?.throwIfAborted();
  plan.check?.(session.results);
  if (memory && plan.learn) {
    const lesson = plan.learn(session.results);
    memory.putPageOrigins(url, lesson.origins, lesson.visit);
  }
  return session;
}
