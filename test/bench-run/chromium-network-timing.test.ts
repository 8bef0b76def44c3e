import { chromiumNetworkTiming, ignoredUrl, inFlight, type CdpNetworkEvents } from '../../bench/run/chromium-network-timing';
import { chromiumTiming } from '../../bench/run/chromium-timing';

// CDP monotonic clock in seconds; navigation starts at t0.
const t0 = 1000;
const at = (ms: number): number => t0 + ms / 1000;
const rt = (sentMs: number, headersMs: number) => ({ requestTime: at(sentMs + 5), receiveHeadersEnd: headersMs - sentMs - 5 });

/** Document, a stylesheet from another origin, and a font that stylesheet asks for (no Resource Timing entry). */
const events: CdpNetworkEvents = {
  sent: [
    { requestId: 'D', url: 'http://www.example.test/', timestamp: at(0), wallTime: 1.7e9, type: 'Document' },
    { requestId: 'fav', url: 'http://www.example.test/favicon.ico', timestamp: at(10), type: 'Other' },
    { requestId: 'css', url: 'http://cdn.example.test/s.css', timestamp: at(170), type: 'Stylesheet' },
    { requestId: 'img', url: 'http://www.example.test/a.png', timestamp: at(170), type: 'Image' },
    { requestId: 'inline', url: 'data:image/png;base64,AAAA', timestamp: at(175), type: 'Image' },
    { requestId: 'font', url: 'http://fonts.example.test/f.woff2', timestamp: at(360), type: 'Font' },
  ],
  responses: [
    { requestId: 'D', protocol: 'http/1.1', timing: rt(0, 150) },
    { requestId: 'fav', protocol: 'http/1.1', timing: rt(10, 900) },
    { requestId: 'css', protocol: 'h2', timing: rt(170, 330) },
    { requestId: 'img', protocol: 'http/1.1', timing: rt(170, 250) },
    { requestId: 'inline', protocol: 'data' },
    { requestId: 'font', protocol: 'h2', timing: rt(360, 480) },
  ],
  ended: [
    { requestId: 'D', timestamp: at(160) },
    { requestId: 'img', timestamp: at(400) },
    { requestId: 'css', timestamp: at(350) },
    { requestId: 'inline', timestamp: at(176) },
    { requestId: 'font', timestamp: at(550) },
    { requestId: 'fav', timestamp: at(2000) },
  ],
};

describe('Chromium timing from CDP network events', () => {
  test('page complete is document requestWillBeSent → the latest loadingFinished; TTFB is over subresources', () => {
    const t = chromiumNetworkTiming(events);
    expect(t).toBeDefined();
    expect(t?.totalMs).toBeCloseTo(550, 6);
    // css 160, img 80, font 120; the document (150) and the favicon are left out.
    expect(t?.meanTtfbMs).toBeCloseTo((160 + 80 + 120) / 3, 6);
    expect(t).toMatchObject({ requests: 4, failed: 0, unfinished: 0, protocols: ['h2', 'http/1.1'] });
    expect(t?.urls).toEqual(['http://www.example.test/', 'http://cdn.example.test/s.css', 'http://www.example.test/a.png', 'http://fonts.example.test/f.woff2']);
  });

  test('a late request with no Resource Timing entry: the CDP measure is the max, Resource Timing understates it', () => {
    const nav = { name: 'http://www.example.test/', startTime: 0, responseStart: 150, responseEnd: 160, nextHopProtocol: 'http/1.1' };
    // Resource Timing has the stylesheet and the image but not the font the stylesheet asked for.
    const entries = [
      { name: 'http://cdn.example.test/s.css', startTime: 170, responseStart: 330, responseEnd: 350, nextHopProtocol: 'h2' },
      { name: 'http://www.example.test/a.png', startTime: 170, responseStart: 250, responseEnd: 400, nextHopProtocol: 'http/1.1' },
    ];
    const byEntries = chromiumTiming(nav, entries);
    const byCdp = chromiumNetworkTiming(events);
    expect(byEntries?.totalMs).toBe(400);
    expect(byCdp?.totalMs).toBeCloseTo(550, 6);
    expect(byCdp!.totalMs).toBeGreaterThan(byEntries!.totalMs);
    // Without the font, the two agree.
    const noFont: CdpNetworkEvents = {
      sent: events.sent.filter((s) => s.requestId !== 'font'),
      responses: events.responses.filter((r) => r.requestId !== 'font'),
      ended: events.ended.filter((e) => e.requestId !== 'font'),
    };
    expect(chromiumNetworkTiming(noFont)?.totalMs).toBeCloseTo(byEntries!.totalMs, 6);
  });

  test('failed and unfinished requests are counted; only loadingFinished sets page complete', () => {
    const ev: CdpNetworkEvents = {
      sent: [...events.sent, { requestId: 'bad', url: 'http://x.example.test/gone.js', timestamp: at(200) }, { requestId: 'open', url: 'http://x.example.test/slow', timestamp: at(210) }],
      responses: events.responses,
      ended: [...events.ended, { requestId: 'bad', timestamp: at(900), failed: true }],
    };
    expect(chromiumNetworkTiming(ev)).toMatchObject({ requests: 6, failed: 1, unfinished: 1 });
    expect(chromiumNetworkTiming(ev)?.totalMs).toBeCloseTo(550, 6);
    expect(inFlight(ev)).toBe(1);
    expect(inFlight(events)).toBe(0);
  });

  test('a redirect keeps the first requestWillBeSent of its id', () => {
    const ev: CdpNetworkEvents = {
      sent: [...events.sent.filter((s) => s.requestId !== 'D'),
        { requestId: 'D', url: 'http://www.example.test/old', timestamp: at(0), type: 'Document' },
        { requestId: 'D', url: 'http://www.example.test/', timestamp: at(80), type: 'Document' }],
      responses: events.responses,
      ended: events.ended,
    };
    expect(chromiumNetworkTiming(ev)?.totalMs).toBeCloseTo(550, 6);
  });

  test('no document, or a document that never finished, gives undefined', () => {
    expect(chromiumNetworkTiming({ sent: [], responses: [], ended: [] })).toBeUndefined();
    expect(chromiumNetworkTiming({ ...events, ended: events.ended.filter((e) => e.requestId !== 'D') })).toBeUndefined();
  });

  test('favicon and data: URLs are not page requests', () => {
    expect(ignoredUrl('http://a.test/favicon.ico')).toBe(true);
    expect(ignoredUrl('data:text/plain,x')).toBe(true);
    expect(ignoredUrl('http://a.test/img/favicon.ico.png')).toBe(false);
    expect(ignoredUrl('https://a.test/')).toBe(false);
  });
});
