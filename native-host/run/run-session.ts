import { buildRun, type Run } from '../../src/run';
import { Scheduler, type RequestResult, type Strategy } from '../../src/scheduler';
import type { HandshakeRecord } from '../../src/stats/handshake';
import type { ResponseHooks } from '../transport/response-hooks';
import { UndiciTransport, type UndiciTransportOptions } from '../transport/undici-transport';

/** What a run may set of the transport: TLS trust, timeouts, the user agent, test hooks. */
export type RunTransportOptions = Pick<UndiciTransportOptions, 'ca' | 'rejectUnauthorized' | 'timeoutMs' | 'handshakeDelayMs' | 'requestTimeoutMs' | 'userAgent'>;

export interface RunSessionOptions {
  /** Recorded as the run's `url`. */
  url: string;
  strategy: Strategy;
  transport?: RunTransportOptions;
  /** Watchers of each response besides the scheduler (a page load's scanners). */
  hooks?: ResponseHooks;
  /** Response sizes learned on earlier runs (shared across runs to model a returning visitor). */
  sizeHints?: Map<string, number>;
  /** The run stops waiting after this long; what is unfinished then fails with `E_SCHEDULER_CLOSED`. @default 120000 */
  timeoutMs?: number;
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
 * One run on fresh connections: a new transport and connector (no warm sockets, no TLS session
 * reuse), a scheduler attached to it, `start` to enqueue the first requests (it may keep
 * enqueueing from `hooks`), then a wait until the scheduler is idle, the timeout fires or the
 * signal aborts — whichever is first. Whatever happens, the scheduler is closed (settling what is
 * still pending with `E_SCHEDULER_CLOSED`) and every connection closed before this returns or
 * throws. The caller decides what a timeout or an abort means.
 */
export async function runSession(options: RunSessionOptions, start: (scheduler: Scheduler) => void): Promise<RunSessionResult> {
  const now = options.now ?? (() => performance.now());
  const startedAt = Date.now();
  const t0 = now();
  const results: RequestResult[] = [];
  const handshakes: HandshakeRecord[] = [];
  const transport = new UndiciTransport({ ...options.transport, ...options.hooks, now, onHandshake: (h) => handshakes.push(h) });
  const scheduler = new Scheduler({
    strategy: options.strategy,
    transport,
    clock: { now },
    ...(options.sizeHints ? { sizeHints: options.sizeHints } : {}),
    observer: { onRequestSettled: (r) => results.push(r) },
  });
  transport.attach(scheduler);

  let ended: RunEnd;
  let stats: ReturnType<Scheduler['stats']>;
  try {
    start(scheduler);
    ended = await untilIdle(scheduler, options.timeoutMs ?? 120_000, options.signal);
    stats = scheduler.stats();
  } finally {
    scheduler.close();
    await transport.close();
  }
  const run = buildRun({ url: options.url, strategy: options.strategy.name, startedAt, t0, results, handshakes, stats });
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
