import { PHASE_KINDS, PHASE_LABELS, phaseTotals } from './phases';
import type { ConnectionLane } from './connections';
import type { WaterfallRow } from './rows';

/** One line of a tooltip: a label and its value, already formatted. */
export type Detail = readonly [label: string, value: string];

const SOURCE_TEXT: Readonly<Record<string, string>> = {
  host: 'host connection id',
  'resource-timing': 'inferred from Resource Timing',
  'not-exposed': 'not exposed by the browser',
  cache: 'HTTP cache (no connection)',
};

/** Every number the waterfall knows about a row, for its tooltip. Unknown values say so. */
export function rowDetails(row: WaterfallRow): Detail[] {
  const out: Detail[] = [['URL', row.url]];
  out.push(['Type', row.type]);
  out.push(['Status', row.error ? `failed: ${row.error}` : row.status === null ? 'not reported' : String(row.status)]);
  if (row.protocol) out.push(['Protocol', row.protocol]);
  if (row.connection) out.push(['Connection', `#${row.connection.n} (${SOURCE_TEXT[row.connection.source] ?? row.connection.source})`]);
  if (row.ip) out.push(['Server IP', row.ip]);
  if (row.discoveredMs !== null) out.push(['Discovered', fmt(row.discoveredMs)]);
  out.push(['Start', fmt(row.startMs)]);
  out.push(['End', row.endMs === null ? 'still loading' : fmt(row.endMs)]);
  if (row.endMs !== null) out.push(['Duration', fmt(row.endMs - row.startMs)]);
  if (row.restricted) {
    out.push(['Phases', 'not exposed (cross-origin without Timing-Allow-Origin, or no Resource Timing entry)']);
  } else {
    const totals = phaseTotals(row.phases);
    for (const kind of PHASE_KINDS) if (totals[kind] !== undefined) out.push([PHASE_LABELS[kind], fmt(totals[kind] as number)]);
  }
  out.push(['Size', row.bytes === null ? 'not exposed' : row.fromCache ? `${row.bytes} B (from cache)` : `${row.bytes} B`]);
  return out;
}

/** A connection lane's tooltip: what it carried and how long it was in use. */
export function laneDetails(lane: ConnectionLane): Detail[] {
  return [
    ['Origin', lane.origin],
    ['Connection', `#${lane.n} (${SOURCE_TEXT[lane.source] ?? lane.source})`],
    ['Protocol', lane.protocol ?? 'not exposed'],
    ['Requests', String(lane.rows.length)],
    ['First start', fmt(lane.startMs)],
    ['Last end', fmt(lane.endMs)],
  ];
}

/** ms with 0.1 ms resolution below 10 ms, as DevTools prints them. */
export function fmt(ms: number): string {
  if (!Number.isFinite(ms)) return '—';
  return ms < 10 ? `${ms.toFixed(1)} ms` : ms < 10_000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}
