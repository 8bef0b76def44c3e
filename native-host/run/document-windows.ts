import type { OriginMemory } from '../../src/origins/origin-memory';
import type { OriginFacts } from '../../src/origins/origin-facts';
import { LINK_RECENT_MS, linkTakesWindows } from '../../src/scheduler/link-rate';
import type { Scheduler, Strategy } from '../../src/scheduler';

/**
 * Windows for a first visit's document origin (`http2.connectionsForDocument`), decided as the
 * document's TLS handshake starts: the TCP handshake has just said how far the origin is, and the
 * windows opened then are up when the document names its first burst. Only on a far path (two of
 * its round trips `http2.demandMinHandshakeMs` or more), to an https origin not known to speak
 * HTTP/1.1, where the client's link took a dozen windows in a round trip on its latest loads
 * (src/scheduler/link-rate.ts), and not when a learned list opens the page's connections (its own
 * windows are sized to the list, list-windows.ts).
 */
export class DocumentWindows {
  private armed: { scheduler: Scheduler; origin: string; connections: number; demandMinHandshakeMs: number; recent: OriginFacts[] } | undefined;

  /** At the load's start: whether this load may open them, and what the link showed (read once). */
  arm(scheduler: Scheduler, url: string, memory: OriginMemory | undefined, strategy: Strategy, learnedPlan: boolean): void {
    const h2 = strategy.http2;
    const origin = new URL(url).origin;
    // `--h2-connections` (connectionsForDemand) caps these as it caps every other h2 window.
    const connections = h2 ? Math.min(h2.connectionsForDocument, h2.connectionsForDemand) : 1;
    if (learnedPlan || !h2 || connections <= 1 || !origin.startsWith('https:') || !memory?.recentFacts) return;
    if (memory.get(origin)?.protocol === 'http/1.1') return;
    const recent = memory.recentFacts(LINK_RECENT_MS);
    if (recent.length === 0) return;
    this.armed = { scheduler, origin, connections, demandMinHandshakeMs: h2.demandMinHandshakeMs, recent };
  }

  /** A connection's TLS handshake started after a TCP handshake of `rttMs` (timing-connector.ts `onTlsStart`). */
  tlsStarted(origin: string, rttMs: number): void {
    const a = this.armed;
    if (!a || origin !== a.origin) return;
    this.armed = undefined;
    if (2 * rttMs < a.demandMinHandshakeMs || !linkTakesWindows(a.recent, rttMs)) return;
    a.scheduler.documentWindows(origin, a.connections);
  }
}
