import { handshakeWaits, handshakeWire } from './handshake-wire';
import { parseTcpdump } from './tail-packets';

// `tcpdump -n -tt -r` lines in the form the link's client side gives (options and sequence numbers
// cut), for one TLS connection at 100 ms whose client answered the server's flight late, plus a
// plain-http connection and a packet of a connection whose SYN was not captured.
const LINES = [
  '1000.000000 IP 198.18.0.1.40000 > 198.19.0.2.443: Flags [S], win 14600, length 0',
  '1000.001000 IP 198.18.0.1.40100 > 198.19.0.5.80: Flags [S], win 14600, length 0',
  '1000.100500 IP 198.19.0.2.443 > 198.18.0.1.40000: Flags [S.], win 14480, length 0',
  '1000.100550 IP 198.18.0.1.40000 > 198.19.0.2.443: Flags [.], win 15, length 0',
  '1000.104100 IP 198.18.0.1.40000 > 198.19.0.2.443: Flags [P.], win 15, length 394',
  '1000.150000 IP 198.18.0.1.49999 > 198.19.0.2.443: Flags [P.], win 15, length 120',
  '1000.204900 IP 198.19.0.2.443 > 198.18.0.1.40000: Flags [.], win 16, length 0',
  '1000.205200 IP 198.19.0.2.443 > 198.18.0.1.40000: Flags [P.], win 16, length 980',
  '1000.205250 IP 198.18.0.1.40000 > 198.19.0.2.443: Flags [.], win 18, length 0',
  '1000.243400 IP 198.18.0.1.40000 > 198.19.0.2.443: Flags [P.], win 18, length 80',
  '1000.272300 IP 198.18.0.1.40000 > 198.19.0.2.443: Flags [P.], win 18, length 176',
  '1000.306000 IP 198.19.0.2.443 > 198.18.0.1.40000: Flags [P.], win 16, length 303',
  '1000.372400 IP 198.18.0.1.40000 > 198.19.0.2.443: Flags [P.], win 19, length 40',
];

describe('handshake-wire', () => {
  test('reads each TLS connection\'s SYN, ClientHello, server flight, Finished and first request; leaves out plain http and connections begun before the capture', () => {
    const hs = handshakeWire(parseTcpdump(LINES.join('\n')));
    expect(hs).toHaveLength(1);
    const [h] = hs;
    expect(h?.port).toBe(40000);
    expect(h?.server).toBe('198.19.0.2');
    expect(h?.synMs).toBe(0);
    expect(h?.synAckMs).toBeCloseTo(100.5, 3);
    expect(h?.clientHelloMs).toBeCloseTo(104.1, 3);
    expect(h?.serverFlightMs).toBeCloseTo(205.2, 3);
    expect(h?.finishedMs).toBeCloseTo(243.4, 3);
    expect(h?.requestMs).toBeCloseTo(272.3, 3);
  });

  test('the waits: the client\'s start of TLS, the server and link beyond the round trip, the client\'s answer and its first request', () => {
    const [h] = handshakeWire(parseTcpdump(LINES.join('\n')));
    expect(handshakeWaits(h!, 100)).toEqual({ clientHelloAfterConnect: 3.6, serverBeyondRtt: 1.1, finishedAfterFlight: 38.2, requestAfterFinished: 28.9 });
  });

  test('a handshake the capture ended inside has no waits for what it lacks', () => {
    const [h] = handshakeWire(parseTcpdump(LINES.slice(0, 8).join('\n')));
    expect(handshakeWaits(h!, 100)).toEqual({ clientHelloAfterConnect: 3.6, serverBeyondRtt: 1.1, finishedAfterFlight: undefined, requestAfterFinished: undefined });
  });
});
