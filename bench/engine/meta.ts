/** Where and when a benchmark ran, so saved results can be compared across machines and commits. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';

export interface RunMeta {
  startedAt: string;
  elapsedMs: number;
  node: string;
  os: string;
  cpuModel: string;
  cpuCount: number;
  memoryGiB: number;
  /** 1-minute load average when the run started and ended: other work on the machine skews timings. */
  loadAverage: { start: number; end: number };
  gitCommit: string | undefined;
  /** True when the working tree had uncommitted changes (numbers may not match the commit). */
  gitDirty: boolean | undefined;
  argv: string[];
}

function git(args: string[]): string | undefined {
  try {
    return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** The 1-minute load average now (0 where the OS does not report one). */
export function loadNow(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export function collectMeta(startedAt: Date, elapsedMs: number, argv: string[], loadAtStart: number): RunMeta {
  const status = git(['status', '--porcelain']);
  return {
    startedAt: startedAt.toISOString(),
    elapsedMs: Math.round(elapsedMs),
    node: process.version,
    os: `${osType()} ${release()}`,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpuCount: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverage: { start: loadAtStart, end: loadNow() },
    gitCommit: git(['rev-parse', 'HEAD']),
    gitDirty: status === undefined ? undefined : status.length > 0,
    argv,
  };
}
