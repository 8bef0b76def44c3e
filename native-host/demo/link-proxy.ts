/**
 * A user-space emulated network link: a TCP relay in front of the demo server that adds
 * propagation delay, a shared bottleneck rate and the cost of the TCP handshake, so
 * `getlist demo` shows real latency effects without root (no `tc netem`).
 *
 * Model, per relayed connection and direction:
 * - every chunk is serialised on ONE bottleneck per direction shared by all connections
 *   (FIFO, `size*8/rate` after the link becomes free), then delayed by rtt/2 one way;
 *   order is preserved per connection;
 * - handshake: a new connection is held for one full RTT before anything is read from the
 *   client or the upstream connection is opened. The client's kernel-level TCP connect time
 *   therefore reads ~0 (loopback accepts at once) and the handshake RTT is charged to the
 *   first byte of the first response instead — its total, ≥ 2 RTT, matches a real link;
 * - FIN travels like data (after everything queued before it, half-close aware); an error or
 *   reset destroys the other side one one-way delay later;
 * - no drop-tail: TCP over loopback would never see the drops. A source is paused instead
 *   while its direction holds more than `queueBytes` beyond what is in flight.
 */
import { createServer, type Socket } from 'node:net';
import { CodedError } from '../../src/core/coded-error';
import { LinkClock, realClock } from './link-clock';
import { listen } from './listen';
import { Relay, relayConnection, RelayContext } from './relay-connection';
import { SharedLink } from './shared-link';

export interface LinkProxyOptions {
  /** Where relayed connections go (the demo server). */
  target: { host: string; port: number };
  /** Round-trip propagation delay, ms; each direction gets half. */
  rttMs: number;
  /** Server→client bottleneck rate, bits/s; `Infinity` disables it. @default 20_000_000 */
  downlinkBitsPerSec?: number;
  /** Client→server bottleneck rate, bits/s; `Infinity` disables it. @default 5_000_000 */
  uplinkBitsPerSec?: number;
  /** Per-connection, per-direction backlog (beyond bytes in flight) before the source is paused. @default 65_536 */
  queueBytes?: number;
  /** Interface to listen on. @default '127.0.0.1' */
  listenHost?: string;
  /** Port to listen on; 0 picks a free ephemeral port. @default 0 */
  listenPort?: number;
  /** Time source for delays (tests may inject one). @default realClock (performance.now + setTimeout) */
  clock?: LinkClock;
}

export interface LinkProxyStats {
  /** Connections accepted since start. */
  connections: number;
  /** Connections not yet fully closed. */
  openConnections: number;
  /** Bytes delivered to the target. */
  bytesUp: number;
  /** Bytes delivered to clients. */
  bytesDown: number;
}

export interface LinkProxy {
  readonly port: number;
  /** `http://<listenHost>:<port>`: the demo pages' origin as seen through the link. */
  readonly origin: string;
  /** Stops listening, tears down every relayed connection and resolves. Idempotent. */
  close(): Promise<void>;
  stats(): LinkProxyStats;
}

export const DEFAULT_DOWNLINK_BITS_PER_SEC = 20_000_000;
export const DEFAULT_UPLINK_BITS_PER_SEC = 5_000_000;
export const DEFAULT_QUEUE_BYTES = 65_536;
/** In-flight allowance per direction when that direction has no rate limit (bounds memory). */
const UNLIMITED_IN_FLIGHT_BYTES = 4 * 1024 * 1024;

export class LinkProxyError extends CodedError<'E_LINK_OPTIONS'> {
  override readonly name = 'LinkProxyError';
  constructor(message: string) {
    super('E_LINK_OPTIONS', message);
  }
}

function checkRate(name: string, value: number): number {
  if (Number.isNaN(value) || value <= 0) throw new LinkProxyError(`${name} must be > 0 (or Infinity), got ${value}`);
  return value;
}

/** Bytes a direction carries during one one-way delay at full rate. */
function inFlightBytes(bitsPerSec: number, oneWayMs: number): number {
  if (!Number.isFinite(bitsPerSec)) return UNLIMITED_IN_FLIGHT_BYTES;
  return Math.ceil((bitsPerSec / 8) * (oneWayMs / 1000));
}

/** Starts the relay; rejects with {@link LinkProxyError} on invalid options. */
export async function startLinkProxy(opts: LinkProxyOptions): Promise<LinkProxy> {
  const { target, rttMs } = opts;
  if (!Number.isFinite(rttMs) || rttMs < 0) throw new LinkProxyError(`rttMs must be a finite number >= 0, got ${rttMs}`);
  if (!Number.isInteger(target.port) || target.port < 1 || target.port > 65535) {
    throw new LinkProxyError(`target.port must be 1..65535, got ${target.port}`);
  }
  const downRate = checkRate('downlinkBitsPerSec', opts.downlinkBitsPerSec ?? DEFAULT_DOWNLINK_BITS_PER_SEC);
  const upRate = checkRate('uplinkBitsPerSec', opts.uplinkBitsPerSec ?? DEFAULT_UPLINK_BITS_PER_SEC);
  const queueBytes = opts.queueBytes ?? DEFAULT_QUEUE_BYTES;
  if (!Number.isInteger(queueBytes) || queueBytes < 1) throw new LinkProxyError(`queueBytes must be an integer >= 1, got ${queueBytes}`);
  const listenHost = opts.listenHost ?? '127.0.0.1';

  const counters = { bytesUp: 0, bytesDown: 0 };
  const ctx: RelayContext = {
    target, rttMs, queueBytes, counters,
    uplink: new SharedLink(upRate),
    downlink: new SharedLink(downRate),
    upInFlightBytes: inFlightBytes(upRate, rttMs / 2),
    downInFlightBytes: inFlightBytes(downRate, rttMs / 2),
    clock: opts.clock ?? realClock,
  };
  const relays = new Set<Relay>();
  let connections = 0;

  // pauseOnConnect: nothing is read before the emulated handshake completes.
  // allowHalfOpen: a client FIN must not end our write side; the relay forwards it instead.
  const server = createServer({ pauseOnConnect: true, allowHalfOpen: true, noDelay: true }, (client: Socket) => {
    connections++;
    const relay = relayConnection(client, ctx, () => relays.delete(relay));
    relays.add(relay);
  });

  const l = await listen(server, listenHost, opts.listenPort ?? 0, () => {
    for (const relay of [...relays]) relay.destroy();
  });
  return { ...l, stats: () => ({ connections, openConnections: relays.size, ...counters }) };
}
