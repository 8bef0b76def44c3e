import type { OriginFacts } from '../origins/origin-facts';
import { INITIAL_WINDOW_BYTES } from './path-estimate';

/**
 * Whether the client's own link has room for more than one window at a load's start, from what
 * its latest loads saw (the peaks origin memory keeps, peak-delivery.ts), before this load has
 * measured anything.
 *
 * Why: a document's origin that gets more connections as its TLS handshake starts has them up when
 * the document names its first burst, which one h2 connection would carry through one window
 * slow-starting from ten segments; opened when the burst is found, they would be a handshake late.
 * Where the link is the bottleneck the same cold windows share its queue with the connection that
 * carries the critical chain, and the sheet and font wait behind images the server would have sent
 * after them on one connection (bench/README.md, "Windows for the document's origin"). So they open
 * only where a recent load received `LINK_WINDOWS` initial windows or more in one round trip of
 * this path: three cold windows are then at most a quarter of what the link carries meanwhile.
 * Every origin of a load keeps that load's peak, so any origin tells of the link. A held peak
 * (`peakHeld`, the link's own rate) below it means the link, not the load, set the pace.
 *
 * Pure: no I/O.
 */

/** Initial windows a recent load must have received in one round trip. */
export const LINK_WINDOWS = 12;

/** How far back a load still tells of the link: a laptop changes networks within hours. */
export const LINK_RECENT_MS = 60 * 60 * 1000;

export function linkTakesWindows(recent: Iterable<OriginFacts>, rttMs: number): boolean {
  if (!(rttMs > 0)) return false;
  const need = (LINK_WINDOWS * INITIAL_WINDOW_BYTES) / rttMs;
  let most = 0;
  for (const f of recent) {
    const peak = f.peakBytesPerMs;
    if (peak === undefined) continue;
    if (f.peakHeld !== false && peak < need) return false;
    most = Math.max(most, peak);
  }
  return most >= need;
}
