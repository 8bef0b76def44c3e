import type { RequestResult, SchedulerStats, StrategyName } from '../scheduler';
import type { HandshakeRecord } from '../stats/handshake';
import { toRequestRecord, type RequestRecord } from './request-record';
import { roundHandshake, roundMs } from './round';

/**
 * The headline figures of one run. Computed once, from the run's own records (`buildRun`); a
 * summary of several runs takes medians of these (`summarizeStrategies`).
 */
export interface RunFigures {
  /** Run start to the last request done, ms. */
  totalMs: number;
  /** Mean time to first byte from when each request was known, ms; 0 when no request succeeded. */
  meanTtfbMs: number;
  /** Connections whose handshake completed. */
  connectionsOpened: number;
  /** Successful requests per connection that carried one; 0 when none succeeded. */
  requestsPerConnection: number;
  /** Body bytes received. */
  bytes: number;
  /** Requests that failed. */
  errors: number;
}

/**
 * One page load (`getlist load`) or list replay under one strategy: its figures, every request and
 * every connection's handshake. `getlist load --json` prints it (plus `repeat`) unchanged, so
 * parsing that JSON gives back a `Run`.
 */
export interface Run extends RunFigures {
  /** The page loaded (as given, before redirects) or the page a replayed list belongs to. */
  url: string;
  strategy: StrategyName;
  /** Epoch ms. */
  startedAt: number;
  /** Attempts beyond the first, over all requests. */
  retries: number;
  /** Times a response body was paused for a low-latency request. */
  pauses: number;
  /**
   * `HEAD`s the scheduler sent of its own to prove an origin keeps order (order-probe.ts): requests
   * no browser makes, beyond `requests`.
   */
  orderProbes: number;
  demotions: SchedulerStats['demotions'];
  /** In the order the requests became known (scheduler id order). */
  requests: RequestRecord[];
  handshakes: HandshakeRecord[];
  /** What the page named but the run did not fetch, as a browser would not; `[]` for a replayed list. */
  skipped: SkippedResource[];
  /** Style sheet `url()`s no element matched (never fetched, as in a browser); 0 for a replayed list. */
  unmatchedCssUrls: number;
  /**
   * Requests sent from the page's learned list before parsing found them (`Strategy.memory.speculativeList`,
   * page-list.ts), used or not; 0 without a list.
   */
  speculative: number;
  /**
   * Of those, the ones the page no longer names (the parse and the style scan ended without
   * finding them): kept in `requests`, marked `speculative: 'unused'`, and left out of every figure
   * above (they are not the page's resources).
   */
  speculativeUnused: number;
  /** Body bytes those unused requests received: what the guess cost. */
  speculativeWastedBytes: number;
}

/**
 * A URL the page names that a browser would not fetch on load, and so neither did the run:
 * `mixed-content` is an `http:` script, style, font or frame in an `https:` page; `lazy` is
 * `loading=lazy` content beyond the fold when the load was told to skip it (`--no-lazy`).
 */
export interface SkippedResource {
  url: string;
  /** What the markup says it is (`script`, `image`, …), as `RequestRecord.resourceType`. */
  resourceType: string;
  reason: 'mixed-content' | 'lazy';
}

/** Just the figures of a larger record (a run, a summary). */
export function runFigures(x: RunFigures): RunFigures {
  return {
    totalMs: x.totalMs,
    meanTtfbMs: x.meanTtfbMs,
    connectionsOpened: x.connectionsOpened,
    requestsPerConnection: x.requestsPerConnection,
    bytes: x.bytes,
    errors: x.errors,
  };
}

export interface RunInput {
  url: string;
  strategy: StrategyName;
  startedAt: number;
  /** The run's start on the scheduler's clock; record times are relative to it. */
  t0: number;
  results: readonly RequestResult[];
  handshakes: readonly HandshakeRecord[];
  stats: SchedulerStats;
  /** Decoded body bytes by scheduler request id, for bodies that were content-encoded. */
  decodedBytes?: ReadonlyMap<number, number>;
  /** @default [] */
  skipped?: readonly SkippedResource[];
  /** @default 0 */
  unmatchedCssUrls?: number;
  /** Requests sent from a learned list, by scheduler request id: `used` once the page named them. @default none */
  speculative?: ReadonlyMap<number, 'used' | 'unused'>;
  /** A page load's dependency structure: each URL the page named, with the document or sheet that named it. @default none */
  parents?: ReadonlyMap<string, string>;
}

/** The run a scheduler's results, handshakes and counters make. */
export function buildRun(input: RunInput): Run {
  const requests = [...input.results].sort((a, b) => a.id - b.id).map((r) => {
    const record = toRequestRecord(r, input.t0, input.decodedBytes?.get(r.id));
    const speculative = input.speculative?.get(r.id);
    if (speculative) record.speculative = speculative;
    if (input.parents) record.foundBy = input.parents.get(r.url) ?? null;
    return record;
  });
  // The page's figures are its own resources': an unused guess is reported, not counted.
  const unused = requests.filter((r) => r.speculative === 'unused');
  const page = unused.length === 0 ? requests : requests.filter((r) => r.speculative !== 'unused');
  const ok = page.filter((r) => r.error === null);
  const ttfbs = ok.map((r) => r.ttfbMs).filter((x): x is number => x !== null);
  const used = new Set(ok.map((r) => r.connectionId));
  return {
    url: input.url,
    strategy: input.strategy,
    startedAt: input.startedAt,
    totalMs: roundMs(page.reduce((m, r) => Math.max(m, r.doneMs), 0)),
    meanTtfbMs: roundMs(ttfbs.length ? ttfbs.reduce((a, b) => a + b, 0) / ttfbs.length : 0),
    connectionsOpened: input.handshakes.length,
    requestsPerConnection: roundMs(used.size ? ok.length / used.size : 0),
    bytes: page.reduce((a, r) => a + r.bytes, 0),
    errors: page.length - ok.length,
    retries: input.stats.retries,
    pauses: input.stats.pauses,
    orderProbes: input.stats.orderProbes,
    demotions: input.stats.demotions,
    requests,
    handshakes: input.handshakes.map(roundHandshake),
    skipped: (input.skipped ?? []).map((x) => ({ ...x })),
    unmatchedCssUrls: input.unmatchedCssUrls ?? 0,
    speculative: input.speculative?.size ?? 0,
    speculativeUnused: unused.length,
    speculativeWastedBytes: unused.reduce((a, r) => a + r.bytes, 0),
  };
}

/** A run as `getlist load --json` and `getlist demo --json` print it: the run, and which repetition it was (1-based). */
export type RunJson = Run & { repeat: number };

export function runToJson(run: Run, repeat: number): RunJson {
  return { ...run, repeat };
}
