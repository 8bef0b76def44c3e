import type { Phase } from './phases';
import { originOf } from '../../../core/url-parts';
import type { ConnectionRef, WaterfallRow } from './rows';

/** One connection's row in the connection view (WebPageTest's "connection view"). */
export interface ConnectionLane {
  key: string;
  origin: string;
  protocol: string | null;
  source: ConnectionRef['source'];
  /** 1-based within its origin. */
  n: number;
  /** The requests it carried, in start order. */
  rows: WaterfallRow[];
  startMs: number;
  endMs: number;
}

/**
 * Assigns observed rows to connections from what Resource Timing exposes, as WebPageTest does for
 * browsers that do not report socket ids: a request with `connectEnd > connectStart` opened a new
 * connection; a reused one went on a connection of its origin that was idle when it was sent (the
 * most recently idle first, as Chromium's socket pool picks); HTTP/2 and HTTP/3 multiplex, so
 * every reused request of an origin shares its open connection. Rows whose timing is hidden or
 * that came from the cache are packed into lanes of their own (source `not-exposed` / `cache`)
 * only so that their bars do not overlap. Returns new rows; the input is not changed.
 */
export function inferConnections(rows: readonly WaterfallRow[]): WaterfallRow[] {
  type Conn = { ref: ConnectionRef; origin: string; busyUntil: number; multiplexed: boolean };
  const conns: Conn[] = [];
  const numbers = new Map<string, number>();
  const next = (origin: string, source: ConnectionRef['source']): ConnectionRef => {
    const id = `${source}|${origin}`;
    const n = (numbers.get(id) ?? 0) + 1;
    numbers.set(id, n);
    return { key: `${id}|${n}`, source, n };
  };
  const open = (origin: string, source: ConnectionRef['source'], row: WaterfallRow): Conn => {
    const c: Conn = { ref: next(origin, source), origin, busyUntil: row.endMs ?? Infinity, multiplexed: isMultiplexed(row.protocol) };
    conns.push(c);
    return c;
  };
  const out: WaterfallRow[] = [];
  for (const row of [...rows].sort((a, b) => sentAt(a) - sentAt(b))) {
    const origin = originOf(row.url) || row.url;
    const end = row.endMs ?? Infinity;
    let conn: Conn | undefined;
    if (row.fromCache || row.opensConnection === null) {
      const source = row.fromCache ? 'cache' : 'not-exposed';
      conn = conns.find((c) => c.ref.source === source && c.origin === origin && c.busyUntil <= row.startMs) ?? open(origin, source, row);
    } else if (row.opensConnection) {
      conn = open(origin, 'resource-timing', row);
    } else {
      const mine = conns.filter((c) => c.ref.source === 'resource-timing' && c.origin === origin);
      conn = mine.find((c) => c.multiplexed) ?? mine.filter((c) => c.busyUntil <= sentAt(row) + IDLE_SLACK_MS).sort((a, b) => b.busyUntil - a.busyUntil)[0];
      // A connection opened before this page (a previous page's, a preconnect) has no opener here.
      conn ??= open(origin, 'resource-timing', row);
    }
    conn.busyUntil = Math.max(conn.multiplexed ? conn.busyUntil : 0, end);
    out.push({ ...row, connection: conn.ref });
  }
  const order = new Map(rows.map((r, i) => [r.key, i]));
  return out.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
}

/** Timer granularity of Resource Timing (Firefox rounds to 1 ms, Chromium to 0.1 ms or coarser). */
const IDLE_SLACK_MS = 1;

function isMultiplexed(protocol: string | null): boolean {
  return protocol === 'h2' || protocol === 'h3' || protocol === 'h3-29' || protocol === 'http/2';
}

/** When the request went on the wire: the start of its `wait` phase, else its start. */
export function sentAt(row: WaterfallRow): number {
  return row.phases.find((p) => p.kind === 'wait')?.startMs ?? row.startMs;
}

/**
 * Rows grouped by their connection (rows without one are left out), lanes ordered by when they
 * started, as WebPageTest orders its connection view.
 */
export function groupByConnection(rows: readonly WaterfallRow[]): ConnectionLane[] {
  const lanes = new Map<string, ConnectionLane>();
  for (const row of [...rows].sort((a, b) => a.startMs - b.startMs)) {
    const c = row.connection;
    if (!c) continue;
    let lane = lanes.get(c.key);
    if (!lane) {
      lane = { key: c.key, origin: originOf(row.url) || row.url, protocol: row.protocol, source: c.source, n: c.n, rows: [], startMs: row.startMs, endMs: row.endMs ?? row.startMs };
      lanes.set(c.key, lane);
    }
    lane.rows.push(row);
    lane.protocol ??= row.protocol;
    lane.endMs = Math.max(lane.endMs, row.endMs ?? row.startMs, ...row.phases.map((p) => p.endMs));
  }
  return [...lanes.values()].sort((a, b) => a.startMs - b.startMs);
}

/**
 * The segments a lane draws: each request's phases, except that `queued` time is left out (on a
 * connection's row it is time the request spent waiting elsewhere, not on this connection).
 */
export function laneSegments(lane: ConnectionLane): Array<Phase & { row: WaterfallRow }> {
  return lane.rows.flatMap((row) => row.phases.filter((p) => p.kind !== 'queued').map((p) => ({ ...p, row })));
}
