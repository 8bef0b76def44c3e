import type { HandshakePhase } from './handshake';
import { EXACT_THRESHOLDS_MS, orderedPhases, statsToJSON, type HandshakeStats, type HandshakeStatsJSON } from './handshake-stats';
import type { TallySeries } from './handshake-tally';

/**
 * The export formats of `getlist export` and the options page:
 * - `csv`: `group,key,phase,ms,cdf,count`, one row per CDF point of every group (RFC 4180:
 *   CRLF line ends, fields with `,` `"` CR or LF quoted, quotes doubled);
 * - `json`: {@link statsToJSON} (summaries, CDFs, mergeable histograms) plus page summaries;
 * - `prom`: Prometheus text exposition format 0.0.4, one histogram per (phase, origin, protocol,
 *   tls, source) series — the finest partition, so `sum by (…)` rebuilds any coarser group;
 *   `source` is who opened the connection (`browser`, `host`, `cli`; HandshakeSource).
 * CSV and JSON carry the source as the `source` group.
 */
export type ExportFormat = 'csv' | 'json' | 'prom';
export const EXPORT_FORMATS: readonly ExportFormat[] = ['csv', 'json', 'prom'];

export function isExportFormat(x: string): x is ExportFormat {
  return (EXPORT_FORMATS as readonly string[]).includes(x);
}

export const CSV_HEADER = ['group', 'key', 'phase', 'ms', 'cdf', 'count'] as const;

export function exportCsv(stats: HandshakeStats): string {
  const rows: string[] = [csvRow(CSV_HEADER)];
  for (const g of stats.groups()) {
    for (const [phase, p] of orderedPhases(g)) {
      for (const pt of p.histogram.cdf()) rows.push(csvRow([g.group, g.key, phase, String(pt.ms), String(pt.cdf), String(pt.count)]));
    }
  }
  return rows.join('');
}

function csvRow(fields: readonly string[]): string {
  return `${fields.map((f) => (/[",\r\n]/.test(f) ? `"${f.replace(/"/g, '""')}"` : f)).join(',')}\r\n`;
}

export interface JsonExport extends HandshakeStatsJSON {
  format: 'getlist-handshake-stats';
  version: 1;
  pages: unknown[];
}

/** `meta` fields (e.g. the query, when it was exported) come first in the object. */
export function exportJson(stats: HandshakeStats, pages: readonly unknown[] = [], meta: Record<string, unknown> = {}): string {
  const doc: JsonExport = { format: 'getlist-handshake-stats', version: 1, ...meta, ...statsToJSON(stats), pages: [...pages] };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export const PROM_METRIC = 'getlist_handshake_duration_seconds';

/**
 * The `le` boundaries in seconds, from {@link EXACT_THRESHOLDS_MS}: 0.001 0.0025 0.005 0.01 0.025
 * 0.05 0.1 0.25 0.5 1 2.5 5 10, then +Inf. Bucket counts are exact (counted from the raw values,
 * `v ≤ le`); `_sum` is the sum of the values each rounded to 1 µs.
 */
export const PROM_LE: readonly string[] = [...EXACT_THRESHOLDS_MS.map((ms) => String(ms / 1000)), '+Inf'];

export function exportPrometheus(stats: HandshakeStats): string {
  return prometheusText(
    stats.series().map((s) => ({
      ...s,
      phases: [...orderedPhases(s)].map(([phase, p]) => [phase, { count: p.histogram.count, sumMs: p.histogram.sum, atOrBelow: p.atOrBelow }] as const),
    })),
  );
}

/** The exposition of these series (from a HandshakeStats, or a HandshakeTally that a moving window keeps). */
export function prometheusText(series: Iterable<TallySeries>): string {
  let text = PROM_HEADER;
  for (const s of series) text += prometheusSeriesText(s);
  return text;
}

/** The `# HELP` and `# TYPE` lines that open the exposition. */
export const PROM_HEADER =
  `# HELP ${PROM_METRIC} Connection handshake time per phase (dns, tcp, tls, total), measured at the socket by getlist (source host, cli) or by the browser's Resource Timing (source browser).\n` +
  `# TYPE ${PROM_METRIC} histogram\n`;

/** The sample lines of one series, each ending in a line feed. */
export function prometheusSeriesText(s: TallySeries): string {
  const lines: string[] = [];
  for (const [phase, p] of s.phases) {
    const labels = promLabels({ phase, origin: s.origin, protocol: s.protocol, tls: s.tls, source: s.source });
    p.atOrBelow.forEach((c, i) => lines.push(`${PROM_METRIC}_bucket{${labels},le="${PROM_LE[i] as string}"} ${c}`));
    lines.push(`${PROM_METRIC}_bucket{${labels},le="+Inf"} ${p.count}`);
    lines.push(`${PROM_METRIC}_sum{${labels}} ${promNumber(p.sumMs / 1000)}`);
    lines.push(`${PROM_METRIC}_count{${labels}} ${p.count}`);
  }
  return lines.length ? `${lines.join('\n')}\n` : '';
}

function promLabels(labels: { phase: HandshakePhase; origin: string; protocol: string; tls: string; source: string }): string {
  return Object.entries(labels).map(([k, v]) => `${k}="${escapeLabelValue(v)}"`).join(',');
}

/** Label values escape `\`, `"` and line feed (exposition format 0.0.4). */
export function escapeLabelValue(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function promNumber(x: number): string {
  if (x === Infinity) return '+Inf';
  if (x === -Infinity) return '-Inf';
  return Number.isNaN(x) ? 'NaN' : String(x);
}

export function exportStats(format: ExportFormat, stats: HandshakeStats, pages: readonly unknown[] = [], meta: Record<string, unknown> = {}): string {
  switch (format) {
    case 'csv':
      return exportCsv(stats);
    case 'json':
      return exportJson(stats, pages, meta);
    case 'prom':
      return exportPrometheus(stats);
  }
}
