import { chromiumTrace, getlistTrace } from '../../bench/run/load-trace';

describe('load traces', () => {
  it('getlist: first byte counts from discovery (ttfbMs is from discovery, not from the send); connections from the run start', () => {
    const t = getlistTrace({
      startedAt: 1_000_000,
      requests: [
        { url: 'http://a.test/', connectionId: 1, discoveredMs: 0, sentMs: 101, ttfbMs: 201, doneMs: 305 },
        { url: 'http://a.test/x.css', connectionId: 2, discoveredMs: 220, sentMs: 330, ttfbMs: 210, doneMs: 460 },
        { url: 'http://b.test/lost', connectionId: null, discoveredMs: 300, sentMs: null, ttfbMs: null, doneMs: 300 },
      ],
      handshakes: [{ connectionId: 2, origin: 'http://a.test', startedAt: 1_000_005, totalMs: 100.04, protocol: 'http/1.1' }],
    });
    expect(t.requests.map((r) => [r.sentMs, r.firstByteMs, r.doneMs, r.connection])).toEqual([[101, 201, 305, 1], [330, 430, 460, 2], [null, null, 300, null]]);
    expect(t.connections).toEqual([{ id: 2, origin: 'http://a.test', startMs: 5, readyMs: 105, protocol: 'http/1.1' }]);
  });

  it('getlist: each connection keeps its handshake\'s phases, so the time outside them (waiting for the loop, the hand-over) shows', () => {
    const t = getlistTrace({
      startedAt: 0,
      requests: [],
      handshakes: [{ connectionId: 3, origin: 'https://f.test', startedAt: 334, totalMs: 247.46, dnsMs: 1.64, tcpMs: 101.04, tlsMs: 104.2, loopDelayMs: 23.06, protocol: 'h2' }],
    });
    expect(t.connections).toEqual([{ id: 3, origin: 'https://f.test', startMs: 334, readyMs: 581.5, protocol: 'h2', phases: { dnsMs: 1.6, tcpMs: 101, tlsMs: 104.2, loopDelayMs: 23.1 } }]);
  });

  it('chromium: phases from response.timing, times from the document\'s requestWillBeSent, a connection listed once by the response that opened it', () => {
    const t = chromiumTrace({
      sent: [
        { requestId: '1', url: 'https://a.test/', timestamp: 10, type: 'Document' },
        { requestId: '1', url: 'https://a.test/', timestamp: 10.5 }, // a redirect re-sends under the same id
        { requestId: '2', url: 'https://a.test/s.css', timestamp: 10.3 },
        { requestId: '3', url: 'https://a.test/favicon.ico', timestamp: 10.4 },
      ],
      responses: [
        { requestId: '1', connectionId: 7, protocol: 'h2', timing: { requestTime: 10.001, connectStart: 1, connectEnd: 200, sendStart: 201, receiveHeadersEnd: 302 } },
        { requestId: '2', connectionId: 7, protocol: 'h2', timing: { requestTime: 10.31, connectStart: -1, connectEnd: -1, sendStart: 2, receiveHeadersEnd: 104 } },
      ],
      ended: [{ requestId: '1', timestamp: 10.4 }, { requestId: '2', timestamp: 10.45 }],
    });
    expect(t.requests).toEqual([
      { url: 'https://a.test/', connection: 7, discoveredMs: 0, sentMs: 202, firstByteMs: 303, doneMs: 400 },
      { url: 'https://a.test/s.css', connection: 7, discoveredMs: 300, sentMs: 312, firstByteMs: 414, doneMs: 450 },
    ]);
    expect(t.connections).toEqual([{ id: 7, origin: 'https://a.test', startMs: 2, readyMs: 201, protocol: 'h2' }]);
  });
});
