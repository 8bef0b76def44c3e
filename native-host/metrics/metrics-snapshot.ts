import { CodedError } from '../../src/core/coded-error';
import { PROM_HEADER, prometheusSeriesText } from '../../src/stats/export-formats';
import { HandshakeTally } from '../../src/stats/handshake-tally';
import type { HandshakeSnapshot, SequencedHandshake } from '../store/handshake-snapshot';

/** What scrapes are served from: the exposition of one refresh, shared by every scrape until the next. */
export interface MetricsView {
  /** The Prometheus text, encoded once. */
  readonly body: Buffer;
  readonly generation: string;
  readonly handshakes: number;
  /** Epoch ms (of `now`) when the refresh's store snapshot was taken. */
  readonly takenAt: number;
  /** How long the refresh took (reading, counting, rendering). */
  readonly refreshMs: number;
  /** Whether it was rebuilt from the whole store (first refresh, a forget or a retention rewrite). */
  readonly rebuilt: boolean;
}

export interface MetricsSnapshotOptions {
  store: { snapshot(): Promise<HandshakeSnapshot> };
  /** Epoch ms the window starts at, as a function of `now`; undefined: everything the store keeps. */
  since?: (now: number) => number | undefined;
  /**
   * Longest a view is served before a scrape refreshes it. Concurrent scrapes always share one
   * refresh; 0 refreshes for every scrape that does not find one running.
   * @default 1000
   */
  maxAgeMs?: number;
  /** @default Date.now */
  now?: () => number;
  /** Records counted between turns of the event loop, so that signals and other requests are served during a long rebuild. @default 2000 */
  chunk?: number;
  /**
   * New records are looked for first among those started up to this long before the previous
   * refresh (a connection's record reaches the store seconds after it started); older ones are
   * found too, by a longer read.
   * @default 3600000 (1 h)
   */
  lateMs?: number;
}

const HEADER = Buffer.from(PROM_HEADER);

interface State {
  generation: string;
  tally: HandshakeTally;
  /** The tally holds the records numbered below this … */
  nextSeq: number;
  /** … that started at or after this. */
  windowStart: number;
  takenAt: number;
}

/**
 * The exporter's aggregate of the store, kept up to date by reading only what changed: each
 * refresh takes one store snapshot and
 * - drops the records the window's start moved past (the store's time order makes that one key range),
 * - adds the records numbered since the last refresh (handshake-snapshot.ts) that lie in the window,
 * - rebuilds from the whole store when the generation changed (forget, retention: records went) or
 *   the window moved back (a clock step).
 * Invariant: the tally counts exactly the snapshot's handshakes numbered below `nextSeq` with
 * `startedAt ≥ windowStart`, i.e. what `store.handshakes({ since: windowStart })` returns.
 */
export class MetricsSnapshot {
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  private readonly chunk: number;
  private readonly lateMs: number;
  private state: State | undefined;
  private view: MetricsView | undefined;
  /** Each series' lines as last rendered, by series, with the tally version they show. */
  private rendered = new Map<string, { version: number; text: Buffer }>();
  private running: Promise<MetricsView> | undefined;
  private stopped = false;

  constructor(private readonly options: MetricsSnapshotOptions) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? 1000;
    this.chunk = options.chunk ?? 2000;
    this.lateMs = options.lateMs ?? 3_600_000;
  }

  /** A view no older than `maxAgeMs`, refreshing (once, for every caller at that moment) if needed. */
  current(): Promise<MetricsView> {
    const v = this.view;
    if (v && this.now() - v.takenAt < this.maxAgeMs) return Promise.resolve(v);
    return this.refresh();
  }

  /** Refreshes now, or joins the refresh under way. */
  refresh(): Promise<MetricsView> {
    if (this.stopped) return Promise.reject(stoppedError());
    this.running ??= this.doRefresh().finally(() => (this.running = undefined));
    return this.running;
  }

  /** Stops a refresh under way at its next turn and refuses later ones; resolves when none runs. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running?.catch(() => undefined);
  }

  private async doRefresh(): Promise<MetricsView> {
    const started = performance.now();
    const snap = await this.options.store.snapshot();
    try {
      const takenAt = this.now();
      const windowStart = Math.max(this.options.since?.(takenAt) ?? 0, snap.retainedSince);
      const s = this.state;
      this.state = undefined; // Until this refresh completes: a failure half-way forces a rebuild.
      const rebuilt = !s || s.generation !== snap.generation || windowStart < s.windowStart || snap.nextSeq < s.nextSeq;
      let changed = rebuilt;
      let tally: HandshakeTally;
      if (rebuilt) {
        tally = new HandshakeTally();
        await this.each(snap.between(windowStart), (x) => tally.add(x.record));
      } else {
        tally = s.tally;
        if (windowStart > s.windowStart) {
          await this.each(snap.between(s.windowStart, windowStart), (x) => {
            if (x.seq >= s.nextSeq) return;
            tally.remove(x.record);
            changed = true;
          });
        }
        await this.each(snap.added(s.nextSeq, s.takenAt - this.lateMs), (x) => {
          if (x.record.startedAt < windowStart) return;
          tally.add(x.record);
          changed = true;
        });
      }
      this.state = { generation: snap.generation, tally, nextSeq: snap.nextSeq, windowStart, takenAt };
      if (rebuilt) this.rendered = new Map();
      const body = changed || !this.view ? this.render(tally) : this.view.body;
      this.view = { body, generation: snap.generation, handshakes: tally.count, takenAt, refreshMs: performance.now() - started, rebuilt };
      return this.view;
    } finally {
      snap.done();
    }
  }

  /** The exposition; only series that changed since the last render are formatted again. */
  private render(tally: HandshakeTally): Buffer {
    const parts: Buffer[] = [HEADER];
    const rendered = new Map<string, { version: number; text: Buffer }>();
    for (const s of tally.series()) {
      const key = `${s.origin}\n${s.protocol}\n${s.tls}`;
      const cached = this.rendered.get(key);
      const r = cached && cached.version === s.version ? cached : { version: s.version ?? 0, text: Buffer.from(prometheusSeriesText(s)) };
      rendered.set(key, r);
      parts.push(r.text);
    }
    this.rendered = rendered;
    return Buffer.concat(parts);
  }

  /** Runs `fn` on each record, giving the event loop a turn every `chunk` records. */
  private async each(records: Iterable<SequencedHandshake>, fn: (x: SequencedHandshake) => void): Promise<void> {
    let n = 0;
    for (const x of records) {
      fn(x);
      if (++n % this.chunk === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (this.stopped) throw stoppedError();
      }
    }
  }
}

function stoppedError(): CodedError {
  return new CodedError('E_METRICS_STOPPED', 'the metrics exporter is shutting down');
}
