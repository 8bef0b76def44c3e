import { HANDSHAKE_PHASES, handshakeSource, phaseMeasured, phaseMs, type HandshakePhase, type HandshakeRecord, type HandshakeSource } from './handshake';
import { Histogram, type CdfPoint, type HistogramJSON } from './histogram';

/**
 * Handshake-time statistics: one histogram per phase for every (origin, protocol, TLS kind,
 * source) series, from which every coarser group (all, per origin, per protocol, full vs resumed TLS) is
 * built by exact histogram merges, so a group's CDF is the CDF of its records, bit for bit.
 *
 * Resumed and full TLS handshakes are different populations (docs/architecture.md, "Timing is
 * measured at the socket"). The `tls` phase is recorded only for https: connections: a plain
 * http: connection has no TLS handshake, and counting its 0 would drag the TLS CDF towards 0.
 */

/** `unknown`: an https: connection whose resumption was not exposed (the browser's own records). */
export type TlsKind = 'full' | 'resumed' | 'unknown' | 'none';
export type StatsGroupKind = 'all' | 'origin' | 'protocol' | 'tls' | 'source';

/** A record as the stats read it: a stored one names its source (HandshakeSource, or the host's `measure`/`replay`). */
export type SourcedHandshake = HandshakeRecord & { source?: string };
export type HandshakeProtocol = HandshakeRecord['protocol'];

/** Percentiles every summary reports. */
export const SUMMARY_PERCENTILES = [50, 75, 90, 95, 99] as const;

/** The key of the `all` group (group keys are otherwise origins, protocols or TLS kinds). */
export const ALL_KEY = '*';

/**
 * Thresholds in ms at which {@link PhaseStats.atOrBelow} keeps exact counts of raw values ≤ the
 * threshold: the Prometheus `le` boundaries (1 ms … 10 s). They are counted from the records, not
 * read off the histogram, because the histogram's bucket edges (multiples of powers of two of
 * 1 µs) do not fall on these round numbers and its buckets hold `lower ≤ v < upper`, while
 * Prometheus counts `v ≤ le`.
 */
export const EXACT_THRESHOLDS_MS: readonly number[] = [1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000];

/** Adds `delta` to every `atOrBelow[i]` whose threshold `EXACT_THRESHOLDS_MS[i]` is ≥ `ms`. */
export function countAtOrBelow(atOrBelow: number[], ms: number, delta: number): void {
  for (let i = EXACT_THRESHOLDS_MS.length - 1; i >= 0 && ms <= (EXACT_THRESHOLDS_MS[i] as number); i--) {
    atOrBelow[i] = (atOrBelow[i] as number) + delta;
  }
}

/** The phases the `tls` group reports: the TLS handshake itself and the total it adds to. */
const TLS_GROUP_PHASES: readonly HandshakePhase[] = ['tls', 'total'];

/** The values of one phase in one series or group. */
export class PhaseStats {
  readonly histogram = new Histogram();
  /** `atOrBelow[i]` = number of values ≤ `EXACT_THRESHOLDS_MS[i]` (cumulative, exact). */
  readonly atOrBelow: number[] = EXACT_THRESHOLDS_MS.map(() => 0);

  record(ms: number): void {
    this.histogram.record(ms);
    countAtOrBelow(this.atOrBelow, ms, 1);
  }

  merge(other: PhaseStats): this {
    this.histogram.merge(other.histogram);
    other.atOrBelow.forEach((c, i) => (this.atOrBelow[i] = (this.atOrBelow[i] as number) + c));
    return this;
  }
}

/** Phase statistics of a set of records; a phase is absent when no record had it. */
export interface PhaseSet {
  /** Number of records. */
  count: number;
  phases: Map<HandshakePhase, PhaseStats>;
}

/** What names a series. */
export interface SeriesKey {
  origin: string;
  protocol: HandshakeProtocol;
  tls: TlsKind;
  source: HandshakeSource;
}

/** The finest partition: one per (origin, protocol, TLS kind, source). */
export interface Series extends PhaseSet, SeriesKey {}

export interface StatsGroup extends PhaseSet {
  group: StatsGroupKind;
  /** {@link ALL_KEY}, an origin, a protocol (`h2`, `http/1.1`), a TLS kind (`full`, `resumed`, `unknown`) or a source. */
  key: string;
}

const PLAIN_PHASES: readonly HandshakePhase[] = HANDSHAKE_PHASES.filter((p) => p !== 'tls');

/** The phases a record of this TLS kind is counted in: all but `tls` on plain http:. */
export function recordedPhases(tls: TlsKind): readonly HandshakePhase[] {
  return tls === 'none' ? PLAIN_PHASES : HANDSHAKE_PHASES;
}

export function tlsKindOf(r: HandshakeRecord): TlsKind {
  if (!r.origin.startsWith('https:')) return 'none';
  if (r.resumed === undefined) return 'unknown';
  return r.resumed ? 'resumed' : 'full';
}

export class HandshakeStats {
  private readonly bySeries = new Map<string, Series>();
  private total = 0;

  /** Number of records added (including merged ones). */
  get count(): number {
    return this.total;
  }

  add(r: SourcedHandshake): this {
    const s = this.seriesFor({ origin: r.origin, protocol: r.protocol, tls: tlsKindOf(r), source: handshakeSource(r) });
    s.count++;
    this.total++;
    for (const phase of recordedPhases(s.tls)) if (phaseMeasured(r, phase)) phaseOf(s, phase).record(phaseMs(r, phase));
    return this;
  }

  addAll(records: Iterable<SourcedHandshake>): this {
    for (const r of records) this.add(r);
    return this;
  }

  /** Adds everything in `other` (exact). Returns `this`. */
  merge(other: HandshakeStats): this {
    for (const o of other.bySeries.values()) mergeInto(this.seriesFor(o), o, HANDSHAKE_PHASES);
    this.total += other.total;
    return this;
  }

  /** Every series, sorted by origin, protocol, TLS kind, source. */
  series(): Series[] {
    return [...this.bySeries.values()].sort(compareSeries);
  }

  /**
   * The groups, each merged from its series: `all`, then each origin, each protocol, and `full`
   * `resumed` and `unknown` TLS (https only; phases `tls` and `total`), then each source, each sorted by key. Groups with no
   * records are left out.
   */
  groups(): StatsGroup[] {
    const series = this.series();
    const out: StatsGroup[] = [];
    const groupBy = (group: StatsGroupKind, keyOf: (s: Series) => string | undefined, phases: readonly HandshakePhase[]) => {
      const byKey = new Map<string, StatsGroup>();
      for (const s of series) {
        const key = keyOf(s);
        if (key === undefined) continue;
        let g = byKey.get(key);
        if (!g) byKey.set(key, (g = { group, key, count: 0, phases: new Map() }));
        mergeInto(g, s, phases);
      }
      out.push(...[...byKey.values()].sort((a, b) => compare(a.key, b.key)));
    };
    groupBy('all', () => ALL_KEY, HANDSHAKE_PHASES);
    groupBy('origin', (s) => s.origin, HANDSHAKE_PHASES);
    groupBy('protocol', (s) => s.protocol, HANDSHAKE_PHASES);
    groupBy('tls', (s) => (s.tls === 'none' ? undefined : s.tls), TLS_GROUP_PHASES);
    groupBy('source', (s) => s.source, HANDSHAKE_PHASES);
    return out;
  }

  private seriesFor(k: SeriesKey): Series {
    const key = seriesKeyText(k);
    let s = this.bySeries.get(key);
    if (!s) this.bySeries.set(key, (s = { origin: k.origin, protocol: k.protocol, tls: k.tls, source: k.source, count: 0, phases: new Map() }));
    return s;
  }
}

/** Aggregates records (any iterable: an array, a generator over a store). */
export function aggregateHandshakes(records: Iterable<SourcedHandshake>): HandshakeStats {
  return new HandshakeStats().addAll(records);
}

export interface PhaseSummary {
  count: number;
  /** Exact. */
  min: number;
  /** Exact. */
  max: number;
  /** Within 0.5 µs (the histogram sums whole µs). */
  mean: number;
  /** Nearest-rank, reported as the bucket's upper edge: within 1/128 above the true value. */
  p50: number;
  p75: number;
  p90: number;
  p95: number;
  p99: number;
  /** One point per non-empty histogram bucket. */
  cdf: CdfPoint[];
}

export function summarizeHistogram(h: Histogram): PhaseSummary {
  const [p50, p75, p90, p95, p99] = SUMMARY_PERCENTILES.map((p) => h.percentile(p)) as [number, number, number, number, number];
  return { count: h.count, min: h.min, max: h.max, mean: h.mean, p50, p75, p90, p95, p99, cdf: h.cdf() };
}

export interface StatsGroupJSON {
  group: StatsGroupKind;
  key: string;
  count: number;
  /** Summary plus the histogram itself, so exports can be merged again exactly. */
  phases: Partial<Record<HandshakePhase, PhaseSummary & { histogram: HistogramJSON }>>;
}

export interface HandshakeStatsJSON {
  count: number;
  groups: StatsGroupJSON[];
}

export function statsToJSON(stats: HandshakeStats): HandshakeStatsJSON {
  return {
    count: stats.count,
    groups: stats.groups().map((g) => ({
      group: g.group,
      key: g.key,
      count: g.count,
      phases: Object.fromEntries(
        [...orderedPhases(g)].map(([phase, p]) => [phase, { ...summarizeHistogram(p.histogram), histogram: p.histogram.toJSON() }]),
      ),
    })),
  };
}

/** A set's phases in {@link HANDSHAKE_PHASES} order. */
export function* orderedPhases(set: PhaseSet): Generator<[HandshakePhase, PhaseStats]> {
  for (const phase of HANDSHAKE_PHASES) {
    const p = set.phases.get(phase);
    if (p) yield [phase, p];
  }
}

function phaseOf(set: PhaseSet, phase: HandshakePhase): PhaseStats {
  let p = set.phases.get(phase);
  if (!p) set.phases.set(phase, (p = new PhaseStats()));
  return p;
}

function mergeInto(target: PhaseSet, source: PhaseSet, phases: readonly HandshakePhase[]): void {
  target.count += source.count;
  for (const phase of phases) {
    const p = source.phases.get(phase);
    if (p) phaseOf(target, phase).merge(p);
  }
}

/** The order of {@link HandshakeStats.series}: by origin, protocol, TLS kind, source (UTF-16 code units). */
export function compareSeries(a: SeriesKey, b: SeriesKey): number {
  return compare(a.origin, b.origin) || compare(a.protocol, b.protocol) || compare(a.tls, b.tls) || compare(a.source, b.source);
}

/** A series' map key: one per (origin, protocol, TLS kind, source). */
export function seriesKeyText(k: SeriesKey): string {
  return `${k.origin}\n${k.protocol}\n${k.tls}\n${k.source}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
