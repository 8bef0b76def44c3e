/**
 * The real-shaped benchmark: the real-shaped pages (corpus/page-real.ts) and the P&M
 * page on the packet-level link, each cell with every contender interleaved and rotated per run,
 * first visit and revisit side by side, ratios printed from the same run.
 *
 * Contenders: `browser`, `getlist`, `h2` (each `getlist load --strategy S`, a first visit: no
 * memory); `getlist-revisit` (`getlist load --strategy getlist --revisit`: one unmeasured load in
 * the same process, then the measured one starts from what it learned — origin memory, the page's
 * origin list, size hints; no HTTP cache for anyone); `chromium` (headless Chromium, fresh
 * profile every load, h2 wherever an origin offers it, as on the real web); `chromium-h1` (the same
 * with `--disable-http2`: HTTP/1.1 everywhere, TLS where the origin is https — real Chromium's
 * counterpart of `browser`). Every contender loads the document over the page's own scheme.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startLink } from '../link/link-emulator';
import type { LinkOptions } from '../link/link-options';
import { hostResolverRules } from '../link/host-resolution';
import { getBenchPage, requestCount } from '../corpus/bench-corpus';
import { netnsSpawn, startOrigins, type Origins, type StartOriginsOptions } from '../origins/start-origins';
import { pipeliningEarned, type PipeliningEarned } from '../run/pipelining-earned';
import { rotation } from '../run/bench-matrix';
import { loadWithChromium } from '../run/chromium-contender';
import { failedRequests, firstLoadRun, getlistLoadOf, lastLoadRun, runGetlistLoad } from '../run/getlist-contender';
import { originsFor } from '../run/run-link';
import { getlistTrace, type LoadTrace } from '../run/load-trace';
import { serverView } from '../run/access-log-delta';
import { NO_CAP_BITS_PER_SEC, realBound, type BoundVisit } from './real-bounds';
import { forgetPage, linkWarmUpPage } from './link-known';

export const REAL_CONTENDERS = ['browser', 'getlist', 'getlist-revisit', 'h2', 'chromium', 'chromium-h1'] as const;
/**
 * Run only when named: `getlist-cold` is `getlist` with `--cold-discovery`, what a fresh process
 * pays for its cold discovery code (bench/README.md, "Cold discovery"); `getlist-revisit-1h2` is
 * `getlist-revisit` with `--h2-connections 1`, the revisit without its learned list's HTTP/2
 * windows, and `getlist-third-visit` the visit after a revisit, from what both loads before it
 * learned (bench/README.md, "A revisit's HTTP/2 windows"). `getlist-link` is a first visit by a
 * client whose link an unmeasured load of another page just showed (link-known.ts).
 */
export const REAL_OPTIONAL_CONTENDERS = ['getlist-cold', 'getlist-revisit-1h2', 'getlist-third-visit', 'getlist-link'] as const;
export type RealContender = (typeof REAL_CONTENDERS)[number] | (typeof REAL_OPTIONAL_CONTENDERS)[number];

/** The `getlist load` flags of a getlist contender; `last`: its last run is the one measured. */
const GETLIST_ARGS: Record<string, { strategy: string; extra: string[]; last?: true }> = {
  'getlist-revisit': { strategy: 'getlist', extra: ['--revisit'] },
  'getlist-cold': { strategy: 'getlist', extra: ['--cold-discovery'] },
  'getlist-revisit-1h2': { strategy: 'getlist', extra: ['--revisit', '--h2-connections', '1'] },
  // An unmeasured load, a revisit, then the visit measured: each starts from what the loads before it learned.
  'getlist-third-visit': { strategy: 'getlist', extra: ['--revisit', '--repeat', '2'], last: true },
  // A first visit from the memory another page's load left (link-known.ts); `--memory` is added per run.
  'getlist-link': { strategy: 'getlist', extra: [] },
};

export interface RealLink {
  name: string;
  rttMs: number;
  /** Downlink and uplink rate; `undefined` = no cap (1 Gbit/s on the emulator). */
  capBitsPerSec: number | undefined;
}

export interface RealCellResult {
  link: string;
  rttMs: number;
  /** The link's cap, bit/s; null = no cap. */
  capBitsPerSec: number | null;
  page: string;
  requests: number;
  /** Page-complete ms per run, per contender (`null`: that load failed). */
  runs: Record<string, Array<number | null>>;
  errors: Record<string, string[]>;
  /** Per load of each contender (Chromium's from its CDP events), in run order (real-timeline.ts). */
  traces: Record<string, LoadTrace[]>;
  /**
   * Per load of each contender, in run order, what the origin servers logged during it: requests,
   * `HEAD`s apart, connections and protocols. `/favicon.ico` is left out: getlist asks for it as a
   * browser does, Chromium in its own time, maybe after the load. `getlist-revisit`'s covers both
   * of its loads, the unmeasured one that learns and the measured one (`getlist-third-visit`'s its three).
   */
  server: Record<string, RealServerLoad[]>;
  /** Per getlist load of each contender, in run order: the pipelining its records show (absent in older results). */
  pipelining?: Record<string, PipeliningEarned[]>;
}

/** Starts the servers a link's pages are served from: nginx origins by default, or a zoo member (bench/zoo). */
export type ServeOrigins = (o: Pick<StartOriginsOptions, 'bindings' | 'pages' | 'linkHosts' | 'spawn'>) => Promise<Origins>;

export interface RealServerLoad {
  /** Requests other than `HEAD`. */
  requests: number;
  /** `HEAD` requests: getlist's pipelining probes (one per plain-http origin it may pipeline). */
  heads: number;
  connections: number;
  /** As nginx logs them: `HTTP/1.1`, `HTTP/2.0`. */
  protocols: string[];
}

export function realLinks(rtts: readonly number[], caps: readonly (number | undefined)[]): RealLink[] {
  return rtts.flatMap((rttMs) => caps.map((cap) => ({ name: `real-${rttMs}${cap === undefined ? '' : `-${cap / 1e6}m`}`, rttMs, capBitsPerSec: cap })));
}

export interface RealCellPlan {
  page: string;
  contenders: readonly RealContender[];
}

/** Runs every cell on one link; a failed load is recorded, never thrown. */
export async function runRealLink(link: RealLink, cells: readonly RealCellPlan[], runs: number, cliPath: string, timeoutMs: number, progress: (l: string) => void, serve: ServeOrigins = startOrigins): Promise<RealCellResult[]> {
  const pages = servedPages(cells);
  const names = originsFor(pages);
  const rate = link.capBitsPerSec ?? NO_CAP_BITS_PER_SEC;
  const opts: LinkOptions = { rttMs: link.rttMs, downBitsPerSec: rate, upBitsPerSec: rate, loss: 0, hosts: names.length, seed: 1 };
  const l = await startLink(opts);
  let origins: Origins | undefined;
  try {
    const hostMap = Object.fromEntries(names.map((n, i) => [n, l.serverAddrs[i] ?? '']));
    l.setClientHosts(hostMap);
    origins = await serve({
      bindings: names.map((origin) => ({ origin, address: hostMap[origin] ?? '', httpPort: 80, httpsPort: 443 })),
      pages,
      linkHosts: 'name',
      spawn: netnsSpawn(l.serverNs),
    });
    const out: RealCellResult[] = [];
    for (const cell of cells) {
      const page = getBenchPage(cell.page);
      const url = origins.pageUrl(cell.page, page.documentScheme ?? 'http');
      const result: RealCellResult = { link: link.name, rttMs: link.rttMs, capBitsPerSec: link.capBitsPerSec ?? null, page: cell.page, requests: requestCount(page), runs: {}, errors: {}, traces: {}, server: {}, pipelining: {} };
      for (const c of cell.contenders) {
        result.runs[c] = [];
        if (!c.startsWith('chromium')) (result.pipelining ??= {})[c] = [];
        result.errors[c] = [];
        result.traces[c] = [];
        result.server[c] = [];
      }
      for (let run = 0; run < runs; run++) {
        for (const c of rotation(cell.contenders, run)) {
          let ms: number | null = null;
          const linkMemory = c === 'getlist-link' ? await warmUp(l, cliPath, origins, cell.page, timeoutMs).catch((err: Error) => err) : undefined;
          const before = origins.accessLog().length;
          try {
            if (linkMemory instanceof Error) throw linkMemory;
            if (c === 'chromium' || c === 'chromium-h1') {
              const r = await loadWithChromium({
                clientNs: l.clientNs, url, hostResolverRules: hostResolverRules(hostMap), spkiHashes: [origins.spkiHash, origins.caSpkiHash], timeoutMs,
                expectedRequests: result.requests, http1Only: c === 'chromium-h1',
              });
              ms = r.network.totalMs;
              result.traces[c]?.push(r.timeline);
            } else {
              const { strategy, extra, last } = GETLIST_ARGS[c] ?? { strategy: c, extra: [] };
              const memory = linkMemory === undefined ? [] : ['--memory', linkMemory];
              const stdout = await runGetlistLoad(l, cliPath, [url, '--strategy', strategy, '--ca', origins.caPath, ...extra, ...memory], timeoutMs, `${c} ${url}`);
              const run = last === true ? lastLoadRun(stdout) : firstLoadRun(stdout);
              const g = getlistLoadOf(run);
              result.traces[c]?.push(getlistTrace(run));
              result.pipelining?.[c]?.push(pipeliningEarned(run as unknown as Parameters<typeof pipeliningEarned>[0]));
              ms = g.errors > 0 ? null : g.totalMs;
              if (g.errors > 0) result.errors[c]?.push(`${g.errors} request(s) failed: ${failedRequests(run).join('; ')}`);
            }
          } catch (err) {
            result.errors[c]?.push(String((err as Error).message).slice(0, 200));
          }
          result.runs[c]?.push(ms);
          if (typeof linkMemory === 'string') rmSync(dirname(linkMemory), { recursive: true, force: true });
          await origins.settleLog?.();
          const logged = origins.accessLog().slice(before).filter((e) => e.path !== '/favicon.ico');
          const seen = serverView(logged);
          const heads = logged.filter((e) => e.method === 'HEAD').length;
          result.server[c]?.push({ requests: seen.requests - heads, heads, connections: seen.connectionsOpened, protocols: seen.protocols });
          progress(`${link.name} ${cell.page} run ${run + 1}/${runs} ${c}: ${ms === null ? 'failed' : `${Math.round(ms)} ms`}`);
        }
      }
      out.push(result);
    }
    return out;
  } finally {
    await origins?.stop().catch(() => undefined);
    await l.close().catch(() => undefined);
  }
}

/** The cells' pages, and the pages `getlist-link` loads first. */
function servedPages(cells: readonly RealCellPlan[]): string[] {
  const pages = new Set(cells.map((c) => c.page));
  for (const c of cells) if (c.contenders.includes('getlist-link')) pages.add(linkWarmUpPage(c.page));
  return [...pages];
}

/** `getlist-link`'s unmeasured load of another page; the memory file the measured load starts from. */
async function warmUp(l: Parameters<typeof runGetlistLoad>[0], cliPath: string, origins: Origins, page: string, timeoutMs: number): Promise<string> {
  const other = linkWarmUpPage(page);
  const path = join(mkdtempSync(join(tmpdir(), 'getlist-link-')), 'memory.json');
  const url = origins.pageUrl(other, getBenchPage(other).documentScheme ?? 'http');
  await runGetlistLoad(l, cliPath, [url, '--strategy', 'getlist', '--ca', origins.caPath, '--memory', path], timeoutMs, `getlist-link warm-up ${url}`);
  forgetPage(path, page);
  return path;
}

export function median(xs: ReadonlyArray<number | null>): number | null {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? (v[m] as number) : ((v[m - 1] as number) + (v[m] as number)) / 2;
}

/** A median for the tables: rounded, or a dash for none. */
const ms = (x: number | null): string => (x === null ? '—' : String(Math.round(x)));

/**
 * One row per cell: the lower bounds (first visit; revisit, every origin's handshake from t = 0;
 * `bnd-list`, a revisit that also knows every request at t = 0 from the page's learned list),
 * the medians, then the ratios the goals use, from the same cell's runs.
 */
export function realTable(cells: readonly RealCellResult[]): string {
  const head = [
    'link', 'page', 'req', 'bound', 'bnd-rev', 'bnd-list', 'browser', 'getlist', 'revisit', 'h2', 'chromium', 'chr-h1',
    'gl÷bnd', 'rev÷bnd', 'gl÷br', 'rev÷br', 'gl÷chr', 'rev÷chr', 'gl÷ch1', 'rev÷ch1', 'gl÷h2', 'rev÷h2', 'bnd÷br', 'bnr÷br', 'bnl÷br',
  ];
  const r = (a: number | null, b: number | null): string => (a === null || b === null ? '—' : (a / b).toFixed(2));
  const rows = cells.map((c) => {
    const m = (k: string) => median(c.runs[k] ?? []);
    const [br, gl, rv, h2, ch, c1] = ['browser', 'getlist', 'getlist-revisit', 'h2', 'chromium', 'chromium-h1'].map(m) as Array<number | null>;
    const [bf, bv, bl] = (['first', 'revisit', 'list'] as const).map((v) => boundOf(c, v));
    return [c.link, c.page, String(c.requests), ms(bf ?? null), ms(bv ?? null), ms(bl ?? null), ms(br ?? null), ms(gl ?? null), ms(rv ?? null), ms(h2 ?? null), ms(ch ?? null), ms(c1 ?? null),
      r(gl ?? null, bf ?? null), r(rv ?? null, bv ?? null),
      r(gl ?? null, br ?? null), r(rv ?? null, br ?? null), r(gl ?? null, ch ?? null), r(rv ?? null, ch ?? null), r(gl ?? null, c1 ?? null), r(rv ?? null, c1 ?? null), r(gl ?? null, h2 ?? null), r(rv ?? null, h2 ?? null),
      r(bf ?? null, br ?? null), r(bv ?? null, br ?? null), r(bl ?? null, br ?? null)];
  });
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  return [head, ...rows].map((row) => row.map((x, i) => (i < 2 ? x.padEnd(w[i] ?? 0) : x.padStart(w[i] ?? 0))).join('  ')).join('\n');
}

/**
 * What the servers saw, a line per cell: each contender's median requests and connections per
 * load and every protocol it was served over (the access log's, not the client's own account).
 * Cells from results written before the server view was kept are left out.
 */
export function realServerLines(cells: readonly RealCellResult[]): string {
  return cells.filter((c) => c.server !== undefined).map((c) => {
    const parts = Object.entries(c.server).filter(([, loads]) => loads.length > 0).map(([k, loads]) => {
      const protocols = [...new Set(loads.flatMap((l) => l.protocols))].sort();
      const n = (xs: number[]) => ms(median(xs));
      const heads = median(loads.map((l) => l.heads)) ?? 0;
      return `${k} ${n(loads.map((l) => l.requests))} req${heads > 0 ? ` (+${ms(heads)} HEAD)` : ''}, ${n(loads.map((l) => l.connections))} conn, ${protocols.join('+') || '—'}`;
    });
    return `server ${c.link} ${c.page}: ${parts.join(' · ')}`;
  }).join('\n');
}

/**
 * A line per cell that ran an optional contender beside the one it varies, with their medians and
 * ratio: `getlist-cold` beside `getlist` (what a fresh process's cold discovery code costs the
 * page), `getlist-revisit-1h2` beside `getlist-revisit` (what its learned list's HTTP/2 windows save),
 * `getlist-third-visit` beside `getlist-revisit` (what a revisit's own lessons add), `getlist-link`
 * beside `getlist` (what a first visit gains from knowing the client's link).
 */
export function realOptionalLines(cells: readonly RealCellResult[]): string {
  const pairs: Array<[string, string, string]> = [['cold discovery', 'getlist', 'getlist-cold'], ['h2 windows', 'getlist-revisit-1h2', 'getlist-revisit'], ['third visit', 'getlist-revisit', 'getlist-third-visit'], ['link known', 'getlist', 'getlist-link']];
  return pairs.flatMap(([what, base, varied]) => cells.filter((c) => (c.runs[varied] ?? []).length > 0 && (c.runs[base] ?? []).length > 0).map((c) => {
    const b = median(c.runs[base] ?? []);
    const v = median(c.runs[varied] ?? []);
    const ratio = b === null || v === null ? '—' : (v / b).toFixed(3);
    return `${what} ${c.link} ${c.page}: ${base} ${ms(b)} ms, ${varied} ${ms(v)} ms, ${varied} ÷ ${base} ${ratio}`;
  })).join('\n');
}

/** The cell's lower bound, ms (real-bounds.ts). */
function boundOf(c: RealCellResult, visit: BoundVisit): number {
  return realBound(c.page, { rttMs: c.rttMs, capBitsPerSec: c.capBitsPerSec ?? undefined }, visit).totalMs;
}
