/**
 * `runSelfCheck()`: does the emulated link do what it was told? Three measurements through real
 * kernel TCP/UDP in the namespaces (see self-check-checks.ts). Used by test/bench-link and by
 * `node dist/bench/link.js selfcheck`.
 */
import { checkConnectTime, checkLoss, checkThroughput, type CheckResult } from './self-check-checks';
import { startLink, type LinkInfo } from './link-emulator';

export type { CheckResult } from './self-check-checks';

export interface SelfCheckResult {
  passed: boolean;
  checks: CheckResult[];
  /** What TCP ran with (congestion control, initial window, …), from a link with default options. */
  info: LinkInfo;
  elapsedMs: number;
}

export async function runSelfCheck(log: (line: string) => void = () => undefined): Promise<SelfCheckResult> {
  const started = performance.now();
  const probe = await startLink({ rttMs: 0 });
  const info = probe.info;
  await probe.close();
  const checks: CheckResult[] = [];
  for (const run of [() => checkConnectTime(), () => checkThroughput(), () => checkLoss()]) {
    for (const check of [await run()].flat()) {
      checks.push(check);
      log(formatCheck(check));
    }
  }
  return { passed: checks.every((c) => c.passed), checks, info, elapsedMs: Math.round(performance.now() - started) };
}

export function formatCheck(c: CheckResult): string {
  return `${c.passed ? 'ok  ' : 'FAIL'} ${c.name}: ${c.measured} (expected ${c.expected})`;
}
