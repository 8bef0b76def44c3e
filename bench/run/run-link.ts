/**
 * Everything that runs on one emulated link: one link, one nginx in its server namespace with each
 * origin on its own address (ports 80/443, free inside the namespace), then every cell's
 * contenders, interleaved and rotated per run. Link and nginx are always torn down; a failure is
 * recorded in the cells rather than thrown.
 */
import { startLink, type Link, type LinkInfo } from '../link/link-emulator';
import { hostResolverRules } from '../link/host-resolution';
import { getBenchPage } from '../corpus/bench-corpus';
import { netnsSpawn, startOrigins, type Origins } from '../origins/start-origins';
import { toBenchError } from '../cli/bench-run-error';
import { CONTENDER_SCHEME, rotation, type LinkPlan } from './bench-matrix';
import { linkPreset } from './link-presets';
import { pageInfo } from './page-info';
import { runContender } from './run-contender';
import type { CellResult, RunResult } from './results-schema';
import { summariseRuns } from './summarize-runs';

export interface RunLinkOptions {
  plan: LinkPlan;
  runs: number;
  cliPath: string;
  /** Per page load. */
  timeoutMs: number;
  progress: (line: string) => void;
}

/** Every origin the link's pages touch, the first page's document origin first. */
export function originsFor(pages: readonly string[]): string[] {
  return [...new Set(pages.flatMap((p) => getBenchPage(p).origins))];
}

function emptyCells(o: RunLinkOptions): CellResult[] {
  const linkParams = linkPreset(o.plan.link);
  return o.plan.cells.map((c) => ({ page: c.page, link: o.plan.link, linkParams, pageInfo: pageInfo(getBenchPage(c.page)), contenders: [] }));
}

export async function runLink(o: RunLinkOptions): Promise<{ cells: CellResult[]; info: LinkInfo | undefined }> {
  const cells = emptyCells(o);
  let link: Link | undefined;
  let origins: Origins | undefined;
  try {
    const params = linkPreset(o.plan.link);
    const names = originsFor(o.plan.cells.map((c) => c.page));
    link = await startLink({ ...params, hosts: names.length, seed: 1 });
    const hostMap = Object.fromEntries(names.map((n, i) => [n, link?.serverAddrs[i] ?? '']));
    link.setClientHosts(hostMap);
    origins = await startOrigins({
      bindings: names.map((origin) => ({ origin, address: hostMap[origin] ?? '', httpPort: 80, httpsPort: 443 })),
      pages: o.plan.cells.map((c) => c.page),
      linkHosts: 'name',
      spawn: netnsSpawn(link.serverNs),
    });
    for (const [i, cellPlan] of o.plan.cells.entries()) {
      const cell = cells[i] as CellResult;
      const runs = new Map<string, RunResult[]>(cellPlan.contenders.map((c) => [c, []]));
      const ctx = { link, origins, cliPath: o.cliPath, hostResolverRules: hostResolverRules(hostMap), expectedRequests: cell.pageInfo.requests, timeoutMs: o.timeoutMs };
      for (let run = 0; run < o.runs; run++) {
        for (const contender of rotation(cellPlan.contenders, run)) {
          const r = await runContender(ctx, cellPlan.page, contender);
          runs.get(contender)?.push(r);
          o.progress(`${o.plan.link} ${cellPlan.page} run ${run + 1}/${o.runs} ${contender}: ${r.error ? `${r.error.code} ${r.error.message.slice(0, 120)}` : `${Math.round(r.totalMs ?? NaN)} ms, ${r.connectionsOpened} conn`}`);
        }
      }
      cell.contenders = cellPlan.contenders.map((c) => {
        const rs = runs.get(c) ?? [];
        return { contender: c, scheme: CONTENDER_SCHEME[c], runs: rs, ...summariseRuns(rs) };
      });
    }
    return { cells, info: link.info };
  } catch (err) {
    const error = toBenchError(err);
    o.progress(`${o.plan.link}: ${error.code}: ${error.message}`);
    for (const c of cells) if (c.contenders.length === 0) c.error = error;
    return { cells, info: link?.info };
  } finally {
    await origins?.stop().catch(() => undefined);
    await link?.close().catch(() => undefined);
  }
}
