import { traceEntries } from './connect-trace';
import { parseSynTrace } from './packet-trace';
import type { PageTiming } from './page-timing';

const CLIENT = '198.18.0.1';
const T0 = 1_800_000_000_000;

/** tcpdump `-tt -n` lines as it prints them on the link's TUN device (SYN-flagged packets). */
const DUMP = [
  `1800000000.010000 IP ${CLIENT}.40000 > 198.19.0.1.80: Flags [S], seq 1, win 64240, options [mss 1460], length 0`,
  `1800000000.060000 IP 198.19.0.1.80 > ${CLIENT}.40000: Flags [S.], seq 9, ack 2, win 65160, options [mss 1460], length 0`,
  `1800000000.100000 IP ${CLIENT}.40002 > 198.19.0.1.80: Flags [S], seq 1, win 64240, length 0`,
  `1800000000.101000 IP ${CLIENT}.40002 > 198.19.0.1.80: Flags [S], seq 1, win 64240, length 0`,
  `1800000000.150000 IP 198.19.0.1.80 > ${CLIENT}.40002: Flags [S.], seq 9, ack 2, win 65160, length 0`,
  `1800000000.200000 IP ${CLIENT}.40004 > 198.19.0.1.80: Flags [S], seq 1, win 64240, length 0`,
  `1800000000.250000 IP 198.19.0.1.80 > ${CLIENT}.40004: Flags [S.], seq 9, ack 2, win 65160, length 0`,
  'tcpdump: some chatter',
].join('\n');

function entry(name: string, fetchStart: number, connectStart: number, connectEnd: number, requestStart = connectEnd) {
  return {
    name, initiatorType: 'img', startTime: fetchStart, fetchStart, domainLookupStart: connectStart, domainLookupEnd: connectStart, connectStart, secureConnectionStart: 0, connectEnd,
    requestStart, responseStart: requestStart + 1, responseEnd: requestStart + 2, transferSize: 300, encodedBodySize: 100, nextHopProtocol: 'http/1.1',
  };
}

describe('the packet trace of the browser\'s connects', () => {
  test('one connection per client port: its first SYN and first SYN-ACK, on the wall clock in ms', () => {
    expect(parseSynTrace(DUMP, CLIENT)).toEqual([
      { port: 40000, synAt: T0 + 10, synAckAt: T0 + 60 },
      { port: 40002, synAt: T0 + 100, synAckAt: T0 + 150 },
      { port: 40004, synAt: T0 + 200, synAckAt: T0 + 250 },
    ]);
  });

  test('whole, joined, unended and unmatched connects, judged by when the SYN left', () => {
    // The page clock runs 0.5 ms behind the wall clock; entries are ms after timeOrigin.
    const timing: PageTiming = {
      timeOrigin: T0, clockOffsetMs: 0.5,
      nav: { ...entry('', 0, 9.5, 59.5), responseStart: 70, domContentLoadedEventEnd: 80, loadEventEnd: 90 } as unknown as PageTiming['nav'],
      resources: [
        entry('http://a.test/joined.png', 120, 129.5, 149.5),
        entry('http://a.test/unended.png', 190, 199.5, 199.5, 249),
        entry('http://a.test/nothing.png', 300, 310, 330),
        entry('http://a.test/reused.png', 300, 300, 300),
      ],
    };
    const traced = traceEntries('http://a.test/', timing, parseSynTrace(DUMP, CLIENT));
    expect(traced.map((t) => [t.name, t.verdict, t.port, t.handshakeMs])).toEqual([
      ['http://a.test/', 'whole', 40000, 50],
      ['http://a.test/joined.png', 'joined', 40002, 50],
      ['http://a.test/unended.png', 'unended', 40004, 50],
      ['http://a.test/nothing.png', 'unmatched', undefined, undefined],
    ]);
    expect(traced[1]?.synAfterConnectStartMs).toBe(-30);
    expect(traced[1]?.tcpMs).toBe(20);
  });
});
