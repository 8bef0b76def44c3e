import { RUN_TIMEOUT_MS } from '../../src/protocol/run-limits';
import { buildRun, type Run, type RunInput } from '../../src/run';
import { Scheduler, type OriginBudgets, type RequestResult, type SchedulerError, type Strategy } from '../../src/scheduler';
import type { OriginMemory } from '../../src/origins/origin-memory';
import type { HandshakeRecord } from '../../src/stats/handshake';
import type { ResponseHooks } from '../transport/response-hooks';
import { UndiciTransport, type UndiciTransportOptions } from '../transport/undici-transport';
import { decodingHooks } from './decoding-hooks';

/**
 * What a run may set of the transport: TLS trust, timeouts, the user agent, where to connect
 * (`--resolve` / `--connect-to`) and which addresses it may not (`addressCheck`), the TLS sessions
 * a returning visitor resumes (`tlsSessions`), test hooks. `Accept` and `Accept-Encoding` are the
 * browser's, per destination, and not settable: a run asks as a browser asks.
 */
export type RunTransportOptions = Pick<
  UndiciTransportOptions,
  'ca' | 'rejectUnauthorized' | 'timeoutMs' | 'handshakeDelayMs' | 'requestTimeoutMs' | 'requestTotalTimeoutMs' | 'userAgent' | 'hostMappings' | 'addressCheck' | 'connectIn' | 'tlsSessions'
>;

export interface RunSessionOptions {
  /** Recorded as the run's `url`. */
  url: string;
  strategy: Strategy;
  transport?: RunTransportOptions;
  /** Watchers of each response besides the scheduler (a page load's scanners); bodies reach them content-decoded. */
  hooks?: ResponseHooks;
  /** Told as each connection's TLS handshake starts (timing-connector.ts `onTlsStart`): a wait of at least a round trip begins. */
  onTlsStart?: UndiciTransportOptions['onTlsStart'];
  /**
   * Called each time the scheduler goes idle before the run ends; returning `true` means it
   * enqueued more (a page load's deferred lazy content) and the session waits again, within the
   * same `timeoutMs`.
   */
  onIdle?: (scheduler: Scheduler) => boolean;
  /** What the caller adds to the run record (a page load's skipped resources), read once the run is over. */
  record?: () => Pick<RunInput, 'skipped' | 'unmatchedCssUrls' | 'speculative' | 'parents'>;
  /** Response sizes learned on earlier runs (shared across runs to model a returning visitor). */
  sizeHints?: Map<string, number>;
  /** What earlier runs learned per origin, read and written by the scheduler as it is (page-run.ts chooses it by strategy). */
  memory?: OriginMemory;
  /** Per-origin request budgets (request-budget.ts). @default the scheduler's: `memory`'s, else learned afresh */
  budgets?: OriginBudgets;
  /** Connect to the Fetch standard's bad ports too. @default false */
  allowUnsafePorts?: boolean;
  /** The run stops waiting after this long; what is unfinished then fails with `timeoutError`. @default RUN_TIMEOUT_MS */
  timeoutMs?: number;
  /**
   * The error requests still unfinished when `timeoutMs` (passed in) runs out fail with (a page
   * run's `E_LOAD_TIMEOUT`: what finished is kept). @default `E_SCHEDULER_CLOSED`, as on an abort
   */
  timeoutError?: (timeoutMs: number) => SchedulerError;
  /** Aborting stops waiting at once, like the timeout. */
  signal?: AbortSignal;
  now?: () => number;
}

/** How the wait ended: everything settled, the timeout fired, or the signal aborted. */
export type RunEnd = 'idle' | 'timeout' | 'aborted';

export interface RunSessionResult {
  ended: RunEnd;
  run: Run;
  /** The scheduler's own results (ids, absolute times), for callers that look past the record. */
  results: readonly RequestResult[];
}

/**
 * One run on fresh connections: a new transport and connector (no warm sockets; no TLS session
 * reuse unless `transport.tlsSessions` carries an earlier run's), a scheduler attached to it, `start` to enqueue the first requests (it may keep
 * enqueueing from `hooks`), then a wait until the scheduler is idle, the timeout fires or the
 * signal aborts — whichever is first. Whatever happens, the scheduler is closed (settling what is
 * still pending with `E_SCHEDULER_CLOSED`, or `timeoutError` on a timeout) and every connection
 * closed before this returns or throws. The caller decides what a timeout or an abort means
 * (page-run.ts decides it for every run of a page's requests).
 */
export async function runSession(options: RunSessionOptions, start: (scheduler: Scheduler) => void): Promise<RunSessionResult> {
  const now = options.now ?? (() => performance.now());
  const startedAt = Date.now();
  const t0 = now();
  const results: RequestResult[] = [];
  const handshakes: HandshakeRecord[] = [];
  const decodedBytes = new Map<number, number>();
  const transport = new UndiciTransport({
    ...options.transport,
    ...(options.allowUnsafePorts ? { allowUnsafePorts: true } : {}),
    ...decodingHooks(options.hooks, decodedBytes),
    ...(options.onTlsStart ? { onTlsStart: options.onTlsStart } : {}),
    now,
    onHandshake: (h) => handshakes.push(h),
  });
  const scheduler = new Scheduler({
    strategy: options.strategy,
    transport,
    clock: { now },
    ...(options.sizeHints ? { sizeHints: options.sizeHints } : {}),
    ...(options.memory ? { memory: options.memory } : {}),
    ...(options.budgets ? { budgets: options.budgets } : {}),
    ...(options.allowUnsafePorts ? { allowUnsafePorts: true } : {}),
    observer: { onRequestSettled: (r) => results.push(r) },
  });
  transport.attach(scheduler);

  const timeoutMs = options.timeoutMs ?? RUN_TIMEOUT_MS;
  let ended: RunEnd;
  let timedOut = false;
  let stats: ReturnType<Scheduler['stats']>;
  try {
    start(scheduler);
    const deadline = now() + timeoutMs;
    do ended = await untilIdle(scheduler, Math.max(0, deadline - now()), options.signal);
    while (ended === 'idle' && options.onIdle?.(scheduler) === true);
    timedOut = ended === 'timeout';
    stats = scheduler.stats();
  } finally {
    scheduler.close(timedOut ? options.timeoutError?.(timeoutMs) : undefined);
    await transport.close();
  }
  const run = buildRun({ url: options.url, strategy: options.strategy.name, startedAt, t0, results, handshakes, stats, decodedBytes, ...options.record?.() });
  return { ended, run, results };
}

/** Waits for the scheduler to go idle, racing a timer and the signal; removes both before returning. */
async function untilIdle(scheduler: Scheduler, timeoutMs: number, signal: AbortSignal | undefined): Promise<RunEnd> {
  if (signal?.aborted) return 'aborted';
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      scheduler.whenIdle().then((): RunEnd => 'idle'),
      new Promise<RunEnd>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      }),
      new Promise<RunEnd>((resolve) => {
        onAbort = () => resolve('aborted');
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
