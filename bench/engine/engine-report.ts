/**
 * Human-readable output of `npm run bench:engine`: one table per benchmark, then the goal lines.
 * Everything printed here is also in the JSON document (see main.ts).
 */
import type { DemoReport } from './demo-comparison';
import { verdict, type EngineResults, type GoalResult } from './engine-goals';
import type { ThroughputReport } from './loopback-throughput';
import type { RunMeta } from './meta';
import type { OverheadReport } from './scheduler-overhead';

/** Left-aligns the first column, right-aligns the rest. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const fmt = (r: readonly string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ');
  return [fmt(header), widths.map((w) => '─'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

const n = (x: number, digits = 0) => (Number.isFinite(x) ? x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—');

function overheadSection(o: OverheadReport): string {
  const rows = o.cases.map((c) => [
    `${c.strategy}, ${c.origins} origin${c.origins === 1 ? '' : 's'}`,
    n(c.usPerRequest, 2),
    c.samplesUs.map((x) => x.toFixed(1)).join(' '),
    n(c.usPerRequest / o.baselineUsPerRequest),
    String(c.connectionsOpened),
  ]);
  rows.push(['baseline: array push+shift', n(o.baselineUsPerRequest, 3), o.baselineSamplesUs.map((x) => x.toFixed(3)).join(' '), '1', '—']);
  return [
    `Scheduler overhead — ${n(o.requests)} requests queued at once, FakeTransport answering synchronously, median of ${o.repetitions} runs`,
    table(['case', 'µs/request', 'runs (µs)', '× baseline', 'conns'], rows),
  ].join('\n');
}

function throughputSection(t: ThroughputReport): string {
  const rows = t.variants.flatMap((v) => [
    [`${n(v.bodyBytes)} B × ${n(v.requests)}  undici`, n(v.undici.medianRequestsPerSec), v.undici.samplesRequestsPerSec.map((x) => n(x)).join(' '), v.undici.serverConnections.join(','), n(v.undici.clientCpuUsPerRequest ?? Number.NaN, 1), '—'],
    [`${n(v.bodyBytes)} B × ${n(v.requests)}  undici Pool`, n(v.undiciPool.medianRequestsPerSec), v.undiciPool.samplesRequestsPerSec.map((x) => n(x)).join(' '), v.undiciPool.serverConnections.join(','), n(v.undiciPool.clientCpuUsPerRequest ?? Number.NaN, 1), '—'],
    [`${n(v.bodyBytes)} B × ${n(v.requests)}  getlist`, n(v.getlist.medianRequestsPerSec), v.getlist.samplesRequestsPerSec.map((x) => n(x)).join(' '), v.getlist.serverConnections.join(','), n(v.getlist.clientCpuUsPerRequest ?? Number.NaN, 1), v.ratio.toFixed(3)],
  ]);
  const warnings = t.variants.flatMap((v) => v.warnings.map((w) => `  warning (${v.bodyBytes} B): ${w}`));
  const depth = t.variants[0];
  return [
    `Loopback throughput — ${depth?.connections} connections × depth ${depth?.depth} for every contender, ${t.rounds} rounds in rotated order, each contender in its own worker thread; getlist's origin remembered as pipelining-good; ratio per round = getlist ÷ the faster of undici's two ways`,
    table(['contender', 'median req/s', 'rounds (req/s)', 'server conns', 'client CPU µs/req', 'getlist ÷ best undici (median of rounds)'], rows),
    ...t.variants.map((v) => `  per-round ratios (${n(v.bodyBytes)} B): ${v.roundRatios.map((x) => x.toFixed(2)).join(' ')}`),
    ...warnings,
  ].join('\n');
}

function demoSection(d: DemoReport): string {
  const parts = [`Demo site — ${d.rttMs} ms RTT, ${d.downlinkBitsPerSec / 1e6}/${d.uplinkBitsPerSec / 1e6} Mbit/s down/up (link proxy), fresh connections per load`];
  for (const p of d.pages) {
    const rows = p.strategies.map((s) => [
      s.strategy,
      String(s.runs.length) + (s.failures.length ? ` (+${s.failures.length} failed)` : ''),
      n(s.medianTotalMs),
      s.runs.map((r) => n(r.totalMs)).join(' '),
      n(s.medianTtfbMs),
      n(s.medianConnections),
      n(s.medianRequestsPerConnection, 1),
      String(s.runs.reduce((a, r) => a + r.errors, 0)),
      s.strategy === 'getlist' ? '1.00' : (p.ratios[`${s.strategy}/getlist`] ?? Number.NaN).toFixed(2),
    ]);
    parts.push('', `${p.page} (${p.requests} requests)`);
    parts.push(table(['strategy', 'loads', 'total ms', 'runs (ms)', 'mean TTFB ms', 'conns', 'req/conn', 'errors', '÷ getlist'], rows));
    const slow = p.strategies.find((s) => s.strategy === 'http10' && s.runs.length + s.failures.length === 1 && p.strategies.some((o) => o.runs.length > 1));
    if (slow) parts.push(`  note: http10 ran once on ${p.page} (${p.requests} serial connections, ≈ 2 RTT each); the others ran ${Math.max(...p.strategies.map((s) => s.runs.length))} times.`);
    for (const s of p.strategies) for (const f of s.failures) parts.push(`  failure (${s.strategy}): ${f}`);
  }
  return parts.join('\n');
}

export function formatReport(r: EngineResults, goals: readonly GoalResult[], meta: RunMeta): string {
  const sections: string[] = [];
  if (r.schedulerOverhead) sections.push(overheadSection(r.schedulerOverhead));
  if (r.loopbackThroughput) sections.push(throughputSection(r.loopbackThroughput));
  if (r.demo) sections.push(demoSection(r.demo));
  const goalLines = goals.map((g) => `${g.line} ${verdict(g)}`);
  const machine = `${meta.cpuCount} × ${meta.cpuModel}, Node ${meta.node}, load average ${meta.loadAverage.start} → ${meta.loadAverage.end}`;
  sections.push([`Goals (measured side by side in this run, ${n(meta.elapsedMs / 1000, 1)} s; ${machine}):`, ...goalLines].join('\n'));
  return sections.join('\n\n');
}
