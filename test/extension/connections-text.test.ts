import { connectionsBound, connectionsHint, connectionsText } from '../../extension/popup/connections-text';
import { connectionCounts, type ConnectionCounts, type OriginConnections } from '../../src/page/model/connection-count';
import type { TimingEntry } from '../../src/page/model/page-record';

const ORIGIN = 'http://127.0.0.1:8080';

/** [fetchStart, connectStart, connectEnd, requestStart, responseEnd] of an HTTP/1.1 image. */
function entry(i: number, [fs, cs, ce, rq, re]: readonly [number, number, number, number, number]): TimingEntry {
  return {
    name: `${ORIGIN}/img/${i}.png`, initiatorType: 'img', startTime: fs, fetchStart: fs, domainLookupStart: cs, domainLookupEnd: cs, connectStart: cs, secureConnectionStart: 0,
    connectEnd: ce, requestStart: rq, responseStart: re - 1, responseEnd: re, transferSize: 800, encodedBodySize: 500, nextHopProtocol: 'http/1.1', restricted: false,
  };
}

const origin = (over: Partial<OriginConnections>): OriginConnections => ({ origin: ORIGIN, protocol: 'http/1.1', connections: 3, connectionsMin: 3, opened: 3, requests: 9, inFlight: 1, unsent: 0, source: 'connect-phase', ...over });
const counts = (byOrigin: OriginConnections[], over: Partial<ConnectionCounts> = {}): ConnectionCounts => {
  const sum = (f: (o: OriginConnections) => number) => byOrigin.reduce((a, o) => a + f(o), 0);
  const connections = sum((o) => o.connections);
  const requests = sum((o) => o.requests);
  return { connections, connectionsMin: sum((o) => o.connectionsMin), opened: sum((o) => o.opened), usedAtLeast: sum((o) => o.inFlight ?? 1), unsent: sum((o) => o.unsent), requests, reused: requests - connections, requestsPerConnection: requests / connections, cached: 0, notExposed: 0, byOrigin, ...over };
};

describe('the popup\'s connections line', () => {
  test('Chromium HTTP/1.1 with preconnected sockets: requests in flight at once, shown as a lower bound with its source', () => {
    // Six requests in flight at once, two of them on sockets with no connect phase (preconnected).
    const timings = [
      entry(0, [10, 10, 10, 12, 40]), entry(1, [10, 10, 10, 12, 41]),
      ...[2, 3, 4, 5].map((i) => entry(i, [10, 11, 11.5, 13, 42])),
      ...[6, 7, 8].map((i) => entry(i, [10, 10, 10, 45, 60])),
    ];
    const c = connectionCounts({ url: `${ORIGIN}/`, timings });
    expect(c.byOrigin.map((o) => [o.source, o.connections, o.opened])).toEqual([['overlap', 6, 4]]);
    expect(connectionsBound(c)).toBe('lower');
    expect(connectionsText(c)).toBe('≥ 6 used (requests in flight at once) · 9 requests (≤ 1.5 per connection) · 4 opened with a visible connect');
    expect(connectionsHint(c)).toBe(`${ORIGIN} http/1.1: ≥ 6 for 9 requests — HTTP/1.x requests in flight at once (one per connection), Resource Timing requestStart…responseEnd`);
  });

  test('connect phases and HTTP/2 give one figure; ambiguous connect phases a range; never "≥"', () => {
    const exact = counts([origin({}), origin({ origin: 'https://b.test', protocol: 'h2', connections: 1, connectionsMin: 1, opened: 1, requests: 4, source: 'per-origin' })]);
    expect(connectionsBound(exact)).toBe('exact');
    expect(connectionsText(exact)).toBe('4 used · 13 requests (3.3 per connection) · 4 opened with a visible connect');
    const range = counts([origin({ connections: 6, connectionsMin: 2, opened: 6, requests: 10 })], { cached: 2, notExposed: 1 });
    expect(connectionsBound(range)).toBe('exact');
    expect(connectionsText(range)).toBe('2–6 used · 10 requests (1.7–5.0 per connection) · 6 opened with a visible connect · 2 from cache · 1 not exposed');
    expect(connectionsHint(range)).not.toContain('≥');
  });

  test('no request exposes its send time: "used" is not exposed, never a number; hidden send times are counted', () => {
    const unsent = [0, 1, 2].map((i) => ({ ...entry(i, [10, 10, 10, 0, 40]) }));
    const none = connectionCounts({ url: `${ORIGIN}/`, timings: unsent });
    expect(connectionsBound(none)).toBe('not-exposed');
    expect(connectionsText(none)).toBe('used not exposed (no request’s send time, requestStart, exposed) · 3 requests · 0 opened with a visible connect');
    expect(connectionsHint(none)).toContain('not exposed for 3 requests');
    const some = connectionCounts({ url: `${ORIGIN}/`, timings: [...unsent, entry(3, [10, 10, 10, 12, 40]), entry(4, [10, 10, 10, 12, 41])] });
    expect(connectionsText(some)).toBe('≥ 2 used (requests in flight at once) · 5 requests (≤ 2.5 per connection) · 0 opened with a visible connect · 3 send times not exposed');
  });

  test('one origin counted by overlap makes the page\'s total a lower bound: at least the sum of the fewest each origin allows', () => {
    const mixed = counts([origin({ connections: 6, connectionsMin: 6, opened: 2, requests: 20, source: 'overlap' }), origin({ origin: 'http://c.test', connections: 3, connectionsMin: 2, opened: 3, requests: 5 })]);
    expect(connectionsBound(mixed)).toBe('lower');
    expect(connectionsText(mixed)).toMatch(/^≥ 8 used \(requests in flight at once\) · 25 requests \(≤ 3\.1 per connection\) · /);
  });
});
