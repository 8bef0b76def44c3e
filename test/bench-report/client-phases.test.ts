import { clientPhases } from '../../bench/zoo/client-phases';
import { parseTcpdump } from '../../bench/zoo/tail-packets';

// A first visit as tcpdump prints it in the client's namespace: the document's connection and an
// image connection come up at 1.050, the document is asked for 16 ms later, its two segments arrive
// at 1.117 and 1.118, the first image is asked for 20 ms after the second; the last byte is at 1.300.
const D = '198.18.0.1.40000';
const I = '198.18.0.1.40002';
const S = '198.19.0.1.80';
const capture = [
  `1.020000 IP ${D} > ${S}: Flags [S], seq 100, win 14600, length 0`,
  `1.021000 IP ${I} > ${S}: Flags [S], seq 200, win 14600, length 0`,
  `1.050000 IP ${S} > ${D}: Flags [S.], seq 900, ack 101, win 14480, length 0`,
  `1.050500 IP ${S} > ${I}: Flags [S.], seq 700, ack 201, win 14480, length 0`,
  `1.066000 IP ${D} > ${S}: Flags [P.], seq 1:253, ack 1, win 15, length 252: HTTP: GET /p/index.html HTTP/1.1`,
  `1.117000 IP ${S} > ${D}: Flags [.], seq 1:1449, ack 253, win 16, length 1448: HTTP: HTTP/1.1 200 OK`,
  `1.118000 IP ${S} > ${D}: Flags [P.], seq 1449:1845, ack 253, win 16, length 396: HTTP`,
  `1.138000 IP ${I} > ${S}: Flags [P.], seq 1:221, ack 1, win 15, length 220: HTTP: GET /p/img/01.gif HTTP/1.1`,
  `1.145000 IP ${D} > ${S}: Flags [P.], seq 253:474, ack 1845, win 21, length 221: HTTP: HEAD /p/img/02.gif HTTP/1.1`,
  `1.300000 IP ${S} > ${I}: Flags [P.], seq 1:2816, ack 221, win 16, length 2815: HTTP`,
  `1.300100 IP ${I} > ${S}: Flags [.], ack 2816, win 22, length 0`,
].join('\n');

describe('the client\'s own waits in a first visit\'s capture', () => {
  test('start to SYN, connection up to the document request, document bytes to the first subresource request, last byte to the end', () => {
    const packets = parseTcpdump(capture);
    expect(packets.filter((p) => p.request).map((p) => p.request)).toEqual(['GET /p/index.html', 'GET /p/img/01.gif', 'HEAD /p/img/02.gif']);
    const phases = clientPhases(packets, '/p/index.html', '198.19.', { startedAt: 1_000, totalMs: 312 });
    expect(phases.startToSynMs).toBeCloseTo(20, 6);
    expect(phases.upToDocumentRequestMs).toBeCloseTo(16, 6);
    expect(phases.documentToSubresourceMs).toBeCloseTo(20, 6);
    expect(phases.lastByteToEndMs).toBeCloseTo(12, 6);
  });

  test('what the capture cannot show is null: no load span, no document request', () => {
    const packets = parseTcpdump(capture);
    expect(clientPhases(packets, '/p/index.html', '198.19.')).toMatchObject({ startToSynMs: null, lastByteToEndMs: null, upToDocumentRequestMs: 16 });
    expect(clientPhases(packets, '/other.html', '198.19.')).toEqual({ startToSynMs: null, upToDocumentRequestMs: null, documentToSubresourceMs: null, lastByteToEndMs: null });
  });
});
