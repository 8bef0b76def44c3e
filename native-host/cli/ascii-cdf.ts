import type { Histogram } from '../../src/stats/histogram';

/**
 * Draws a CDF as text: one row per decile (10% … 100%), a bar whose length is the time at that
 * percentile on a common scale, so several phases can be compared by eye.
 */
export function asciiCdf(series: ReadonlyArray<{ label: string; histogram: Histogram }>, width = 40): string {
  const live = series.filter((s) => !s.histogram.isEmpty);
  if (live.length === 0) return '(no handshakes recorded)';
  const maxMs = Math.max(...live.map((s) => s.histogram.max));
  const scale = maxMs > 0 ? width / maxMs : 0;
  const out: string[] = [];
  for (const s of live) {
    out.push(`${s.label} (n=${s.histogram.count}, ms)`);
    for (let p = 10; p <= 100; p += 10) {
      const ms = s.histogram.percentile(p);
      const bar = '█'.repeat(Math.max(ms > 0 ? 1 : 0, Math.round(ms * scale)));
      out.push(`  p${String(p).padStart(3)} ${bar.padEnd(width)} ${ms.toFixed(2)}`);
    }
  }
  return out.join('\n');
}
