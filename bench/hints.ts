/**
 * `node dist/bench/hints.js [--runs N] [--links a,b] [--pages a,b] [--out FILE]` — learned hints in
 * the user's own browser: Chromium alone vs Chromium with the built getlist extension, on the
 * packet-level link (as root, in network namespaces), HTTPS/HTTP2 from nginx origins sending
 * `Cache-Control: no-store`. Each run: two warm-up visits in one profile (the extension learns its
 * list; Chromium's own predictor learns too), a browser restart, the measured visit. Contenders
 * alternate within a run. Prints page complete, FCP and LCP side by side with ratios, and the
 * origins' request counts (extra or duplicate requests must be 0); writes
 * bench/results/hints-latest.json.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { getBenchPage } from './corpus/bench-corpus';
import { hintsOverhead, type HintsOverhead } from './hints/hints-overhead';
import { hintsSession, killHintBrowsersSync, type HintsContender, type HintsRun } from './hints/hints-session';
import { hostResolverRules } from './link/host-resolution';
import { startLink } from './link/link-emulator';
import { ensureLinkPrivileges } from './link/rootless';
import { netnsSpawn, startOrigins } from './origins/start-origins';
import { linkPreset } from './run/link-presets';
import type { LinkParams } from './run/results-schema';
import { pageInfo } from './run/page-info';

/** The issue's two link shapes: McManus' 100 ms / 20 Mbit/s, and 40 ms / 5 Mbit/s. */
const LINKS: Readonly<Record<string, LinkParams>> = {
  'mcmanus-100': linkPreset('mcmanus-100'),
  'hints-40-5': { rttMs: 40, downBitsPerSec: 5_000_000, upBitsPerSec: 5_000_000, loss: 0 },
};
/** Pages with late discoveries (CSS fonts and backgrounds, script-inserted images), then one without. */
const LATE_PAGES = ['almanac-median', 'mcmanus-159'];
const PLAIN_PAGES = ['pm95-2544-10'];
const CONTENDERS: readonly HintsContender[] = ['chromium', 'chromium+getlist'];

function arg(argv: readonly string[], flag: string): string[] | undefined {
  const i = argv.indexOf(flag);
  return i < 0 ? undefined : (argv[i + 1] ?? '').split(',').filter(Boolean);
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length === 0 ? NaN : s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

interface Cell {
  link: string;
  page: string;
  late: boolean;
  runs: Record<HintsContender, HintsRun[]>;
  errors: string[];
  overhead?: HintsOverhead;
}

async function runLink(name: string, pages: readonly string[], runs: number, extensionDir: string, progress: (s: string) => void): Promise<Cell[]> {
  const params = LINKS[name] as LinkParams;
  const origins = [...new Set(pages.flatMap((p) => getBenchPage(p).origins))];
  const link = await startLink({ ...params, hosts: origins.length, seed: 1 });
  const cells: Cell[] = [];
  let served: Awaited<ReturnType<typeof startOrigins>> | undefined;
  try {
    const hostMap = Object.fromEntries(origins.map((n, i) => [n, link.serverAddrs[i] ?? '']));
    link.setClientHosts(hostMap);
    served = await startOrigins({ bindings: origins.map((origin) => ({ origin, address: hostMap[origin] ?? '', httpPort: 80, httpsPort: 443 })), pages, linkHosts: 'name', spawn: netnsSpawn(link.serverNs) });
    for (const page of pages) {
      const cell: Cell = { link: name, page, late: LATE_PAGES.includes(page), runs: { chromium: [], 'chromium+getlist': [] }, errors: [] };
      cells.push(cell);
      const url = served.pageUrl(page, 'https');
      for (let run = 0; run < runs; run++) {
        const order = run % 2 === 0 ? CONTENDERS : [...CONTENDERS].reverse();
        for (const contender of order) {
          try {
            const r = await hintsSession({ clientNs: link.clientNs, url, hostResolverRules: hostResolverRules(hostMap), spkiHashes: [served.spkiHash, served.caSpkiHash], extensionDir, contender, expectedRequests: pageInfo(getBenchPage(page)).requests, timeoutMs: 120_000, origins: served });
            if (r.learned !== undefined && cell.overhead === undefined) cell.overhead = hintsOverhead(r.learned, url);
            delete r.learned;
            cell.runs[contender].push(r);
            progress(`${name} ${page} run ${run + 1}/${runs} ${contender}: ${Math.round(r.completeMs)} ms, fcp ${Math.round(r.fcpMs ?? NaN)}, lcp ${Math.round(r.lcpMs ?? NaN)}, ${r.serverRequests} requests${r.hints !== undefined ? `, ${r.hints} hints` : ''}${r.duplicates.length ? `, DUPLICATES ${r.duplicates.join(' ')}` : ''}`);
          } catch (err) {
            cell.errors.push(`${contender} run ${run + 1}: ${(err as Error).message}`);
            progress(`${name} ${page} run ${run + 1} ${contender}: ERROR ${(err as Error).message.slice(0, 200)}`);
          }
        }
      }
    }
  } finally {
    await served?.stop().catch(() => undefined);
    await link.close().catch(() => undefined);
  }
  return cells;
}

function table(cells: readonly Cell[]): string {
  const rows = ['| link | page | late | complete ms (chromium / +getlist / ratio) | FCP ms (ratio) | LCP ms (ratio) | hints | server requests (chromium / +getlist) | extra | duplicates | hintsFor µs |', '|---|---|---|---|---|---|---|---|---|---|---|'];
  for (const c of cells) {
    const a = c.runs.chromium;
    const b = c.runs['chromium+getlist'];
    const m = (rs: HintsRun[], f: (r: HintsRun) => number | null) => median(rs.map(f).filter((x): x is number => x !== null));
    const pair = (f: (r: HintsRun) => number | null) => {
      const x = m(a, f);
      const y = m(b, f);
      return `${Math.round(x)} / ${Math.round(y)} / ${(y / x).toFixed(2)}`;
    };
    const baseline = new Set(a.flatMap((r) => r.paths));
    const extra = new Set(b.flatMap((r) => r.paths.filter((p) => !baseline.has(p))));
    const dups = b.reduce((n, r) => n + r.duplicates.length, 0);
    rows.push(`| ${c.link} | ${c.page} | ${c.late ? 'yes' : 'no'} | ${pair((r) => r.completeMs)} | ${pair((r) => r.fcpMs)} | ${pair((r) => r.lcpMs)} | ${median(b.map((r) => r.hints ?? 0))} | ${m(a, (r) => r.serverRequests)} / ${m(b, (r) => r.serverRequests)} | ${extra.size} | ${dups} | ${c.overhead?.perNavigationUs ?? '—'} |`);
  }
  return rows.join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  await ensureLinkPrivileges();
  const root = resolve(__dirname, '..', '..');
  const runs = Number(arg(argv, '--runs')?.[0] ?? 5);
  const links = arg(argv, '--links') ?? Object.keys(LINKS);
  const pages = arg(argv, '--pages') ?? [...LATE_PAGES, ...PLAIN_PAGES];
  const out = arg(argv, '--out')?.[0] ?? join(root, 'bench', 'results', 'hints-latest.json');
  const progress = (s: string) => process.stderr.write(`[hints] ${s}\n`);
  const cells: Cell[] = [];
  for (const l of links) {
    if (!LINKS[l]) throw new Error(`unknown link ${l}; expected ${Object.keys(LINKS).join(', ')}`);
    cells.push(...(await runLink(l, pages, runs, join(root, 'dist', 'extension'), progress)));
    writeFileSync(out, `${JSON.stringify({ command: ['node', 'dist/bench/hints.js', ...argv].join(' '), links: LINKS, cells }, null, 2)}\n`);
  }
  process.stdout.write(`${table(cells)}\nwrote ${out}\n`);
  return cells.some((c) => c.errors.length > 0) ? 1 : 0;
}

for (const [signal, n] of [['SIGINT', 2], ['SIGTERM', 15]] as const) {
  process.once(signal, () => {
    killHintBrowsersSync();
    process.exit(128 + n);
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`bench hints: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
