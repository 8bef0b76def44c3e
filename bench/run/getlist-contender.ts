/**
 * One page load by a getlist strategy: `getlist load URL --strategy S --json` run inside the
 * client namespace, so it resolves names through the namespace's hosts file and crosses the link.
 */
import type { RunFigures, RunJson } from '../../src/run';
import type { Link } from '../link/link-emulator';
import { BenchRunError } from '../cli/bench-run-error';
import { childOutput } from './child-output';
import type { GetlistStrategy } from './results-schema';

/** What a results file keeps of a getlist run: a few of its figures and the protocols its connections spoke. */
export interface GetlistLoad extends Pick<RunFigures, 'totalMs' | 'meanTtfbMs' | 'connectionsOpened' | 'errors'> {
  protocols: string[];
}

/** A `RunJson` as read from another process: every field still to be checked. */
type CliRun = { [K in keyof RunJson]?: unknown } & { handshakes?: Array<{ protocol?: unknown }> };

/** runs[0] of `getlist load --json` output, unchecked beyond being an object; `E_RUN_BAD_OUTPUT` otherwise. */
export function firstLoadRun(stdout: string): Record<string, unknown> {
  const runs = loadRuns(stdout);
  return runOf(runs[0], stdout);
}

/** The last run of `getlist load --json --repeat N` output, as `firstLoadRun` reads the first. */
export function lastLoadRun(stdout: string): Record<string, unknown> {
  const runs = loadRuns(stdout);
  return runOf(runs[runs.length - 1], stdout);
}

function loadRuns(stdout: string): unknown[] {
  try {
    const parsed = JSON.parse(stdout) as { runs?: unknown };
    return Array.isArray(parsed.runs) ? parsed.runs : [];
  } catch {
    throw new BenchRunError('E_RUN_BAD_OUTPUT', `getlist printed something that is not JSON: ${stdout.slice(0, 200)}`);
  }
}

function runOf(run: unknown, stdout: string): Record<string, unknown> {
  if (typeof run !== 'object' || run === null) throw new BenchRunError('E_RUN_BAD_OUTPUT', `getlist JSON has no runs[0]: ${stdout.slice(0, 200)}`);
  return run as Record<string, unknown>;
}

/**
 * A run's failed requests, each as `path CODE (after N ms)`, for a results file's error list: what
 * failed, not only how many (`run` is runs[0] of `getlist load --json`, unchecked).
 */
export function failedRequests(run: Record<string, unknown>): string[] {
  const requests = Array.isArray(run.requests) ? (run.requests as Array<Record<string, unknown>>) : [];
  return requests.filter((r) => typeof r.error === 'object' && r.error !== null).map((r) => {
    const code = String((r.error as { code?: unknown }).code ?? '?');
    let path = String(r.url ?? '');
    try {
      const u = new URL(path);
      path = u.host + u.pathname;
    } catch {
      // kept as given
    }
    return `${path} ${code}${typeof r.doneMs === 'number' ? ` (after ${Math.round(r.doneMs)} ms)` : ''}`;
  });
}

/** The first run of `getlist load --json` output; throws `E_RUN_BAD_OUTPUT` when it is not that. */
export function parseGetlistJson(stdout: string): GetlistLoad {
  return getlistLoadOf(firstLoadRun(stdout));
}

/** A run already read by `firstLoadRun`, summed up; throws `E_RUN_BAD_OUTPUT` without a total time. */
export function getlistLoadOf(parsed: Record<string, unknown>): GetlistLoad {
  const run = parsed as CliRun;
  const num = (v: unknown): number => (typeof v === 'number' ? v : Number.NaN);
  if (typeof run.totalMs !== 'number') throw new BenchRunError('E_RUN_BAD_OUTPUT', `getlist JSON has no runs[0].totalMs: ${JSON.stringify(parsed).slice(0, 200)}`);
  const protocols = [...new Set((run.handshakes ?? []).map((h) => (typeof h.protocol === 'string' ? h.protocol : '')).filter(Boolean))].sort();
  return { totalMs: run.totalMs, meanTtfbMs: num(run.meanTtfbMs), connectionsOpened: num(run.connectionsOpened), errors: num(run.errors), protocols };
}

/**
 * Runs `getlist load <args> --json` inside the client namespace and returns its stdout. A non-zero
 * exit becomes `E_RUN_TIMEOUT` (the CLI's own `E_LOAD_TIMEOUT`) or `E_RUN_FAILED`, with its last
 * stderr line; the process is killed 15 s after `timeoutMs`.
 */
export async function runGetlistLoad(link: Pick<Link, 'execInClient'>, cliPath: string, args: readonly string[], timeoutMs: number, what: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const child = link.execInClient(process.execPath, [cliPath, 'load', ...args, '--json', '--timeout', String(timeoutMs)], { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
  const out = await childOutput(child, timeoutMs + 15_000, what);
  if (out.code !== 0) {
    const line = out.stderr.trim().split('\n').pop() ?? '';
    const code = /getlist: (E_[A-Z_]+)/.exec(line)?.[1];
    throw new BenchRunError(code === 'E_LOAD_TIMEOUT' ? 'E_RUN_TIMEOUT' : 'E_RUN_FAILED', `${what} exited ${out.code ?? out.signal}: ${line.slice(0, 300)}`);
  }
  return out.stdout;
}

export interface GetlistLoadOptions {
  link: Pick<Link, 'execInClient'>;
  cliPath: string;
  url: string;
  strategy: GetlistStrategy;
  caPath: string;
  /** The CLI's own `--timeout`; the process is killed 15 s after it. */
  timeoutMs: number;
}

export async function loadWithGetlist(o: GetlistLoadOptions): Promise<GetlistLoad> {
  const stdout = await runGetlistLoad(o.link, o.cliPath, [o.url, '--strategy', o.strategy, '--ca', o.caPath], o.timeoutMs, `getlist ${o.strategy} ${o.url}`);
  return parseGetlistJson(stdout);
}
