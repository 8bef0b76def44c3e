import type http2 from 'node:http2';
import { H2_FIRST_WINDOW, STREAM_WINDOW } from '../../native-host/transport/h2-flow-windows';
import { strategy } from '../../src/scheduler';
import { bodyFor } from '../support/raw-http-server';
import { runList } from '../support/run-list';
import { testCert } from '../support/tls-cert';
import { startHttp2Server } from '../support/tls-servers';

/**
 * The HTTP/2 receive windows getlist grants (native-host/transport/h2-flow-windows.ts), read off
 * the server's own session: the client's SETTINGS in the order they arrived and, as each request
 * arrives, how much the server may send on the connection and what window a stream starts with.
 */
const BODY_BYTES = 1_000;

interface Seen {
  path: string;
  /**
   * As the request arrives: what the server may send on the connection, and the window the client's
   * SETTINGS give a stream.
   */
  connectionWindow: number;
  streamWindow: number;
}

async function load(paths: string[][]) {
  const seen: Seen[] = [];
  const settings: (number | undefined)[] = [];
  const server = await startHttp2Server((req, res) => {
    const stream = (req as http2.Http2ServerRequest).stream;
    seen.push({ path: req.url ?? '/', connectionWindow: stream.session?.state.remoteWindowSize ?? -1, streamWindow: stream.session?.remoteSettings.initialWindowSize ?? -1 });
    res.setHeader('content-type', 'application/octet-stream');
    res.end(bodyFor(req.url ?? '/', BODY_BYTES));
  });
  server.server.on('session', (s: http2.ServerHttp2Session) => s.on('remoteSettings', (r) => settings.push(r.initialWindowSize)));
  try {
    const [first, ...later] = paths.map((batch) => batch.map((p) => ({ url: `https://localhost:${server.port}${p}` })));
    const run = await runList(strategy('getlist'), first ?? [], { ca: testCert().cert }, later);
    return { run, seen, settings, sessions: server.sessions() };
  } finally {
    await server.close();
  }
}

describe('HTTP/2 receive windows, seen by the server', () => {
  test("the first flight grants the large window on the connection and on each stream; the server's SETTINGS bring streams back to the narrow one", async () => {
    const burst = Array.from({ length: 20 }, (_, i) => `/b${i}`);
    const { run, seen, settings, sessions } = await load([burst, ['/after']]);
    expect(run.results.map((r) => [r.status, r.error?.code])).toEqual([...burst, '/after'].map(() => [200, undefined]));
    expect(sessions).toBe(1);
    // The connection's WINDOW_UPDATE went out before the first request, in the preface's flight.
    const firstSeen = seen[0] as Seen;
    expect(firstSeen.connectionWindow).toBe(H2_FIRST_WINDOW);
    expect(firstSeen.streamWindow).toBe(H2_FIRST_WINDOW);
    // The client's SETTINGS: the preface's large stream window, then the narrow one.
    expect(settings[0]).toBe(H2_FIRST_WINDOW);
    expect(settings.at(-1)).toBe(STREAM_WINDOW);
    // A request sent once the SETTINGS were exchanged gets the narrow window; the connection's stays
    // large, less at most the bodies already sent on it (the client has no reason to top it up yet).
    const after = seen.find((s) => s.path === '/after') as Seen;
    expect(after.streamWindow).toBe(STREAM_WINDOW);
    expect(after.connectionWindow).toBeGreaterThanOrEqual(H2_FIRST_WINDOW - burst.length * BODY_BYTES);
  });
});
