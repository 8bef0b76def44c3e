/**
 * bench/RESULTS.md from one results file: a table per page × link, the getlist ratios, the goals,
 * and how the numbers were made. Every number printed comes from the file or from the lower-bound
 * model; nothing is carried over from earlier runs.
 */
import type { BenchResults, CellResult, ContenderName, ContenderResult, RunResult } from '../run/results-schema';
import { CellBounds, tcpOf } from './cell-bounds';
import { medianTotal, ratio } from './cell-lookup';
import { judgeGoals, type GoalRow } from './goals';

/**
 * The ratios printed, `[getlist side, other side]`, each pair on one scheme: getlist over http
 * against the HTTP/1.1 contenders, getlist-tls over https against the https ones.
 */
export const RATIO_PAIRS: ReadonlyArray<readonly [ContenderName, ContenderName]> = [
  ['getlist', 'browser'], ['getlist', 'http10'], ['getlist', 'chromium-h1'],
  ['getlist-tls', 'browser-tls'], ['getlist-tls', 'h2'], ['getlist-tls', 'chromium-h2'],
];

const int = (x: number | null | undefined): string => (typeof x === 'number' && Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '—');
const dec = (x: number | null | undefined, digits = 2): string => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '—');
const cellText = (s: string): string => s.replace(/\|/g, '\\|');

export function markdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>, align?: readonly ('l' | 'r')[]): string {
  const a = header.map((_, i) => align?.[i] ?? (i === 0 ? 'l' : 'r'));
  return [
    `| ${header.map(cellText).join(' | ')} |`,
    `|${a.map((x) => (x === 'l' ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.map(cellText).join(' | ')} |`),
  ].join('\n');
}

function linkText(c: CellResult): string {
  const p = c.linkParams;
  const rate = (b: number) => (b === 0 ? 'unlimited' : `${b / 1e6} Mbit/s`);
  return `${p.rttMs} ms RTT, ${rate(p.downBitsPerSec)} down / ${rate(p.upBitsPerSec)} up, ${p.loss * 100} % loss`;
}

function contenderRow(c: ContenderResult, bounds: CellBounds): string[] {
  const bound = bounds.forContender(c.contender, c.scheme)?.totalMs;
  const failed = c.runs.filter((r) => r.error !== undefined || r.errors > 0).length;
  return [
    `${c.contender} (${c.scheme})`,
    `${c.runs.length}${failed ? ` (${failed} with errors)` : ''}`,
    int(c.median.totalMs), int(c.min.totalMs), int(c.max.totalMs),
    int(c.median.meanTtfbMs), dec(c.median.connectionsOpened, 0), dec(c.median.requestsPerConnection, 1),
    dec(ratio(c.median.totalMs ?? undefined, bound)),
  ];
}

function boundLine(c: CellResult, bounds: CellBounds): string {
  const parts: string[] = [];
  for (const scheme of ['http', 'https'] as const) {
    const parsed = bounds.of({ scheme, scriptInserted: false });
    const full = bounds.of({ scheme, scriptInserted: true });
    if (parsed === undefined || full === undefined) continue;
    const text = (b: typeof full) => `${int(b.totalMs)} ms (${b.limitedBy}-limited)`;
    parts.push(parsed.totalMs === full.totalMs ? `${scheme} ${text(full)}`
      : `${scheme} ${text(parsed)} without script-inserted requests (getlist load), ${text(full)} for the full page (Chromium)`);
  }
  if (parts.length === 0) return `Lower bound: page ${c.page} is not in the corpus, so there is none.`;
  return `Lower bound (bench/model/MODEL.md): ${parts.join('; ')}.`;
}

function cellSection(c: CellResult, results: BenchResults): string {
  const bounds = new CellBounds(c, tcpOf(results.meta));
  const info = c.pageInfo;
  const out = [`### ${c.page} @ ${c.link}`, '', `${linkText(c)}. ${info.requests} requests, ${int(info.bytes)} bytes, ${info.origins} origin${info.origins === 1 ? '' : 's'}, depth ${info.dependencyDepth}.`, ''];
  if (c.error) out.push(`**Cell failed: ${c.error.code}** — ${c.error.message}`, '');
  if (c.contenders.length > 0) {
    out.push(markdownTable(
      ['contender', 'runs', 'median ms', 'min ms', 'max ms', 'mean TTFB ms', 'connections', 'req/conn', '÷ bound'],
      c.contenders.map((k) => contenderRow(k, bounds)),
    ), '');
  }
  out.push(boundLine(c, bounds), '');
  const cdp = c.contenders.filter((k) => k.runs.some((r) => r.cdpRequests !== undefined)).map((k) => {
    const per = (f: (r: RunResult) => number | null | undefined) => k.runs.map((r) => (f(r) ?? '–')).join(', ');
    const rt = k.runs.map((r) => r.resourceTimingTotalMs).filter((x): x is number => typeof x === 'number');
    const missing = Math.max(0, ...k.runs.map((r) => r.missingTimingEntries?.length ?? 0));
    return `- ${k.contender}: requests per run from CDP ${per((r) => r.cdpRequests)}; the server saw ${per((r) => r.serverRequests)}. ` +
      `Cross-check, Resource Timing page complete per run: ${rt.length ? rt.map((x) => int(x)).join(', ') + ' ms' : 'none'}` +
      (missing > 0 ? ` (no entry for up to ${missing} of the served paths)` : '') + '.';
  });
  if (cdp.length) out.push('Chromium times come from its CDP network events:', '', ...cdp, '');
  const failures = c.contenders.flatMap((k) => k.runs.flatMap((r) => (r.error ? [`- ${k.contender}: ${r.error.code} — ${r.error.message}`] : [])));
  if (failures.length) out.push('Failed loads:', '', ...failures, '');
  return out.join('\n');
}

function ratioSection(results: BenchResults): string {
  const pairs = RATIO_PAIRS.filter(([g, o]) => results.cells.some((c) => medianTotal(c, g) !== undefined && medianTotal(c, o) !== undefined));
  const rows = results.cells.map((c) => [`${c.page} @ ${c.link}`, ...pairs.map(([g, o]) => dec(ratio(medianTotal(c, g), medianTotal(c, o))))]);
  return [
    '## getlist against the others',
    '',
    'Each ratio is a getlist contender\'s median page-complete time divided by the other contender\'s, in the same cell and the same run. **Below 1 means getlist was faster**, so 0.50 means it took half the time. Every ratio compares two contenders on the same scheme: `getlist` (http, HTTP/1.1) against `browser`, `http10` and `chromium-h1` (http); `getlist-tls` (https, may negotiate h2) against `browser-tls` (HTTP/1.1 over TLS), `h2` and `chromium-h2` (https). A column is left out when no cell ran both; a dash means one of the two did not run in that cell or had no successful load.',
    '',
    markdownTable(['page @ link', ...pairs.map(([g, o]) => `${g}/${o}`)], rows),
  ].join('\n');
}

function goalSection(rows: readonly GoalRow[]): string {
  const table = markdownTable(['goal', 'cell', 'target', 'measured', 'verdict'], rows.map((r) => [r.goal, r.where, r.target, r.measured, r.verdict]), ['l', 'l', 'l', 'l', 'l']);
  const missed = rows.filter((r) => r.verdict === 'MISS');
  const why = missed.length === 0 ? [] : ['', 'Missed goals:', '', ...missed.flatMap((r) => [`- ${r.goal} — ${r.where}: ${r.measured}`, '  why:'])];
  return ['## Goals', '', 'PASS and MISS are judged on this run\'s medians. Every goal compares contenders on the same scheme: the P&M and McManus goals (HTTP/1.1 experiments) use `getlist` over http, the SPDY goals `getlist-tls` over https, and the lower-bound goal holds each to the bound for its own scheme. NOT RUN means the cell or contender was not in the run (`bench:quick` leaves some out).', '', table, ...why].join('\n');
}

function metaSection(results: BenchResults): string {
  const m = results.meta;
  const link = m.link ? `${m.link.congestionControl}, initial window ${m.link.initCwnd} segments, initial receive window ${m.link.initRwnd}, MTU ${m.link.mtu}, tcp_slow_start_after_idle ${m.link.slowStartAfterIdle}` : 'not recorded';
  return [
    '## Machine and versions',
    '',
    markdownTable(['', ''], [
      ['date', m.date],
      ['mode', `${m.mode}, ${m.runs} runs per contender per cell, ${int(m.elapsedMs / 1000)} s in all`],
      ['machine', m.machine ? `${m.machine.cpus} × ${m.machine.cpuModel}, ${m.machine.memoryGiB} GiB, kernel ${m.machine.kernel}` : '—'],
      ['Node', m.node ?? '—'],
      ['Chromium', m.chromium ?? 'not found'],
      ['nginx', m.nginx ?? '—'],
      ['TCP on the link', link],
      ['commit', `${m.gitCommit ?? '—'}${m.gitDirty ? ' (working tree had changes)' : ''}`],
      ['command', `\`${m.command}\``],
    ], ['l', 'l']),
    '',
    '## Reproducing',
    '',
    '```sh',
    'npm run bench          # the full matrix (needs root, nginx and Chromium; see README "Benchmarks")',
    'npm run bench:quick    # a representative subset, under five minutes',
    'node dist/bench/report.js bench/results/bench-quick-latest.json   # this file and the figures again',
    '```',
  ].join('\n');
}

export function resultsMarkdown(results: BenchResults, figures: readonly string[] = []): string {
  const goals = judgeGoals(results);
  return [
    '# Benchmark results',
    '',
    `Written by \`node dist/bench/report.js\` from a ${results.meta.mode} run on ${results.meta.date}. Times are page-complete times in ms. For each contender, the columns give the median, min and max over its runs. The "÷ bound" column divides the median by the lower bound for that contender's scheme and requests (see bench/model/MODEL.md); 1.00 would be perfect.`,
    '',
    goalSection(goals),
    '',
    ratioSection(results),
    '',
    '## Per page and link',
    '',
    ...results.cells.map((c) => cellSection(c, results)),
    ...(figures.length ? ['## Figures', '', ...figures.map((f) => `![${f}](${f})`), ''] : []),
    metaSection(results),
    '',
  ].join('\n');
}
