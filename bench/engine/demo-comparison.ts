/**
 * Goal 3 — the demo site at 100 ms RTT: whole-page load time of `getlist` against the
 * strategies of the seed papers, on the emulated link (`startLinkProxy`: 50 ms each way, the
 * default 20/5 Mbit/s shared bottleneck, one extra RTT charged to every new connection).
 *
 * Every load is a real `loadPage` (HTML streamed into the scanner, subresources enqueued as
 * discovered, stylesheets scanned for late `url()`s) with fresh connections, so each strategy
 * pays its own handshakes. Strategies are interleaved within each repetition (http10, browser,
 * pipelined, getlist, then again) so slow drift affects all of them alike; one untimed warm-up
 * load compiles the hot paths first. `http10` on `mcmanus-159` opens 159 connections one after
 * another (≈ 2 RTT each, ≈ 32 s a load), so it runs once there; everything else runs
 * `repetitions` times. Medians are reported; a failed load is recorded, not fatal.
 */
import { strategy, type StrategyName } from '../../src/scheduler';
import { getPage } from '../../native-host/demo/corpus';
import { startDemoServer } from '../../native-host/demo/demo-server';
import { DEFAULT_DOWNLINK_BITS_PER_SEC, DEFAULT_UPLINK_BITS_PER_SEC, startLinkProxy } from '../../native-host/demo/link-proxy';
import { loadPage } from '../../native-host/run/page-loader';
import { runFigures, type Run, type RunFigures } from '../../src/run';
import { median, progress, round } from './stats';

export const DEMO_STRATEGIES: readonly StrategyName[] = ['http10', 'browser', 'pipelined', 'getlist'];

export interface DemoOptions {
  rttMs?: number;
  repetitions?: number;
  pages?: readonly string[];
  /** Repetitions of `http10` on pages with more than 50 requests. @default 1 */
  slowRepetitions?: number;
}

export interface DemoRun extends RunFigures {
  /** Requests the load made (document included). */
  requests: number;
  retries: number;
  demotions: number;
}

export interface DemoStrategyResult {
  strategy: StrategyName;
  runs: DemoRun[];
  /** Loads that threw (message per failure). */
  failures: string[];
  medianTotalMs: number;
  medianTtfbMs: number;
  medianConnections: number;
  medianRequestsPerConnection: number;
}

export interface DemoPageResult {
  page: string;
  /** Requests a load makes (document included). */
  requests: number;
  strategies: DemoStrategyResult[];
  /** Median totalMs of each strategy divided by getlist's (higher = getlist faster). */
  ratios: Record<string, number>;
}

export interface DemoReport {
  rttMs: number;
  downlinkBitsPerSec: number;
  uplinkBitsPerSec: number;
  pages: DemoPageResult[];
}

function toRun(r: Run): DemoRun {
  return {
    ...runFigures(r),
    requests: r.requests.length,
    retries: r.retries,
    demotions: r.demotions.length,
  };
}

function summarize(name: StrategyName, runs: DemoRun[], failures: string[]): DemoStrategyResult {
  return {
    strategy: name,
    runs,
    failures,
    medianTotalMs: round(median(runs.map((r) => r.totalMs)), 1),
    medianTtfbMs: round(median(runs.map((r) => r.meanTtfbMs)), 1),
    medianConnections: median(runs.map((r) => r.connectionsOpened)),
    medianRequestsPerConnection: round(median(runs.map((r) => r.requestsPerConnection)), 2),
  };
}

export async function runDemoComparison(options: DemoOptions = {}): Promise<DemoReport> {
  const rttMs = options.rttMs ?? 100;
  const repetitions = options.repetitions ?? 3;
  const slowRepetitions = options.slowRepetitions ?? 1;
  const pages = options.pages ?? ['pm95', 'mcmanus-159'];
  const server = await startDemoServer();
  const proxy = await startLinkProxy({ target: { host: '127.0.0.1', port: server.port }, rttMs });
  try {
    const url = (page: string) => `${proxy.origin}${getPage(page).path}`;
    await loadPage({ url: url('pm95'), strategy: strategy('getlist') }); // warm-up, not reported
    const out: DemoPageResult[] = [];
    for (const page of pages) {
      const requests = getPage(page).resources.length + 1;
      const runs = new Map<StrategyName, DemoRun[]>(DEMO_STRATEGIES.map((s) => [s, []]));
      const failures = new Map<StrategyName, string[]>(DEMO_STRATEGIES.map((s) => [s, []]));
      for (let rep = 0; rep < repetitions; rep++) {
        for (const name of DEMO_STRATEGIES) {
          if (name === 'http10' && requests > 50 && rep >= slowRepetitions) continue;
          try {
            const r = await loadPage({ url: url(page), strategy: strategy(name), timeoutMs: 90_000 });
            (runs.get(name) as DemoRun[]).push(toRun(r));
            progress(`demo ${page} rep ${rep + 1}/${repetitions} ${name}: ${Math.round(r.totalMs)} ms, ${r.connectionsOpened} conns, ${r.errors} errors`);
          } catch (err) {
            (failures.get(name) as string[]).push(err instanceof Error ? err.message : String(err));
            progress(`demo ${page} rep ${rep + 1}/${repetitions} ${name}: FAILED ${String(err)}`);
          }
        }
      }
      const strategies = DEMO_STRATEGIES.map((s) => summarize(s, runs.get(s) as DemoRun[], failures.get(s) as string[]));
      const g = strategies.find((s) => s.strategy === 'getlist')?.medianTotalMs ?? Number.NaN;
      const ratios: Record<string, number> = {};
      for (const s of strategies) if (s.strategy !== 'getlist') ratios[`${s.strategy}/getlist`] = round(s.medianTotalMs / g, 2);
      out.push({ page, requests, strategies, ratios });
    }
    return { rttMs, downlinkBitsPerSec: DEFAULT_DOWNLINK_BITS_PER_SEC, uplinkBitsPerSec: DEFAULT_UPLINK_BITS_PER_SEC, pages: out };
  } finally {
    await proxy.close();
    await server.close();
  }
}
