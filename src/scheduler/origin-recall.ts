import type { HttpProtocol } from '../core/http-protocol';
import type { OriginState } from './connection-state';
import type { OriginFacts } from '../origins/origin-facts';
import type { OriginMemory } from '../origins/origin-memory';
import type { Strategy } from './strategies';

/**
 * Seeds a new origin's state from its remembered facts, so the first request pays for nothing the
 * last load already learned:
 *
 * - `pipelining: good` → full depth at once (no depth-2 probe round trip); `bad` → held unpipelined;
 *   `pipeliningProofs` (no verdict yet) → the probe resumes with the earlier loads' clean responses;
 * - `protocol: http/1.1` on an https origin → the full HTTP/1.1 connection limit at once, instead of one
 *   connection until ALPN answers (`h2` changes nothing: one connection is what ALPN would allow);
 * - `connectionCap` (with the rate behind it) → the path is already sized, no first-flight wait;
 * - `rttMs` → the origin's round trip, before its first handshake;
 * - `maxConcurrentStreams` → the streams a new h2 connection carries before the server's SETTINGS.
 *
 * One failure still demotes as today: these are starting points, and every live observation
 * overrides them.
 */
export function recallOrigin(o: OriginState, facts: OriginFacts, strategy: Strategy, now: number): void {
  if (strategy.pipelining && (facts.pipelining || facts.pipeliningProofs)) o.health.recall(now, facts.pipelining, facts.pipeliningProofs);
  if (facts.protocol === 'http/1.1' && o.protocol === undefined) o.protocol = 'http/1.1';
  if (facts.rttMs !== undefined) o.rttMs = facts.rttMs;
  if (facts.maxConcurrentStreams !== undefined) o.peerMaxStreams = facts.maxConcurrentStreams;
  const { maxPerOrigin, fitToPath } = strategy.connections;
  if (fitToPath && facts.connectionCap !== undefined && o.path.state === 'idle') {
    o.path = { state: 'decided', connectionCap: Math.max(1, Math.min(maxPerOrigin, facts.connectionCap)) };
  }
}

/**
 * Writes what a load learns about each origin to the memory, each fact once per origin and load
 * (a page of 200 responses writes an origin's pipelining verdict once, not 200 times).
 */
export class OriginLearner {
  private readonly written = new Map<string, Set<string>>();

  constructor(private readonly memory: OriginMemory) {}

  connected(o: OriginState, protocol: HttpProtocol, rttMs: number | undefined): void {
    this.once(o.origin, 'protocol', { protocol, ...(rttMs !== undefined ? { rttMs } : {}) });
  }

  /** An h2 connection's SETTINGS limited its streams to `maxConcurrentStreams`. */
  streamLimit(o: OriginState, maxConcurrentStreams: number): void {
    this.once(o.origin, 'streams', { maxConcurrentStreams });
  }

  pathSized(o: OriginState, connectionCap: number, rateBytesPerMs: number | undefined): void {
    if (rateBytesPerMs === undefined) return; // too short to tell: nothing worth remembering
    this.once(o.origin, 'path', { connectionCap, rateBytesPerMs: Number.isFinite(rateBytesPerMs) ? rateBytesPerMs : null });
  }

  /** A load that used this origin received `peakBytesPerMs` at most over a round trip, and whether it `held` that rate (peak-delivery.ts). */
  linkPeak(o: OriginState, peakBytesPerMs: number, held: boolean): void {
    this.once(o.origin, 'peak', { peakBytesPerMs, peakHeld: held });
  }

  /** The probe counted `proofs` clean pipelined responses, short of a verdict (written as they grow). */
  probeProgress(o: OriginState, proofs: number): void {
    if (proofs <= 0 || this.written.get(o.origin)?.has('pipelining')) return;
    this.memory.put({ origin: o.origin, pipeliningProofs: proofs });
  }

  pipelining(o: OriginState, verdict: 'good' | 'bad'): void {
    // A demotion always wins over an earlier `good` of the same load; the memory dates it.
    if (verdict === 'bad') {
      this.mark(o.origin, 'pipelining');
      this.memory.put({ origin: o.origin, pipelining: 'bad' });
      return;
    }
    this.once(o.origin, 'pipelining', { pipelining: 'good' });
  }

  private once(origin: string, key: string, facts: Omit<OriginFacts, 'origin' | 'lastSeen'>): void {
    if (!this.mark(origin, key)) return;
    this.memory.put({ origin, ...facts });
  }

  /** True the first time `key` is marked for `origin`. */
  private mark(origin: string, key: string): boolean {
    let keys = this.written.get(origin);
    if (!keys) {
      keys = new Set();
      this.written.set(origin, keys);
    }
    if (keys.has(key)) return false;
    keys.add(key);
    return true;
  }
}
