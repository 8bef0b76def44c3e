/**
 * "Where did the time go" on a real-shaped page: every request's timeline under each contender
 * (the median run's), beside the lower bound's own timeline for it (bench/model/MODEL.md: when it
 * can be known, requested, and complete). Read a row as: discovered → sent → first byte → done,
 * and the connection it went on; `+N` after the contender's done is how far it ended after the
 * bound's completion of the same request.
 *
 * Pure: formats what real-bench.ts recorded.
 */
import type { LoadTrace, TracedConnection, TracedRequest } from '../run/load-trace';
import type { RequestTiming } from '../../src/bound/lower-bound';
import type { RealCellResult } from './real-bench';
import { realBound } from './real-bounds';

/** `host/path` of a URL, as the bound keys its requests (no scheme, no port). */
export function boundKey(url: string): string {
  const u = new URL(url);
  return `${u.hostname}${u.pathname}`;
}

/** The run whose page-complete time is the median of the cell's (the lower one of an even count). */
export function medianTrace(cell: RealCellResult, contender: string): LoadTrace | undefined {
  const times = cell.runs[contender] ?? [];
  const traces = cell.traces[contender] ?? [];
  const ok = times.map((t, i) => [t, i] as const).filter((x): x is readonly [number, number] => x[0] !== null && traces[x[1]] !== undefined).sort((a, b) => a[0] - b[0]);
  const pick = ok[Math.floor((ok.length - 1) / 2)];
  return pick === undefined ? undefined : traces[pick[1]];
}

const f = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : String(Math.round(x)));

/** ` (dns D, tcp T, tls S, loop L)`: a getlist connection's handshake phases, where it recorded them. */
function phasesOf(k: TracedConnection): string {
  const p = k.phases;
  if (p === undefined) return '';
  return ` (${p.dnsMs === undefined ? '' : `dns ${p.dnsMs.toFixed(1)}, `}tcp ${f(p.tcpMs)}, tls ${f(p.tlsMs)}${p.loopDelayMs === undefined ? '' : `, loop ${f(p.loopDelayMs)}`})`;
}

function shortName(key: string, page: string): string {
  return key.replace('.example.test', '').replace(`/${page}`, '');
}

/** The per-request table of one cell, one block per contender, requests in bound-completion order. */
export function realTimeline(cell: RealCellResult, contenders: readonly string[]): string {
  const link = { rttMs: cell.rttMs, capBitsPerSec: cell.capBitsPerSec ?? undefined };
  const first = realBound(cell.page, link, 'first');
  const revisit = realBound(cell.page, link, 'revisit');
  const list = realBound(cell.page, link, 'list');
  const boundBy = (b: RequestTiming[]) => new Map(b.map((t) => [t.key, t]));
  const lines: string[] = [`${cell.link} ${cell.page}: bound ${f(first.totalMs)} ms (${first.limitedBy}), revisit bound ${f(revisit.totalMs)} ms (${revisit.limitedBy}), list bound ${f(list.totalMs)} ms (${list.limitedBy}; getlist-revisit's rows are against it)`];
  for (const c of contenders) {
    const trace = medianTrace(cell, c);
    if (!trace) continue;
    // getlist-revisit (and the visit after it) asks for the learned list at t = 0: its rows are read against the list bound.
    const bounds = boundBy(c.startsWith('getlist-revisit') || c === 'getlist-third-visit' ? list.requests : first.requests);
    const total = Math.max(...trace.requests.map((r) => r.doneMs ?? 0));
    const spec = trace.requests.filter((r) => r.speculative).length;
    const unused = trace.requests.filter((r) => r.speculative === 'unused').length;
    lines.push(`  ${c} (median run, ${f(total)} ms${spec ? `, ${spec} from the learned list (S), ${unused} unused (U)` : ''}) — bound req/done | discovered sent first-byte done conn | done − bound`);
    const rows = trace.requests
      .map((r) => ({ r, b: bounds.get(boundKey(r.url)) }))
      .sort((x, y) => (x.b?.completeMs ?? Infinity) - (y.b?.completeMs ?? Infinity));
    for (const { r, b } of rows) lines.push(`    ${row(r, b, cell.page)}`);
    const conns = [...trace.connections].sort((a, b) => a.startMs - b.startMs);
    lines.push(`    connections: ${conns.map((k) => `#${k.id} ${new URL(k.origin.includes('://') ? k.origin : `http://${k.origin}`).hostname.replace('.example.test', '')} ${f(k.startMs)}→${f(k.readyMs)}${k.protocol === 'h2' ? ' h2' : ''}${phasesOf(k)}`).join(', ')}`);
  }
  return lines.join('\n');
}

function row(r: TracedRequest, b: RequestTiming | undefined, page: string): string {
  const name = `${shortName(boundKey(r.url), page).padEnd(30)}${r.speculative === 'unused' ? 'U' : r.speculative ? 'S' : ' '}`;
  const bound = b ? `${f(b.requestMs).padStart(5)} ${f(b.completeMs).padStart(5)}` : '    —     —';
  const over = b && r.doneMs !== null ? `+${Math.round(r.doneMs - b.completeMs)}` : '';
  return `${name} ${bound} | ${[r.discoveredMs, r.sentMs, r.firstByteMs, r.doneMs].map((x) => f(x).padStart(5)).join(' ')} ${`#${r.connection ?? '—'}`.padStart(4)} | ${over}`;
}
