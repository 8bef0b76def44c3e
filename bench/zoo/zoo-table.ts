/**
 * The zoo bench's tables: one per member, a row per page @ link, with the lower bound
 * (bench/model/MODEL.md, via real-bounds.ts), the medians, each contender's ratio to its bound,
 * getlist's gain over `browser`, and what the member's log and getlist's records say about
 * connections and pipelining; then the goals, judged per member.
 */
import { ZOO_INFO, type ZooMember } from '../origins/zoo/zoo-members';
import { median, type RealCellResult } from '../real/real-bench';
import { NGINX_SERVER, realBound, UNMEASURED_SERVER, type BoundServer } from '../real/real-bounds';
import type { LowerBound } from '../../src/bound/lower-bound';
import { gapParts } from '../real/real-gap';
import { medianTrace } from '../real/real-timeline';
import { burstTail } from './burst-tail';
import { ZOO_MCMANUS_PAGE, ZOO_PM_PAGE } from './zoo-plan';
import { zooWhy } from './zoo-why';

export interface ZooMemberResult {
  member: ZooMember;
  cells: RealCellResult[];
  /** Why the member could not run (it failed to start); its cells are then empty. */
  error?: string;
}

const ms = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : String(Math.round(x)));
const ratio = (a: number | null | undefined, b: number | null | undefined): string => (a == null || b == null || b === 0 ? '—' : (a / b).toFixed(2));

function cellMedian(c: RealCellResult, contender: string): number | null {
  return median(c.runs[contender] ?? []);
}

/** The median of one pipelining figure over a contender's loads. */
function pipeFigure(c: RealCellResult, contender: string, k: 'pipelined' | 'maxDepth' | 'orderProbes'): string {
  const xs = (c.pipelining?.[contender] ?? []).map((p) => p[k]);
  return xs.length === 0 ? '—' : ms(median(xs));
}

function serverFigure(c: RealCellResult, contender: string): string {
  const loads = c.server[contender] ?? [];
  if (loads.length === 0) return '—';
  const protocols = [...new Set(loads.flatMap((l) => l.protocols))].sort().join('+');
  return `${ms(median(loads.map((l) => l.connections)))} conn, ${protocols}`;
}

function markdownTable(head: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [`| ${head.join(' | ')} |`, `|${head.map((_, i) => (i < 1 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const COLUMNS = [
  'page @ link', 'bound', 'browser', 'getlist', 'link known', 'revisit', 'h2', 'chromium', 'getlist ÷ bound', 'link known ÷ bound', 'revisit ÷ its bound', 'chromium ÷ bound',
  'browser ÷ getlist', 'browser ÷ revisit', 'getlist: pipelined, depth, probes', 'getlist: server saw',
  'getlist gap: discovery, handshakes, queueing, bandwidth', 'chromium gap: discovery, handshakes, queueing, bandwidth',
];

/** The gap's parts of a contender's median load against the cell's first-visit `bound` (real-gap.ts), ms, or a dash. */
function gapFigure(c: RealCellResult, contender: string, bound: LowerBound): string {
  const trace = medianTrace(c, contender);
  const parts = trace && gapParts(trace, bound);
  return parts === undefined ? '—' : [parts.discoveryMs, parts.handshakesMs, parts.queueingMs, parts.bandwidthMs].map((x) => ms(x)).join(', ');
}

/** The bound knows nginx's first flight (real-bounds.ts); every other member's is unmeasured. */
export function boundServerOf(member: ZooMember): BoundServer {
  return member === 'nginx' ? NGINX_SERVER : UNMEASURED_SERVER;
}

export function zooRow(c: RealCellResult, member: ZooMember): string[] {
  const link = { rttMs: c.rttMs, capBitsPerSec: c.capBitsPerSec ?? undefined };
  const server = boundServerOf(member);
  const first = realBound(c.page, link, 'first', undefined, server);
  const bound = first.totalMs;
  const boundRevisit = realBound(c.page, link, 'list', undefined, server).totalMs;
  const [br, gl, lk, rv, h2, ch] = ['browser', 'getlist', 'getlist-link', 'getlist-revisit', 'h2', 'chromium'].map((k) => cellMedian(c, k));
  return [
    `${c.page} @ ${c.link}`, ms(bound), ms(br), ms(gl), ms(lk), ms(rv), ms(h2), ms(ch), ratio(gl, bound), ratio(lk, bound), ratio(rv, boundRevisit), ratio(ch, bound),
    ratio(br, gl), ratio(br, rv), `${pipeFigure(c, 'getlist', 'pipelined')}, ${pipeFigure(c, 'getlist', 'maxDepth')}, ${pipeFigure(c, 'getlist', 'orderProbes')}`,
    serverFigure(c, 'getlist'), gapFigure(c, 'getlist', first), gapFigure(c, 'chromium', first),
  ];
}

export interface ZooGoal {
  goal: string;
  measured: string;
  verdict: 'PASS' | 'MISS' | 'NOT RUN';
  /** For a MISS: what bounds it and what would move it (zoo-why.ts), where that has been traced. */
  why?: string;
}

/**
 * The depth of getlist's pipelining probe (docs/scheduler.md: an unproven origin is probed at depth
 * 2): a cell whose deepest pipeline stayed at this (median) is one where getlist never earned
 * pipelining, and is judged as a server it cannot pipeline.
 */
const PROBE_DEPTH = 2;

/** The median of getlist's deepest pipeline over a cell's first visits; null when not recorded. */
export function depthMedian(c: RealCellResult | undefined): number | null {
  const xs = (c?.pipelining?.getlist ?? []).map((p) => p.maxDepth);
  return xs.length === 0 ? null : median(xs);
}

/**
 * The issue's goals for one member, from its medians. Where getlist earned pipelining, the P&M and
 * McManus gains over `browser`; on a page where it did not (its deepest pipeline stayed at the
 * probe's), getlist must stay within 3 % of `browser` there instead.
 */
export function zooGoals(r: ZooMemberResult): ZooGoal[] {
  const pm = r.cells.find((c) => c.page === ZOO_PM_PAGE);
  const mc = r.cells.find((c) => c.page === ZOO_MCMANUS_PAGE);
  const judge = (goal: string, value: number | null, pass: (v: number) => boolean, unit: string): ZooGoal =>
    (value === null ? { goal, measured: '—', verdict: 'NOT RUN' } : { goal, measured: `${value.toFixed(2)}${unit}`, verdict: pass(value) ? 'PASS' : 'MISS' });
  const rtts = (c: RealCellResult | undefined, k: string): number | null => {
    const m = c ? cellMedian(c, k) : null;
    return c && m !== null ? m / c.rttMs : null;
  };
  const gain = (c: RealCellResult | undefined): number | null => {
    const [br, gl] = c ? [cellMedian(c, 'browser'), cellMedian(c, 'getlist')] : [null, null];
    return br !== null && gl !== null ? br / gl : null;
  };
  const notPipelined = (c: RealCellResult | undefined): boolean => {
    const d = depthMedian(c);
    return d !== null && d <= PROBE_DEPTH;
  };
  // browser ÷ getlist ≥ 0.97: getlist at most 3 % slower.
  const gainGoal = (c: RealCellResult | undefined, name: string, min: number): ZooGoal => (notPipelined(c)
    ? judge(`${name}, not pipelined: getlist within 3 % of browser`, gain(c), (v) => v >= 1 / 1.03, ' × browser')
    : judge(`${name}, ≥ ${min} × browser`, gain(c), (v) => v >= min, ' ×'));
  const goals = [
    judge('P&M at 50 ms, first visit ≤ 5.5 RTT', rtts(pm, 'getlist'), (v) => v <= 5.5, ' RTT'),
    judge('P&M at 50 ms, revisit ≤ 5 RTT', rtts(pm, 'getlist-revisit'), (v) => v <= 5, ' RTT'),
    gainGoal(pm, 'P&M at 50 ms', 1.4),
    gainGoal(mc, 'McManus-159 at 100 ms', 3),
  ];
  return goals.map((g) => {
    const why = g.verdict === 'MISS' ? zooWhy(r.member, g.goal) : undefined;
    return why === undefined ? g : { ...g, why };
  });
}

export function zooMemberSection(r: ZooMemberResult): string {
  const info = ZOO_INFO[r.member];
  const offers = `${info.proxy ? 'reverse proxy in front of nginx' : 'origin server'}; ${info.tls ? `TLS${info.h2 ? ' with h2' : ''}` : 'no TLS'} (Debian package \`${info.debianPackage}\`)`;
  if (r.error !== undefined) return [`### ${r.member}`, '', offers, '', `Not measured: ${r.error}`, ''].join('\n');
  const goals = zooGoals(r);
  const flat = r.cells.filter((c) => [ZOO_PM_PAGE, ZOO_MCMANUS_PAGE].includes(c.page) && (depthMedian(c) ?? Infinity) <= PROBE_DEPTH);
  const why = flat.length > 0
    ? [`getlist never pipelined deeper than its probe's ${PROBE_DEPTH} (median) on ${flat.map((c) => c.page).join(', ')} here: there it is held to within 3 % of browser.`]
    : [];
  const notes = [...why, ...(info.note !== undefined ? [info.note] : []), ...burstTailNote(r)];
  return [
    `### ${r.member}`, '', offers, '', ...(notes.length > 0 ? [notes.join(' '), ''] : []),
    markdownTable(COLUMNS, r.cells.map((c) => zooRow(c, r.member))), '',
    goals.some((g) => g.why !== undefined)
      ? markdownTable(['goal', 'measured', 'verdict', 'why'], goals.map((g) => [g.goal, g.measured, g.verdict, g.why ?? '']))
      : markdownTable(['goal', 'measured', 'verdict'], goals.map((g) => [g.goal, g.measured, g.verdict])), '',
  ].join('\n');
}

/**
 * The P&M revisit's burst tails (burst-tail.ts), where the last response of a burst took a quarter
 * of the round trip or more: time the server held back, which no scheduling wins back.
 */
function burstTailNote(r: ZooMemberResult): string[] {
  const pm = r.cells.find((c) => c.page === ZOO_PM_PAGE);
  const t = burstTail(pm?.traces['getlist-revisit'] ?? []);
  if (pm === undefined || t.lastMs === null || t.otherMs === null || t.lastMs < pm.rttMs / 4) return [];
  return [`On ${ZOO_PM_PAGE}'s revisits the last response of a pipelined burst took a median ${t.lastMs.toFixed(1)} ms from its first byte to its last (${t.bursts} bursts), every other response ${t.otherMs.toFixed(1)} ms: the server holds a burst's tail back, which a request sent alone does not pay.`];
}

/** Every member's section, under one heading (RESULTS.md "The server zoo"). */
export function zooMarkdown(results: readonly ZooMemberResult[], source: string): string {
  return [
    '## The server zoo', '',
    `Written by \`node dist/bench/report.js … --zoo ${source}\` from \`node dist/bench/zoo.js\` (bench/README.md, "The server zoo"). ` +
    'Page-complete medians in ms; the bound is bench/model/MODEL.md\'s for the page\'s own schemes (first visit; the revisit\'s bound knows every request at t = 0). ' +
    '"link known" is getlist\'s first visit by a client whose link a load of another page just showed (`getlist-link`, bench/real/link-known.ts), judged against the first visit\'s bound. ' +
    '"pipelined, depth, probes" are medians over getlist\'s first-visit loads: requests written behind an unfinished response, the deepest pipeline on one connection, the order probes sent; "server saw" is the member\'s own access log. ' +
    'The gap (median load − bound) is split in four on the request that finished last (bench/real/real-gap.ts): how late it was discovered, waited on a handshake, waited in a queue, and the rest after its send.', '',
    ...results.map(zooMemberSection),
  ].join('\n');
}
