/**
 * The popup's "Connections (browser)" line from the page's connection counts (no DOM, so the
 * wording is unit-tested). Where an origin's count is its HTTP/1.x requests in flight at once
 * (`overlap`: what Chromium exposes when it hands a request a socket it had preconnected), the
 * page may have used more connections than that: the figure is shown as a lower bound, `≥ N`,
 * with its source; elsewhere as the one figure (or range) the signals give. Where no request's
 * send time is exposed, "used" is said to be not exposed: no figure is shown for it.
 */
import type { ConnectionCounts, ConnectionSource } from '../../src/page/model/connection-count';

export const SOURCE_TEXT: Record<ConnectionSource, string> = {
  'connect-phase': 'Resource Timing connect phases (a phase shown = a connection opened)',
  overlap: 'HTTP/1.x requests in flight at once (one per connection), Resource Timing requestStart…responseEnd',
  'per-origin': 'HTTP/2–3: one connection per origin; coalescing of origins is not exposed',
};

/**
 * `lower`: at least one origin's count is requests in flight at once, so the total is at least the
 * figure shown; `not-exposed`: no request exposed when it went on a connection, so there is no figure.
 */
export type ConnectionsBound = 'exact' | 'lower' | 'not-exposed';

export function connectionsBound(c: Pick<ConnectionCounts, 'byOrigin' | 'usedAtLeast'>): ConnectionsBound {
  if (c.usedAtLeast === undefined) return 'not-exposed';
  return c.byOrigin.some((o) => o.source === 'overlap') ? 'lower' : 'exact';
}

/** The line's text for a page with exposed requests (`c.requests > 0`). */
export function connectionsText(c: ConnectionCounts): string {
  const perConnection = (n: number) => (c.requests / n).toFixed(1);
  const bound = connectionsBound(c);
  const used = bound === 'not-exposed'
    ? ['used not exposed (no request’s send time, requestStart, exposed)', `${c.requests} requests`]
    : bound === 'lower'
    ? [`≥ ${c.connectionsMin} used (requests in flight at once)`, `${c.requests} requests (≤ ${perConnection(c.connectionsMin)} per connection)`]
    // A range where the browser's signals allow more than one answer (connection-count.ts).
    : c.connectionsMin < c.connections
      ? [`${c.connectionsMin}–${c.connections} used`, `${c.requests} requests (${perConnection(c.connections)}–${perConnection(c.connectionsMin)} per connection)`]
      : [`${c.connections} used`, `${c.requests} requests (${(c.requestsPerConnection ?? 0).toFixed(1)} per connection)`];
  return [
    ...used,
    `${c.opened} opened with a visible connect`,
    c.unsent && bound !== 'not-exposed' ? `${c.unsent} send times not exposed` : '',
    c.cached ? `${c.cached} from cache` : '',
    c.notExposed ? `${c.notExposed} not exposed` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The line's tooltip: each origin's count and where it came from. */
export function connectionsHint(c: Pick<ConnectionCounts, 'byOrigin'>): string {
  return c.byOrigin
    .map((o) => o.inFlight === undefined
      ? `${o.origin} ${o.protocol || '?'}: not exposed for ${o.requests} requests — no send time (requestStart) exposed`
      : `${o.origin} ${o.protocol || '?'}: ${o.source === 'overlap' ? '≥ ' : ''}${o.connections} for ${o.requests} requests — ${SOURCE_TEXT[o.source]}`)
    .join('\n');
}
