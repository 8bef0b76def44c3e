/** The plain-text summary `bench` prints: one block per cell, medians, and ratios against Chromium. */
import { median } from '../../src/stats/median';
import type { BenchResults, CellResult, ContenderResult } from '../run/results-schema';

const fmt = (x: number | null | undefined, digits = 0): string => (x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits));

/** Median requests the server saw: getlist runs no scripts, so it can fetch fewer than Chromium. */
const served = (c: ContenderResult): number => median(c.runs.filter((r) => !r.error).map((r) => r.serverRequests));

function cellLines(cell: CellResult): string[] {
  const p = cell.linkParams;
  const head = `${cell.page} (${cell.pageInfo.requests} req, ${Math.round(cell.pageInfo.bytes / 1024)} KiB, ${cell.pageInfo.origins} origin${cell.pageInfo.origins === 1 ? '' : 's'}) on ${cell.link} ` +
    `(${p.rttMs} ms, ${p.downBitsPerSec / 1e6}/${p.upBitsPerSec / 1e6} Mbit/s, loss ${p.loss * 100}%), ${cell.contenders[0]?.runs.length ?? 0} runs`;
  if (cell.error) return [head, `  ERROR ${cell.error.code}: ${cell.error.message}`];
  const ref = cell.contenders.find((c) => c.contender === 'chromium-h1')?.median.totalMs ?? null;
  const rows = cell.contenders.map((c) => {
    const failed = c.runs.filter((r) => r.error).length;
    const ratio = ref !== null && c.median.totalMs ? (ref / c.median.totalMs).toFixed(2) : '—';
    return `  ${c.contender.padEnd(12)} ${c.scheme.padEnd(5)} ${fmt(c.median.totalMs).padStart(7)} ${`${fmt(c.min.totalMs)}–${fmt(c.max.totalMs)}`.padStart(13)} ` +
      `${fmt(c.median.meanTtfbMs).padStart(7)} ${fmt(c.median.connectionsOpened).padStart(5)} ${fmt(c.median.requestsPerConnection, 1).padStart(6)} ` +
      `${fmt(served(c)).padStart(4)} ${fmt(c.median.errors).padStart(4)} ${ratio.padStart(6)}${failed ? `  (${failed}/${c.runs.length} runs failed: ${c.runs.find((r) => r.error)?.error?.code})` : ''}`;
  });
  return [head, `  ${'contender'.padEnd(12)} ${'proto'.padEnd(5)} ${'total'.padStart(7)} ${'min–max'.padStart(13)} ${'ttfb'.padStart(7)} ${'conns'.padStart(5)} ${'req/c'.padStart(6)} ${'req'.padStart(4)} ${'err'.padStart(4)} ${'×chr1'.padStart(6)}`, ...rows];
}

export function formatSummary(results: BenchResults): string {
  const m = results.meta;
  const lines = [
    `getlist bench (${m.mode}, medians in ms) — ${m.chromium ?? 'chromium ?'}, ${m.nginx ?? 'nginx ?'}, node ${m.node}, ` +
      `${m.machine.cpus} cpus, kernel ${m.machine.kernel}` + (m.link ? `, TCP ${m.link.congestionControl} initcwnd ${m.link.initCwnd} ssai ${m.link.slowStartAfterIdle}` : ''),
    'ttfb: getlist = first byte − discovery; chromium (CDP) = response headers − requestWillBeSent. conns, req/c and req (requests served) from the nginx access log. ×chr1 = chromium-h1 total / this total.',
    '',
  ];
  for (const cell of results.cells) lines.push(...cellLines(cell), '');
  lines.push(`elapsed ${(m.elapsedMs / 1000).toFixed(0)} s`);
  return lines.join('\n');
}
