import type { ClientHttp2Session } from 'node:http2';

/**
 * HTTP/2 receive windows (RFC 9113 §6.9): how much a server may send before it reads a
 * WINDOW_UPDATE from getlist.
 *
 * A server that reads the client's frames in order can be made to read them late. lighttpd
 * (1.4.69, h2.c `h2_send_refused_stream`) does not refuse a stream past its limit of 8 while its
 * SETTINGS are unacknowledged: it leaves that HEADERS frame unread until one of its streams ends,
 * and every frame the client sent after it waits too, the WINDOW_UPDATEs and the SETTINGS ACK
 * among them. A first burst of more than 8 requests then moves only as far as the windows the
 * client granted up front: when the connection's window runs out, or the 8 streams it is answering
 * are all larger than their window, no stream ends and nothing more is read
 * (test/zoo/zoo-stream-limit.test.ts bursts both at every zoo member that speaks HTTP/2).
 *
 * So the connection's window is granted once, large, as nghttp2's own clients do (h2load and
 * nghttp: 2^30 − 1). Streams start with the same large window in the client's first SETTINGS, for
 * the flight sent before the server's SETTINGS, and get `STREAM_WINDOW` back as soon as the
 * server's SETTINGS arrive: a server that reads in order takes it a round trip later, when it has
 * sent little more than its initial congestion window; one that reads late keeps the large window
 * until it has read the burst. From then on the streams' own windows are what the low-latency
 * pauser closes, one stream at a time (src/scheduler/low-latency-pauser.ts), so a window on the
 * connection as a whole would add nothing to it.
 */
export const H2_FIRST_WINDOW = 2 ** 30 - 1;

/** A stream's window once the server's SETTINGS arrived: undici's default. */
export const STREAM_WINDOW = 262_144;

/** undici `Client` options for the windows above (it sends them with its connection preface). */
export const H2_WINDOW_OPTIONS = { initialWindowSize: H2_FIRST_WINDOW, connectionWindowSize: H2_FIRST_WINDOW } as const;

/** Called on the server's first SETTINGS: new streams, and the open ones, go back to `STREAM_WINDOW`. */
export function narrowStreamWindow(session: ClientHttp2Session): void {
  try {
    session.settings({ initialWindowSize: STREAM_WINDOW });
  } catch {
    // A session closing as its SETTINGS arrived: its streams end with it.
  }
}
