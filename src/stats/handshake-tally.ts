import { handshakeSource, phaseMeasured, phaseMs, type HandshakePhase } from './handshake';
import { EXACT_THRESHOLDS_MS, compareSeries, countAtOrBelow, recordedPhases, seriesKeyText, tlsKindOf, type SeriesKey, type SourcedHandshake } from './handshake-stats';
import { UNITS_PER_MS, sumUnitsOf } from './histogram-scheme';

/**
 * What the Prometheus exposition reports of one phase of one series: the count, the sum (each value
 * rounded to 1 µs, as a Histogram sums) and the exact `v ≤ le` counts at {@link EXACT_THRESHOLDS_MS}.
 */
export interface PhaseTotals {
  readonly count: number;
  /** Sum in ms of the values each rounded to 1 µs. */
  readonly sumMs: number;
  /** Cumulative: `atOrBelow[i]` = values ≤ `EXACT_THRESHOLDS_MS[i]`. */
  readonly atOrBelow: readonly number[];
}

export interface TallySeries extends SeriesKey {
  count: number;
  /** Changes whenever a record of this series is added or removed (HandshakeTally only). */
  version?: number;
  /** In HANDSHAKE_PHASES order; `tls` only on https:. */
  phases: ReadonlyArray<readonly [HandshakePhase, PhaseTotals]>;
}

class PhaseTally implements PhaseTotals {
  count = 0;
  sumUnits = 0;
  readonly atOrBelow: number[] = EXACT_THRESHOLDS_MS.map(() => 0);

  get sumMs(): number {
    return this.sumUnits / UNITS_PER_MS;
  }

  apply(ms: number, delta: 1 | -1): void {
    this.count += delta;
    this.sumUnits += sumUnitsOf(ms) * delta;
    countAtOrBelow(this.atOrBelow, ms, delta);
  }
}

interface MutableSeries extends SeriesKey {
  count: number;
  version: number;
  phases: Array<readonly [HandshakePhase, PhaseTally]>;
}

/**
 * The exposition's numbers per (origin, protocol, TLS kind, source) series, kept so that records can be
 * taken out again: a moving window (`--since`, the store's retention) drops records as they age.
 * A {@link HandshakeStats} cannot do that (its histograms keep an exact min and max, which do not
 * subtract); every number here is an integer count or an integer µs sum, so `add` then `remove`
 * of the same record restores the tally exactly, and a tally equals HandshakeStats' figures for
 * the same records bit for bit. Removing a record that was never added is the caller's bug.
 */
export class HandshakeTally {
  private readonly bySeries = new Map<string, MutableSeries>();
  private total = 0;
  private changes = 0;

  get count(): number {
    return this.total;
  }

  add(r: SourcedHandshake): void {
    this.apply(r, 1);
  }

  remove(r: SourcedHandshake): void {
    this.apply(r, -1);
  }

  /** Non-empty series, in HandshakeStats.series() order. */
  series(): TallySeries[] {
    return [...this.bySeries.values()].sort(compareSeries);
  }

  private apply(r: SourcedHandshake, delta: 1 | -1): void {
    const k: SeriesKey = { origin: r.origin, protocol: r.protocol, tls: tlsKindOf(r), source: handshakeSource(r) };
    const key = seriesKeyText(k);
    let s = this.bySeries.get(key);
    if (!s) this.bySeries.set(key, (s = newSeries(k)));
    s.count += delta;
    s.version = ++this.changes;
    this.total += delta;
    for (const [phase, p] of s.phases) if (phaseMeasured(r, phase)) p.apply(phaseMs(r, phase), delta);
    if (s.count === 0) this.bySeries.delete(key);
  }
}

function newSeries(k: SeriesKey): MutableSeries {
  return { ...k, count: 0, version: 0, phases: recordedPhases(k.tls).map((phase) => [phase, new PhaseTally()] as const) };
}
