import { browserHandshakes } from './browser-handshakes';
import type { NavigationTiming, PageRecord, TimingEntry } from './page-record';

const T0 = 1_800_000_000_000;

function entry(name: string, o: Partial<TimingEntry>): TimingEntry {
  return {
    name, initiatorType: 'img', startTime: 10, fetchStart: 10, domainLookupStart: 10, domainLookupEnd: 10, connectStart: 10, secureConnectionStart: 0, connectEnd: 10,
    requestStart: 12, responseStart: 20, responseEnd: 25, transferSize: 500, encodedBodySize: 200, nextHopProtocol: 'http/1.1', restricted: false, ...o,
  };
}

function page(url: string, timings: TimingEntry[], nav: Partial<NavigationTiming> = {}): Pick<PageRecord, 'url' | 'timings' | 'navigation'> {
  return {
    url, timings,
    navigation: { timeOrigin: T0, responseStart: 60, domContentLoadedEventEnd: 80, loadEventEnd: 90, nextHopProtocol: 'http/1.1', fetchStart: 1, domainLookupStart: 2, domainLookupEnd: 7, connectStart: 7, secureConnectionStart: 0, connectEnd: 57, requestStart: 57, ...nav },
  };
}

describe('browserHandshakes', () => {
  test("the document's connection: DNS, TCP to connectEnd on http:, placed at the epoch of its DNS start", () => {
    expect(browserHandshakes(page('http://a.test/', []))).toEqual([{ origin: 'http://a.test', startedAt: T0 + 2, dnsMs: 5, tcpMs: 50, tlsMs: 0, totalMs: 55, protocol: 'http/1.1' }]);
  });

  test('https: TCP ends where TLS starts; TLS runs to connectEnd', () => {
    const t = entry('https://b.test/x.png', { domainLookupStart: 30, domainLookupEnd: 30, connectStart: 30, secureConnectionStart: 80, connectEnd: 181, nextHopProtocol: 'h2', requestStart: 181 });
    const [, b] = browserHandshakes(page('http://a.test/', [t]));
    expect(b).toEqual({ origin: 'https://b.test', startedAt: T0 + 30, dnsMs: 0, tcpMs: 50, tlsMs: 101, totalMs: 151, protocol: 'h2' });
  });

  test('reused connections, cached, restricted and HTTP/3 entries open no recorded connection', () => {
    const timings = [
      entry('http://a.test/reused.png', {}),
      entry('http://a.test/cached.png', { connectStart: 20, connectEnd: 30, transferSize: 0, encodedBodySize: 100 }),
      entry('https://c.test/hidden.png', { connectStart: 0, connectEnd: 0, requestStart: 0, responseStart: 0, restricted: true }),
      entry('https://d.test/quic.png', { connectStart: 20, secureConnectionStart: 20, connectEnd: 40, nextHopProtocol: 'h3' }),
    ];
    expect(browserHandshakes(page('http://a.test/', timings)).map((h) => h.origin)).toEqual(['http://a.test']);
  });

  test('six parallel HTTP/1.1 connects with the same times are six connections; one h2 session shown to several requests is one', () => {
    const h1 = Array.from({ length: 6 }, (_, i) => entry(`http://a.test/${i}.png`, { connectStart: 20, connectEnd: 21 }));
    const h2 = Array.from({ length: 3 }, (_, i) => entry(`https://e.test/${i}.png`, { connectStart: 20, secureConnectionStart: 21, connectEnd: 23, nextHopProtocol: 'h2' }));
    const origins = browserHandshakes(page('http://a.test/', [...h1, ...h2])).map((h) => h.origin);
    expect(origins.filter((o) => o === 'http://a.test')).toHaveLength(7);
    expect(origins.filter((o) => o === 'https://e.test')).toHaveLength(1);
  });

  test('a TCP phase of no length (Firefox stamps some connects\' end at their start) is a connection opened, marked unended', () => {
    const timings = [entry('http://a.test/unended.png', { domainLookupStart: 190, domainLookupEnd: 190, connectStart: 190, connectEnd: 190, requestStart: 240 }), entry('http://a.test/whole.png', { connectStart: 20, connectEnd: 70 })];
    const got = browserHandshakes(page('http://a.test/', timings));
    expect(got.map((h) => [h.tcpMs, h.connect])).toEqual([[50, undefined], [50, undefined], [0, 'unended']]);
  });

  test('an https: connect whose TLS start is not exposed, and a record without timeOrigin, give nothing', () => {
    const t = entry('https://b.test/x.png', { connectStart: 30, secureConnectionStart: 0, connectEnd: 90 });
    expect(browserHandshakes(page('http://a.test/', [t], { connectStart: 7, connectEnd: 7, domainLookupStart: 7, fetchStart: 7 }))).toEqual([]);
    expect(browserHandshakes({ ...page('http://a.test/', []), navigation: { responseStart: 1, domContentLoadedEventEnd: 2, loadEventEnd: 3, nextHopProtocol: 'http/1.1' } })).toEqual([]);
  });
});
