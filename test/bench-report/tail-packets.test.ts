import { heldSegments, parseTcpdump } from '../../bench/zoo/tail-packets';

// One pipelined burst's tail as tcpdump prints it on each side of a 50 ms link: the server sends a
// full segment and a partial one, holds the last partial segment until the client's ACK of the
// earlier partial arrives, and the client sent that ACK 40 ms after the data it acknowledged.
const C = '198.18.0.1.40000';
const S = '198.19.0.1.80';
const server = [
  `1.000000 IP ${C} > ${S}: Flags [P.], seq 1:301, ack 1, win 502, length 300: HTTP: GET /a HTTP/1.1`,
  `1.001000 IP ${S} > ${C}: Flags [.], seq 1:1449, ack 301, win 509, length 1448: HTTP`,
  `1.001100 IP ${S} > ${C}: Flags [P.], seq 1449:1700, ack 301, win 509, length 251: HTTP`,
  `1.091000 IP ${C} > ${S}: Flags [.], ack 1700, win 502, length 0`,
  `1.091100 IP ${S} > ${C}: Flags [P.], seq 1700:2800, ack 301, win 509, length 1100: HTTP`,
  `1.200000 IP ${C} > ${S}: Flags [P.], seq 301:601, ack 2800, win 502, length 300: HTTP: GET /b HTTP/1.1`,
  `1.230000 IP ${S} > ${C}: Flags [P.], seq 2800:3100, ack 601, win 509, length 300: HTTP`,
].join('\n');
const client = [
  `0.975000 IP ${C} > ${S}: Flags [P.], seq 1:301, ack 1, win 502, length 300: HTTP: GET /a HTTP/1.1`,
  `1.026000 IP ${S} > ${C}: Flags [.], seq 1:1449, ack 301, win 509, length 1448: HTTP`,
  `1.026100 IP ${S} > ${C}: Flags [P.], seq 1449:1700, ack 301, win 509, length 251: HTTP`,
  `1.066100 IP ${C} > ${S}: Flags [.], ack 1700, win 502, length 0`,
  `1.116100 IP ${S} > ${C}: Flags [P.], seq 1700:2800, ack 301, win 509, length 1100: HTTP`,
  `1.175000 IP ${C} > ${S}: Flags [P.], seq 301:601, ack 2800, win 502, length 300: HTTP: GET /b HTTP/1.1`,
  `1.255000 IP ${S} > ${C}: Flags [P.], seq 2800:3100, ack 601, win 509, length 300: HTTP`,
  'tcpdump: some line that is not a packet',
].join('\n');

describe('held server segments in a two-sided capture', () => {
  test('tcpdump lines parse into sequence ranges, acks and lengths; other lines are skipped', () => {
    const packets = parseTcpdump(client);
    expect(packets).toHaveLength(7);
    expect(packets[1]).toEqual({ t: 1.026, src: S, dst: C, flags: '.', seq: 1, end: 1449, ack: 301, len: 1448 });
    expect(packets[3]).toMatchObject({ seq: null, ack: 1700, len: 0 });
  });

  test('a segment sent on the client ACK that arrived just before it is held; a response to a new request is not', () => {
    const held = heldSegments(parseTcpdump(server), parseTcpdump(client), '198.19.');
    expect(held).toHaveLength(1);
    const [h] = held;
    expect(h?.connection).toBe(C);
    expect(h?.connectionOrder).toBe(1);
    expect(h?.atMs).toBeCloseTo(91.1, 3);
    expect(h?.holdMs).toBeCloseTo(90, 3);
    expect(h?.len).toBe(1100);
    expect(h?.unackedBefore).toBe(0);
    expect(h?.releasedBy).toMatchObject({ len: 0, ack: 1700 });
    expect(h?.releasedBy?.leadMs).toBeCloseTo(0.1, 3);
    expect(h?.clientAckDelayMs).toBeCloseTo(40, 3);
    expect(h?.clientGapMs).toBeCloseTo(90, 3);
  });

  test('a gap the client did not end is reported without a release', () => {
    const lines = server.split('\n').filter((l) => !l.includes('ack 1700, win 502, length 0'));
    const held = heldSegments(parseTcpdump(lines.join('\n')), parseTcpdump(client), '198.19.');
    expect(held).toHaveLength(1);
    expect(held[0]?.releasedBy).toBeNull();
    expect(held[0]?.unackedBefore).toBe(1699);
  });
});
