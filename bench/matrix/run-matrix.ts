/** Runs a plan link by link, collects the meta, and writes the results file. */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { collectMeta } from '../engine/meta';
import type { LinkInfo } from '../link/link-emulator';
import { ALL_CONTENDERS, CONTENDER_SCHEME, planLoads, type BenchPlan } from '../run/bench-matrix';
import { runLink } from '../run/run-link';
import { RESULTS_SCHEMA_VERSION, type BenchResults, type CellResult } from '../run/results-schema';
import { chromiumVersion, nginxVersionText } from './tool-versions';

export interface BenchRunOptions {
  plan: BenchPlan;
  cliPath: string;
  timeoutMs: number;
  command: string;
  progress: (line: string) => void;
  /**
   * Links run at once, each in its own pair of namespaces with its own nginx. @default 1. More
   * than one shares the machine's cores between links, which is harmless for bandwidth-bound cells
   * (the DSL and mobile links move ≤ 2 Mbit/s) but adds scheduling noise to latency-bound ones;
   * the results record the value used.
   */
  jobs?: number;
  /** Called with everything finished so far after each link, e.g. to write a partial results file. */
  onLinkDone?: (partial: BenchResults) => void;
}

export async function runBench(o: BenchRunOptions): Promise<BenchResults> {
  const started = new Date();
  const jobs = Math.max(1, Math.min(o.jobs ?? 1, o.plan.links.length));
  o.progress(`${o.plan.mode}: ${o.plan.links.length} links, ${planLoads(o.plan)} page loads, ${jobs} link${jobs === 1 ? '' : 's'} at a time`);
  // Results stay in plan order whatever order the links finish in.
  const byLink: Array<CellResult[] | undefined> = o.plan.links.map(() => undefined);
  let info: LinkInfo | undefined;
  const assemble = (): BenchResults => assembleResults(o, started, jobs, info, byLink.flatMap((c) => c ?? []));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < o.plan.links.length) {
      const i = next++;
      const plan = o.plan.links[i] as BenchPlan['links'][number];
      const t0 = Date.now();
      const r = await runLink({ plan, runs: plan.runs ?? o.plan.runs, cliPath: o.cliPath, timeoutMs: o.timeoutMs, progress: o.progress });
      info ??= r.info;
      byLink[i] = r.cells;
      o.progress(`${plan.link} done in ${((Date.now() - t0) / 1000).toFixed(1)} s (${byLink.filter(Boolean).length}/${o.plan.links.length} links)`);
      o.onLinkDone?.(assemble());
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return assemble();
}

function assembleResults(o: BenchRunOptions, started: Date, jobs: number, info: LinkInfo | undefined, cells: CellResult[]): BenchResults {
  const base = collectMeta(started, Date.now() - started.getTime(), process.argv.slice(2), 0);
  return {
    meta: {
      schemaVersion: RESULTS_SCHEMA_VERSION,
      date: started.toISOString(),
      elapsedMs: Date.now() - started.getTime(),
      mode: o.plan.mode,
      runs: o.plan.runs,
      jobs,
      machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', kernel: release(), memoryGiB: Math.round(totalmem() / 2 ** 30) },
      node: process.version,
      chromium: chromiumVersion(),
      nginx: nginxVersionText(),
      link: info && { congestionControl: info.congestionControl, slowStartAfterIdle: info.slowStartAfterIdle, initCwnd: info.initCwnd, initRwnd: info.initRwnd, mtu: info.mtu, privilege: info.privilege ?? 'root' },
      gitCommit: base.gitCommit,
      gitDirty: base.gitDirty,
      command: o.command,
      schemes: Object.fromEntries(ALL_CONTENDERS.map((c) => [c, CONTENDER_SCHEME[c]])) as BenchResults['meta']['schemes'],
    },
    cells,
  };
}

/** Atomic write: a reader never sees half a file. */
export function writeResults(path: string, results: BenchResults): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, `${JSON.stringify(results, null, 2)}\n`);
  renameSync(tmp, path);
}
