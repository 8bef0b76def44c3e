/**
 * bench/RESULTS.md from one results file or several merged (merge-results.ts): which cells of the
 * full matrix are there, the goals' verdicts and every miss with its explanation, the getlist
 * ratios, and how the numbers were made; a table per page × link only when asked (`--cells`), as
 * the results files hold them. Every number printed comes from the files or from the lower-bound model; nothing is
 * carried over from earlier runs. With several files, every cell says which run it came from.
 */
import { explanationKey, type Explanations } from './explanations';
import { fullPlan } from '../run/bench-matrix';
import type { BenchMeta, ContenderName } from '../run/results-schema';
import type { ResultsSummary, CellSummary, ContenderSummary } from './results-summary';
import { CellBounds, tcpOf } from './cell-bounds';
import { medianTotal, ratio } from './cell-lookup';
import { judgeGoals, type GoalRow } from './matrix-goals';
import { jobsText, linksOf, metaOf, shortDate, sourceOf, sourcesOf, type ResultsSource } from './merge-results';

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

function linkText(c: CellSummary): string {
  const p = c.linkParams;
  const rate = (b: number) => (b === 0 ? 'unlimited' : `${b / 1e6} Mbit/s`);
  return `${p.rttMs} ms RTT, ${rate(p.downBitsPerSec)} down / ${rate(p.upBitsPerSec)} up, ${p.loss * 100} % loss`;
}

function contenderRow(c: ContenderSummary, bounds: CellBounds): string[] {
  const bound = bounds.forContender(c.contender, c.scheme)?.totalMs;
  const failed = c.digest.withErrors;
  return [
    `${c.contender} (${c.scheme})`,
    `${c.digest.count}${failed ? ` (${failed} with errors)` : ''}`,
    int(c.median.totalMs), int(c.min.totalMs), int(c.max.totalMs),
    int(c.median.meanTtfbMs), dec(c.median.connectionsOpened, 0), dec(c.median.requestsPerConnection, 1),
    dec(ratio(c.median.totalMs ?? undefined, bound)),
  ];
}

function boundLine(c: CellSummary, bounds: CellBounds): string {
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

/** ` (run 2: 2026-11-22T13:46Z, 5 links at a time)` after a cell's heading when there are several runs. */
function runSuffix(c: CellSummary, results: ResultsSummary): string {
  if (sourcesOf(results).length < 2) return '';
  const s = sourceOf(results, c);
  return s === undefined ? '' : ` (run ${s.run}: ${shortDate(s.meta.date)}, ${jobsText(s.meta)})`;
}

function cellSection(c: CellSummary, results: ResultsSummary): string {
  const bounds = new CellBounds(c, tcpOf(metaOf(results, c)));
  const info = c.pageInfo;
  const out = [`### ${c.page} @ ${c.link}${runSuffix(c, results)}`, '', `${linkText(c)}. ${info.requests} requests, ${int(info.bytes)} bytes, ${info.origins} origin${info.origins === 1 ? '' : 's'}, depth ${info.dependencyDepth}.`, ''];
  if (c.error) out.push(`**Cell failed: ${c.error.code}** — ${c.error.message}`, '');
  if (c.contenders.length > 0) {
    out.push(markdownTable(
      ['contender', 'runs', 'median ms', 'min ms', 'max ms', 'mean TTFB ms', 'connections', 'req/conn', '÷ bound'],
      c.contenders.map((k) => contenderRow(k, bounds)),
    ), '');
  }
  out.push(boundLine(c, bounds), '');
  const cdp = c.contenders.flatMap((k) => {
    const d = k.digest.cdp;
    if (d === undefined) return [];
    const per = (values: ReadonlyArray<number | null>) => values.map((v) => v ?? '–').join(', ');
    const rt = d.resourceTimingTotalMs.filter((x): x is number => x !== null);
    const missing = d.maxMissingTimingEntries;
    return [`- ${k.contender}: requests per run from CDP ${per(d.requests)}; the server saw ${per(d.serverRequests)}. ` +
      `Cross-check, Resource Timing page complete per run: ${rt.length ? rt.map((x) => int(x)).join(', ') + ' ms' : 'none'}` +
      (missing > 0 ? ` (no entry for up to ${missing} of the served paths)` : '') + '.'];
  });
  if (cdp.length) out.push('Chromium times come from its CDP network events:', '', ...cdp, '');
  const failures = c.contenders.flatMap((k) => k.digest.failures.map((e) => `- ${k.contender}: ${e.code} — ${e.message}`));
  if (failures.length) out.push('Failed loads:', '', ...failures, '');
  return out.join('\n');
}

function ratioSection(results: ResultsSummary): string {
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

/** One row per goal and target: how many cells passed, missed, or did not run it. */
function verdictTable(rows: readonly GoalRow[]): string {
  const byGoal = new Map<string, { goal: string; target: string; counts: Record<GoalRow['verdict'], number> }>();
  for (const r of rows) {
    const key = `${r.goal}\n${r.target}`;
    const entry = byGoal.get(key) ?? { goal: r.goal, target: r.target, counts: { PASS: 0, MISS: 0, 'NOT RUN': 0 } };
    entry.counts[r.verdict] += 1;
    byGoal.set(key, entry);
  }
  const n = (x: number): string => (x === 0 ? '—' : String(x));
  return markdownTable(['goal', 'target', 'PASS', 'MISS', 'NOT RUN'], [...byGoal.values()].map((g) => [g.goal, g.target, n(g.counts.PASS), n(g.counts.MISS), n(g.counts['NOT RUN'])]), ['l', 'l', 'r', 'r', 'r']);
}

function goalSection(rows: readonly GoalRow[], merged: boolean, coverage: boolean, explanations: Explanations | undefined, unused: string[] | undefined): string {
  const missed = rows.filter((r) => r.verdict === 'MISS');
  const used = new Set<string>();
  const explain = (r: GoalRow): string => {
    const key = explanationKey(r.where, r.target);
    const text = explanations?.get(key);
    if (text === undefined) return '  why: not yet explained.';
    used.add(key);
    return `  why: ${text}`;
  };
  const why = missed.length === 0 ? [] : ['', `Missed goals (${missed.length}), each with what was measured and why:`, '', ...missed.flatMap((r) => [`- ${r.goal} — ${r.where}: ${r.measured}`, explain(r)])];
  if (unused !== undefined && explanations !== undefined) unused.push(...[...explanations.keys()].filter((k) => !used.has(k)));
  const judged = merged ? 'the medians of the run each cell came from (named in the run list above)' : 'this run\'s medians';
  return ['## Goals', '', `PASS and MISS are judged on ${judged}, one verdict per cell a goal applies to. ` + 'Every goal compares contenders on the same scheme: the P&M and McManus goals (HTTP/1.1 experiments) use `getlist` over http, the SPDY goals `getlist-tls` over https, and the lower-bound goal holds each to the bound for its own scheme. NOT RUN means the cell or contender was not in the run (`bench:quick` leaves some out' + (coverage ? '; "Coverage" lists every cell of the full matrix that is missing' : '') + '). The ratio table below gives every cell\'s figures.', '', verdictTable(rows), ...why].join('\n');
}

const machineText = (m: BenchMeta): string => (m.machine ? `${m.machine.cpus} × ${m.machine.cpuModel}, ${m.machine.memoryGiB} GiB, kernel ${m.machine.kernel}` : '—');
const tcpText = (m: BenchMeta): string => (m.link ? `${m.link.congestionControl}, initial window ${m.link.initCwnd} segments, initial receive window ${m.link.initRwnd}, MTU ${m.link.mtu}, tcp_slow_start_after_idle ${m.link.slowStartAfterIdle}${m.link.privilege ? `; namespaces made ${m.link.privilege === 'root' ? 'as root' : 'rootless, in a user namespace'}` : ''}` : 'not recorded');
const commitText = (m: BenchMeta, digits?: number): string => `${m.gitCommit?.slice(0, digits) ?? '—'}${m.gitDirty ? ' (working tree had changes)' : ''}`;
/**
 * The rows that are a run's own whatever else is printed: its commit, its command line, and the
 * cells taken out of it after it ran (results-schema `removedCells`), grouped by reason.
 */
function provenanceRows(m: BenchMeta): string[][] {
  const rows = [['commit', commitText(m)], ['command', `\`${m.command}\``]];
  if (!m.removedCells?.length) return rows;
  const byReason = new Map<string, string[]>();
  for (const r of m.removedCells) byReason.set(r.reason, [...(byReason.get(r.reason) ?? []), `${r.page} @ ${r.link}`]);
  return [...rows, ['cells removed after the run', [...byReason].map(([reason, cells]) => `${cells.join(', ')}: ${reason}`).join('; ')]];
}
const modeText = (m: BenchMeta): string => `${m.mode}, ${m.runs} runs per contender per cell, ${int(m.elapsedMs / 1000)} s in all`;

/** What the machine and the tools were; with several runs, printed once when every run agrees. */
const SETUP_ROWS: ReadonlyArray<readonly [string, (m: BenchMeta) => string]> = [
  ['machine', machineText],
  ['Node', (m) => m.node ?? '—'],
  ['Chromium', (m) => m.chromium ?? 'not found'],
  ['nginx', (m) => m.nginx ?? '—'],
  ['TCP on the link', tcpText],
];

function reproducing(sources: readonly ResultsSource[], whyPath: string | undefined, cells: boolean, zoo: string | undefined, navigate: string | undefined, connections?: string, browserHandshake?: string): string[] {
  const paths = sources.map((s) => s.path);
  const why = `${cells ? ' --cells' : ''}${zoo === undefined ? '' : ` --zoo ${zoo}`}${navigate === undefined ? '' : ` --navigate ${navigate}`}${connections === undefined ? '' : ` --connections ${connections}`}${browserHandshake === undefined ? '' : ` --browser-handshake ${browserHandshake}`}${whyPath === undefined ? '' : ` --why ${whyPath}`}`;
  const again = sources.length > 1 && paths.every((p) => p !== undefined)
    ? `node dist/bench/report.js ${paths.join(' ')}${why}   # this file and the figures again, from the same files`
    : `node dist/bench/report.js bench/results/bench-quick-latest.json${why}   # this file and the figures again`;
  return [
    '## Reproducing',
    '',
    '```sh',
    'npm run bench          # the full matrix, ~11 h of link time (root or user namespaces, nginx, Chromium; bench/README.md)',
    'node dist/bench/bench.js --full --links pm95,mcmanus-100,mcmanus-300 --out a.json   # the latency-bound links, alone',
    'node dist/bench/bench.js --full --links spdy-dsl-80-0,…,mobile --pages almanac-median,almanac-p90 --jobs 6 --out b.json   # the DSL grid and mobile, bandwidth-bound pages: 6 links at a time',
    'node dist/bench/bench.js --full --links spdy-dsl-80-0,…,mobile --pages mcmanus-159 --out c.json   # the same links, the round-trip-bound page: alone',
    'npm run bench:quick    # a representative subset, under five minutes',
    'node dist/bench/report.js a.json --summarize bench/results   # the summary and gzipped raw file of a run, as git keeps them',
    again,
    '```',
  ];
}

function metaSection(results: ResultsSummary, whyPath: string | undefined, cells: boolean, zoo: string | undefined, navigate: string | undefined, connections?: string, browserHandshake?: string): string {
  const sources = sourcesOf(results);
  const only = sources.length === 1 ? sources[0] : undefined;
  if (only !== undefined) {
    const m = only.meta;
    return [
      '## Machine and versions',
      '',
      markdownTable(['', ''], [
        ...(only.file !== undefined ? [['file', `\`${only.file}\``]] : []),
        ['date', m.date],
        ['mode', modeText(m)],
        ['links at once', String(m.jobs ?? 1)],
        ...SETUP_ROWS.map(([name, text]) => [name, text(m)]),
        ...provenanceRows(m),
      ], ['l', 'l']),
      '',
      ...reproducing(sources, whyPath, cells, zoo, navigate, connections, browserHandshake),
    ].join('\n');
  }
  // Several runs: what they share once, then a table per run with everything that is its own.
  const same = SETUP_ROWS.filter(([, text]) => sources.every((s) => text(s.meta) === text(results.meta)));
  const own = SETUP_ROWS.filter((row) => !same.includes(row));
  return [
    '## Machine and versions',
    '',
    `${sources.length} runs, merged in this order. The same for every run:`,
    '',
    markdownTable(['', ''], [['mode', results.meta.mode], ...same.map(([name, text]) => [name, text(results.meta)])], ['l', 'l']),
    '',
    ...sources.flatMap((s) => [
      `### Run ${s.run}: \`${s.file ?? '—'}\``,
      '',
      markdownTable(['', ''], [
        ['date', s.meta.date],
        ['mode', modeText(s.meta)],
        ['links at once', String(s.meta.jobs ?? 1)],
        ['links', linksOf(s).join(', ') || 'none'],
        ...own.map(([name, text]) => [name, text(s.meta)]),
        ...provenanceRows(s.meta),
      ], ['l', 'l']),
      '',
    ]),
    ...reproducing(sources, whyPath, cells, zoo, navigate, connections, browserHandshake),
  ].join('\n');
}

/**
 * Where a run shared the CPUs between links: `--jobs` above 1 runs that many links at once, which
 * bench/matrix/run-matrix.ts calls harmless for bandwidth-bound cells but a source of scheduling noise
 * for latency-bound ones. One sentence per such run, so a reader can weigh its cells.
 */
function concurrencyNote(sources: readonly ResultsSource[]): string[] {
  return sources.filter((s) => (s.meta.jobs ?? 1) > 1).map((s) => {
    const jobs = s.meta.jobs ?? 1;
    const who = sources.length === 1 ? 'This run' : `Run ${s.run}`;
    const cores = s.meta.machine?.cpus ? `a ${s.meta.machine.cpus}-core machine` : 'one machine';
    return `${who} ran ${jobs} links at a time on ${cores}, so each of its links shared the CPUs with up to ${jobs - 1} others: its times may include scheduling noise, which matters mostly for latency-bound cells (times made of round trips and turns on the CPU) and little for bandwidth-bound ones (times made of bytes through a slow link).`;
  });
}

function header(results: ResultsSummary, cells: boolean): string[] {
  const sources = sourcesOf(results);
  const m = results.meta;
  const times = cells
    ? 'Times are page-complete times in ms. For each contender, the columns give the median, min and max over its runs. The "÷ bound" column divides the median by the lower bound for that contender\'s scheme and requests (see bench/model/MODEL.md); 1.00 would be perfect.'
    : 'Times are page-complete times in ms. Each cell\'s own table (every contender\'s median, min and max, TTFB, connections, and its ratio to the lower bound of bench/model/MODEL.md) is in the results files; `--cells` prints them here.';
  const notes = concurrencyNote(sources);
  const noteLines = notes.length ? [notes.join(' '), ''] : [];
  const only = sources.length === 1 ? sources[0] : undefined;
  if (only !== undefined) {
    const file = only.file !== undefined ? ` (\`${only.file}\`)` : '';
    return [`Written by \`node dist/bench/report.js\` from a ${m.mode} run on ${m.date}${file}. ${times}`, '', ...noteLines];
  }
  return [
    `Written by \`node dist/bench/report.js\` from ${sources.length} ${m.mode} runs, merged. Each cell comes from exactly one run${cells ? ', named in its heading' : ''}; ratios and goals compare contenders within one cell, so within one run. The runs, in the order given (commands and versions under "Machine and versions"):`,
    '',
    ...sources.map((s) => `- run ${s.run}: \`${s.file ?? '—'}\`, started ${s.meta.date}, ran ${int(s.meta.elapsedMs / 1000)} s, commit ${commitText(s.meta, 12)}, ${jobsText(s.meta)}; links ${linksOf(s).join(', ') || 'none'}.`),
    '',
    times,
    '',
    ...noteLines,
  ];
}

/**
 * The full matrix (bench/run/bench-matrix.ts `fullPlan`) against the cells present, link by link,
 * so a report of an unfinished or partly merged run is visibly incomplete. Full runs only: a quick
 * run leaves cells out by design.
 */
function coverageSection(results: ResultsSummary): string | undefined {
  if (results.meta.mode !== 'full') return undefined;
  const sources = sourcesOf(results);
  const key = (page: string, link: string) => JSON.stringify([page, link]);
  const present = new Map(results.cells.map((c) => [key(c.page, c.link), c]));
  const planned = new Set<string>();
  let total = 0;
  let found = 0;
  let failed = 0;
  const emptyLinks: string[] = [];
  const rows = fullPlan().links.map((l) => {
    const cells = l.cells.map((p) => {
      planned.add(key(p.page, l.link));
      return { page: p.page, cell: present.get(key(p.page, l.link)) };
    });
    const ran = cells.filter((x) => x.cell !== undefined);
    const bad = ran.filter((x) => x.cell?.error !== undefined);
    const missing = cells.filter((x) => x.cell === undefined).map((x) => x.page);
    total += cells.length;
    found += ran.length;
    failed += bad.length;
    if (ran.length === 0) emptyLinks.push(l.link);
    const runs = [...new Set(ran.map((x) => (x.cell ? sourceOf(results, x.cell)?.run : undefined)).filter((r): r is number => r !== undefined))];
    return [
      l.link,
      `${ran.length} of ${cells.length}`,
      missing.length ? `NOT RUN: ${missing.join(', ')}` : '—',
      bad.length ? bad.map((x) => `${x.page} (${x.cell?.error?.code})`).join(', ') : '—',
      ...(sources.length > 1 ? [runs.length ? runs.map((r) => `run ${r}`).join(', ') : '—'] : []),
    ];
  });
  const extra = results.cells.filter((c) => !planned.has(key(c.page, c.link)));
  const summary = found === total
    ? `All ${total} cells of the full matrix (bench/run/bench-matrix.ts \`fullPlan\`) are here${failed ? `, ${failed} of them failed` : ''}.`
    : `**Incomplete:** ${found} of the ${total} cells of the full matrix (bench/run/bench-matrix.ts \`fullPlan\`) are here${failed ? `, ${failed} of them failed` : ''}; ${total - found} NOT RUN` +
      (emptyLinks.length ? `, among them every cell of ${emptyLinks.length} of the ${rows.length} links` : '') + '.';
  // Every cell there and none failed: the table would say nothing the run list does not.
  const table = found === total && failed === 0 ? [] : ['', markdownTable(['link', 'cells', 'missing', 'failed', ...(sources.length > 1 ? ['from'] : [])], rows, ['l', 'r', 'l', 'l', 'l'])];
  return [
    '## Coverage',
    '',
    summary,
    ...table,
    ...(extra.length ? ['', `Also here, though not in the full matrix: ${extra.map((c) => `${c.page} @ ${c.link}`).join(', ')}.`] : []),
    '',
  ].join('\n');
}

export interface MarkdownOptions {
  /** Figure paths relative to RESULTS.md, shown under "Figures". */
  figures?: readonly string[];
  /** Fill the "why:" line of each missed goal (explanations.ts). */
  explanations?: Explanations;
  /** Receives the explanation keys that matched no missed goal, so a caller can flag stale ones. */
  unused?: string[];
  /** The explanations' file, for the command under "Reproducing". */
  whyPath?: string;
  /** Also a table per page @ link (`--cells`). @default false */
  cells?: boolean;
  /** The zoo results files (`--zoo`), for the command under "Reproducing". */
  zoo?: string;
  /** The navigation bench's results files (`--navigate`), for the command under "Reproducing". */
  navigate?: string;
  /** The connections bench's results file (`--connections`), for the same command. */
  connections?: string;
  /** The browser-handshake bench's results file (`--browser-handshake`), for the same command. */
  browserHandshake?: string;
}

/**
 * The report: the runs, coverage, the goals' verdicts with every miss and its explanation, the
 * ratio table, the figures, the machine and how to reproduce it; with `cells`, a table per cell too.
 */
export function resultsMarkdown(results: ResultsSummary, o: MarkdownOptions = {}): string {
  const cells = o.cells === true;
  const figures = o.figures ?? [];
  const goals = judgeGoals(results);
  const coverage = coverageSection(results);
  return [
    '# Benchmark results',
    '',
    ...header(results, cells),
    ...(coverage !== undefined ? [coverage] : []),
    goalSection(goals, sourcesOf(results).length > 1, coverage !== undefined, o.explanations, o.unused),
    '',
    ratioSection(results),
    '',
    ...(cells ? ['## Per page and link', '', ...results.cells.map((c) => cellSection(c, results))] : []),
    ...(figures.length ? ['## Figures', '', ...figures.map((f) => `![${f}](${f})`), ''] : []),
    metaSection(results, o.whyPath, cells, o.zoo, o.navigate, o.connections, o.browserHandshake),
    '',
  ].join('\n');
}
