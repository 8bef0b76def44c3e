/**
 * Goal 1 — scheduler overhead: the CPU cost of the dispatch policy alone, per request, with
 * 10,000 requests queued at once.
 *
 * What is timed: `enqueue` of every request, then a synchronous "transport" that readies each
 * connection the scheduler opens and answers the oldest unanswered dispatch with
 * `responseStarted` + `responseEnded`, until every request has settled. So each request pays for
 * its enqueue (URL parsing and validation included), its dispatch decision, its settlement and
 * the re-pumps those trigger. No sockets, no promises, no timers: the result is the scheduler's
 * own cost, which is what the goal bounds.
 *
 * Fairness: the request specs are built before the clock starts; the clock the scheduler reads is
 * `performance.now` (as in the host, so clock reads are counted too); each case gets one untimed
 * warm-up run so the JIT has compiled the hot paths; the median of several runs is reported. The
 * baseline pushes the same number of small objects through an array FIFO, to show what "trivial
 * per-request work" costs on this machine.
 */
import { Scheduler, strategy, type RequestSpec, type StrategyName } from '../../src/scheduler';
import { FakeTransport } from '../../test/support/fake-transport';
import { median, round } from './stats';

export interface OverheadOptions {
  /** Requests queued at once. @default 10000 */
  requests?: number;
  /** Timed runs per case (after one warm-up). @default 5 */
  repetitions?: number;
}

export interface OverheadCase {
  strategy: StrategyName;
  origins: number;
  /** Median µs per request over the timed runs. */
  usPerRequest: number;
  samplesUs: number[];
  connectionsOpened: number;
  dispatches: number;
}

export interface OverheadReport {
  requests: number;
  repetitions: number;
  cases: OverheadCase[];
  /** Median µs per item of the trivial array-FIFO loop. */
  baselineUsPerRequest: number;
  baselineSamplesUs: number[];
}

const CASES: ReadonlyArray<{ strategy: StrategyName; origins: number }> = [
  { strategy: 'getlist', origins: 1 },
  { strategy: 'browser', origins: 1 },
  { strategy: 'getlist', origins: 10 },
  { strategy: 'browser', origins: 10 },
];

const H1 = { protocol: 'http/1.1' } as const;
const START = { status: 200, httpVersion: '1.1', keepAlive: true, contentLength: 1024 };
const END = { bytes: 1024 };

/** Requests spread round-robin over `origins` plain-http origins, all of priority `image`. */
export function buildSpecs(count: number, origins: number): RequestSpec[] {
  const specs: RequestSpec[] = [];
  for (let i = 0; i < count; i++) specs.push({ url: `http://o${i % origins}.bench.test/r/${i}.gif`, priority: 'image' });
  return specs;
}

/** One timed drive of a fresh scheduler over `specs`; returns elapsed ms and counters. */
function driveOnce(name: StrategyName, specs: readonly RequestSpec[]): { ms: number; connections: number; dispatches: number } {
  const transport = new FakeTransport();
  let settled = 0;
  const scheduler = new Scheduler({
    strategy: strategy(name),
    transport,
    clock: { now: () => performance.now() },
    observer: { onRequestSettled: () => { settled += 1; } },
  });
  const t0 = performance.now();
  for (const spec of specs) scheduler.enqueue(spec);
  let readied = 0;
  let next = 0;
  while (settled < specs.length) {
    while (readied < transport.opened.length) scheduler.connectionReady((transport.opened[readied++] as { id: number }).id, H1);
    const d = transport.sent[next++];
    if (!d) throw new Error(`scheduler stalled: ${settled}/${specs.length} settled, nothing outstanding (${name})`);
    scheduler.responseStarted(d.id, START);
    scheduler.responseEnded(d.id, END);
  }
  const ms = performance.now() - t0;
  const stats = scheduler.stats();
  scheduler.close();
  return { ms, connections: stats.connectionsOpened, dispatches: stats.dispatches };
}

/** The trivial baseline: push `count` small objects into an array, then shift them all out. */
function baselineOnce(specs: readonly RequestSpec[]): number {
  const t0 = performance.now();
  const fifo: Array<{ id: number; url: string }> = [];
  for (let i = 0; i < specs.length; i++) fifo.push({ id: i, url: (specs[i] as RequestSpec).url });
  let sink = 0;
  while (fifo.length > 0) sink += (fifo.shift() as { id: number }).id;
  const ms = performance.now() - t0;
  if (sink < 0) throw new Error('unreachable'); // keeps the loop observable to the optimiser
  return ms;
}

export function runSchedulerOverhead(options: OverheadOptions = {}): OverheadReport {
  const requests = options.requests ?? 10_000;
  const repetitions = options.repetitions ?? 5;
  const cases: OverheadCase[] = [];
  for (const c of CASES) {
    const specs = buildSpecs(requests, c.origins);
    driveOnce(c.strategy, specs); // warm-up
    const samples: number[] = [];
    let last = { ms: 0, connections: 0, dispatches: 0 };
    for (let r = 0; r < repetitions; r++) {
      last = driveOnce(c.strategy, specs);
      samples.push((last.ms * 1000) / requests);
    }
    cases.push({
      strategy: c.strategy,
      origins: c.origins,
      usPerRequest: round(median(samples)),
      samplesUs: samples.map((x) => round(x)),
      connectionsOpened: last.connections,
      dispatches: last.dispatches,
    });
  }
  const specs = buildSpecs(requests, 1);
  for (let w = 0; w < 3; w++) baselineOnce(specs); // warm-up: the loop is short enough to need several
  const baseline: number[] = [];
  for (let r = 0; r < repetitions; r++) baseline.push((baselineOnce(specs) * 1000) / requests);
  return {
    requests,
    repetitions,
    cases,
    baselineUsPerRequest: round(median(baseline), 4),
    baselineSamplesUs: baseline.map((x) => round(x, 4)),
  };
}
