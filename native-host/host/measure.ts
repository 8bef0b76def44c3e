import type { MeasureFailure } from '../../src/protocol';
import { errorCodeOf } from '../../src/scheduler';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { roundHandshake } from '../../src/run';
import type { AddressCheck } from '../transport/connection-gate';
import type { TimingConnector } from '../transport/timing-connector';
import type { WarmConnections } from './warm-connections';

export interface MeasureOptions {
  connector: TimingConnector;
  warm: WarmConnections;
  nextConnectionId: () => number;
  signal: AbortSignal;
  /** Origins connected to at once. @default 8 */
  concurrency?: number;
  /** Refuses connections to some addresses (private-network.ts). */
  addressCheck?: AddressCheck;
}

export interface Measurement {
  /** In the order of `origins`. */
  handshakes: HandshakeRecord[];
  warm: string[];
  failed: MeasureFailure[];
}

/**
 * Measures the handshake to each origin the host holds no warm connection to: one connection per
 * origin, nothing sent on it. The connections are then kept warm, so the next page on the same
 * origin reports it `warm`, just as a browser would reuse its connection.
 */
export async function measureOrigins(origins: readonly string[], options: MeasureOptions): Promise<Measurement> {
  const cold: string[] = [];
  const warm: string[] = [];
  for (const o of origins) (options.warm.has(o) ? warm : cold).push(o);
  const outcomes = new Map<string, HandshakeRecord | MeasureFailure>();
  let next = 0;
  const worker = async () => {
    while (next < cold.length && !options.signal.aborted) {
      const origin = cold[next++] as string;
      try {
        const { socket, handshake } = await options.connector.open(origin, options.nextConnectionId(), options.signal, options.addressCheck);
        if (options.signal.aborted) socket.destroy();
        else options.warm.add(origin, socket);
        outcomes.set(origin, roundHandshake(handshake));
      } catch (err) {
        outcomes.set(origin, { origin, code: errorCodeOf(err) ?? 'E_CONNECT_FAILED', message: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, cold.length) }, worker));
  const handshakes: HandshakeRecord[] = [];
  const failed: MeasureFailure[] = [];
  for (const o of cold) {
    const r = outcomes.get(o);
    if (r && 'totalMs' in r) handshakes.push(r);
    else if (r) failed.push(r);
  }
  return { handshakes, warm, failed };
}

/** Distinct origins of a page, the document's first, then in order of first appearance. */
export function originsOf(documentUrl: string, urls: Iterable<string>): string[] {
  const seen = new Set<string>([new URL(documentUrl).origin]);
  for (const u of urls) seen.add(new URL(u).origin);
  return [...seen];
}
