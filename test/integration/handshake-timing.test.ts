import tls from 'node:tls';
import { strategy } from '../../src/scheduler';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { blockLoop } from '../support/block-loop';
import { bodyFor } from '../support/raw-http-server';
import { runList, sha256 } from '../support/run-list';
import { ConnectTimer, sharedConnectTimer } from '../../native-host/transport/connect-timer';
import { CONNECT_TIMER_CHILD_SOURCE } from '../../native-host/transport/connect-timer-child';
import { TimingConnector } from '../../native-host/transport/timing-connector';
import { TlsSessions } from '../../native-host/transport/tls-sessions';
import { HostCache } from '../../native-host/transport/host-cache';
import { testCert } from '../support/tls-cert';
import { startHttpServer, startHttpsServer } from '../support/tls-servers';

/** Floating-point slack for sums of `performance.now()` differences. */
const EPS = 1e-6;

const SIZE = 2048;
const respond = (delayMs: number) => (req: { url?: string }, res: { setHeader(k: string, v: string): unknown; end(b: Buffer): unknown }) => {
  const path = req.url ?? '/';
  setTimeout(() => {
    res.setHeader('content-type', 'application/octet-stream');
    res.end(bodyFor(path, SIZE));
  }, delayMs);
};

function expectPhasesConsistent(h: HandshakeRecord) {
  for (const v of [h.dnsMs, h.tcpMs, h.tlsMs, h.totalMs]) expect(Number.isFinite(v)).toBe(true);
  expect(h.dnsMs).toBeGreaterThanOrEqual(0);
  expect(h.tcpMs).toBeGreaterThanOrEqual(0);
  expect(h.tlsMs).toBeGreaterThanOrEqual(0);
  // Cumulative: each phase ends no earlier than the one before it, and the total covers them all.
  expect(h.dnsMs).toBeLessThanOrEqual(h.dnsMs + h.tcpMs);
  expect(h.dnsMs + h.tcpMs).toBeLessThanOrEqual(h.dnsMs + h.tcpMs + h.tlsMs);
  expect(h.dnsMs + h.tcpMs + h.tlsMs).toBeLessThanOrEqual(h.totalMs + EPS);
}


describe('handshake timing measured at the socket', () => {
  // The default connector connects through the timer's child once it is up: start it first.
  beforeAll(async () => {
    expect(await sharedConnectTimer().warmUp()).toBe(true);
  });

  test('http://localhost: DNS and TCP measured, no TLS, one record per TCP connection the server accepted', async () => {
    const server = await startHttpServer(respond(20));
    try {
      const origin = `http://localhost:${server.port}`;
      const paths = Array.from({ length: 8 }, (_, i) => `/h${i}.bin`);
      const run = await runList(strategy('browser'), paths.map((p) => ({ url: origin + p })));

      expect(run.results.map((r) => [r.error, r.status, r.protocol])).toEqual(paths.map(() => [undefined, 200, 'http/1.1']));
      for (const r of run.results) expect(run.sha(r.id)).toBe(sha256(bodyFor(new URL(r.url).pathname, SIZE)));

      expect(run.handshakes.length).toBeGreaterThan(1);
      expect(run.handshakes.length).toBe(server.connections());
      expect(new Set(run.handshakes.map((h) => h.connectionId)).size).toBe(run.handshakes.length);
      for (const h of run.handshakes) {
        expectPhasesConsistent(h);
        // A hostname is looked up: the socket's `lookup` event ends a (non-empty) DNS phase.
        expect(h.dnsMs).toBeGreaterThan(0);
        expect(h.tlsMs).toBe(0);
        expect(h.totalMs).toBeGreaterThanOrEqual(h.dnsMs + h.tcpMs);
        expect(h.origin).toBe(origin);
        expect(h.remoteAddress).toBe(server.address);
        expect(h.remotePort).toBe(server.port);
        expect(typeof h.localPort).toBe('number');
        expect(h.protocol).toBe('http/1.1');
        expect(h.tlsVersion).toBeUndefined();
        expect(h.resumed).toBe(false);
      }
      // Distinct client ports: they really were distinct TCP connections.
      expect(new Set(run.handshakes.map((h) => h.localPort)).size).toBe(run.handshakes.length);
    } finally {
      await server.close();
    }
  });

  test('http://127.0.0.1 (an IP literal): no lookup, so the DNS phase is 0', async () => {
    const server = await startHttpServer(respond(0), '127.0.0.1');
    try {
      const run = await runList(strategy('serial'), [{ url: `http://127.0.0.1:${server.port}/a` }]);
      expect(run.results[0]?.error).toBeUndefined();
      expect(run.handshakes).toHaveLength(1);
      const h = run.handshakes[0] as HandshakeRecord;
      expectPhasesConsistent(h);
      expect(h.dnsMs).toBe(0);
      expect(h.tcpMs).toBeGreaterThan(0);
      expect(h.remoteAddress).toBe('127.0.0.1');
    } finally {
      await server.close();
    }
  });

  test('https://localhost: TLS phase measured, TLS version reported, later sequential connections resume the session', async () => {
    const { cert } = testCert();
    const server = await startHttpsServer(respond(0));
    try {
      const origin = `https://localhost:${server.port}`;
      // http10: one connection per request, strictly one after another — each later connection
      // starts after the previous one carried a whole response, so its session ticket has arrived.
      const paths = ['/r0', '/r1', '/r2'];
      const run = await runList(strategy('http10'), paths.map((p) => ({ url: origin + p })), { ca: cert });

      expect(run.results.map((r) => [r.error, r.status, r.protocol])).toEqual(paths.map(() => [undefined, 200, 'http/1.1']));
      for (const r of run.results) expect(run.sha(r.id)).toBe(sha256(bodyFor(new URL(r.url).pathname, SIZE)));
      expect(run.handshakes).toHaveLength(3);
      expect(server.connections()).toBe(3);
      expect(server.tls).toHaveLength(3);

      const hs = [...run.handshakes].sort((a, b) => a.connectionId - b.connectionId);
      for (const h of hs) {
        expectPhasesConsistent(h);
        expect(h.dnsMs).toBeGreaterThan(0);
        expect(h.tlsMs).toBeGreaterThan(0);
        expect(h.tlsVersion).toMatch(/^TLSv1\.[23]$/);
        expect(h.protocol).toBe('http/1.1');
        expect(h.remoteAddress).toBe(server.address);
        expect(h.remotePort).toBe(server.port);
      }
      expect(hs.map((h) => h.resumed)).toEqual([false, true, true]);

      // The server agrees, connection by connection (matched by the client's port).
      for (const h of hs) {
        const seen = server.tls.find((t) => t.remotePort === h.localPort);
        expect(seen).toBeDefined();
        expect(seen?.resumed).toBe(h.resumed);
        expect(seen?.tlsVersion).toBe(h.tlsVersion);
      }
    } finally {
      await server.close();
    }
  });

  test('https with the default rejectUnauthorized: an untrusted self-signed certificate fails with E_CONNECT_FAILED', async () => {
    const server = await startHttpsServer(respond(0));
    try {
      const url = `https://localhost:${server.port}/x`;
      const run = await runList(strategy('browser'), [{ url }]);
      const err = run.results[0]?.error;
      expect(err?.code).toBe('E_CONNECT_FAILED');
      expect(typeof err?.causeCode).toBe('string');
      expect(err?.causeCode?.length).toBeGreaterThan(0);
      expect(err?.causeCode).toMatch(/CERT/);
      expect(run.handshakes).toHaveLength(0);

      // Control: the same server loads once the certificate is not verified, so the failure above
      // was the trust decision and nothing else.
      const ok = await runList(strategy('browser'), [{ url }], { rejectUnauthorized: false });
      expect(ok.results[0]?.error).toBeUndefined();
      expect(ok.results[0]?.status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

/** A full V8 garbage collection, without starting Node with --expose-gc. */
function collectGarbage(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const v8 = require('node:v8') as typeof import('node:v8');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const vm = require('node:vm') as typeof import('node:vm');
  v8.setFlagsFromString('--expose-gc');
  (vm.runInNewContext('gc') as () => void)();
}

describe('TLS session cache of one TimingConnector', () => {
  /** Opens a connection, carries one request to the end (so the TLS 1.3 tickets are read), closes it. */
  async function oneConnection(connector: TimingConnector, origin: string, id: number): Promise<HandshakeRecord> {
    const { socket, handshake } = await connector.open(origin, id);
    await new Promise<void>((resolve, reject) => {
      socket.on('data', () => undefined);
      socket.once('error', reject);
      socket.once('close', () => resolve());
      socket.write(`GET /t${id} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`);
    });
    return handshake;
  }

  test.each(['timer', 'loop'] as const)('a plain-HTTP connection builds no TLS context, the first TLS connection builds the one every later one shares (connect in the %s)', async (connectIn) => {
    // A CA text no other test trusts: its context cannot have been built before this test.
    const ca = `${testCert().cert}${'\n'.repeat(connectIn === 'timer' ? 2 : 3)}`;
    const plain = await startHttpServer(respond(0));
    const secure = await startHttpsServer(respond(0));
    // The module's own function, as trust-context.ts calls it (the servers above built theirs).
    const built = jest.spyOn(tls, 'createSecureContext');
    try {
      const connector = new TimingConnector({ ca, connectIn });
      (await connector.open(`http://localhost:${plain.port}`, 1)).socket.destroy();
      expect(built).not.toHaveBeenCalled();
      for (const id of [2, 3]) {
        const { socket, handshake } = await connector.open(`https://localhost:${secure.port}`, id);
        socket.destroy();
        expect(handshake.tlsMs).toBeGreaterThan(0);
      }
      expect(built).toHaveBeenCalledTimes(1);
      for (let i = 0; i < 100 && secure.tls.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(secure.tls).toHaveLength(2);
    } finally {
      built.mockRestore();
      await plain.close();
      await secure.close();
    }
  });

  test("a TLS connection made by the timer's child has its trust context built while the child connects, not after", async () => {
    // A child that holds each connected socket 150 ms before handing it over: a TCP round trip.
    const HAND_OVER = 'send({ id: m.id, tcpMs, remoteAddress: s.remoteAddress }, s)';
    expect(CONNECT_TIMER_CHILD_SOURCE).toContain(HAND_OVER);
    const slow = new ConnectTimer(CONNECT_TIMER_CHILD_SOURCE.replace(HAND_OVER, `setTimeout(() => ${HAND_OVER}, 150)`));
    const ca = `${testCert().cert}${'\n'.repeat(4)}`;
    const secure = await startHttpsServer(respond(0));
    const builtAt: number[] = [];
    const build = tls.createSecureContext;
    const built = jest.spyOn(tls, 'createSecureContext').mockImplementation((o) => {
      builtAt.push(performance.now());
      return build(o);
    });
    try {
      expect(await slow.warmUp()).toBe(true);
      let tlsStartedAt = 0;
      const connector = new TimingConnector({ ca, onTlsStart: () => (tlsStartedAt = performance.now()) }, undefined, undefined, () => slow);
      const { socket, handshake } = await connector.open(`https://localhost:${secure.port}`, 1);
      socket.destroy();
      expect(handshake.tcpMs).toBeLessThan(100);
      expect(builtAt).toHaveLength(1);
      expect(tlsStartedAt - (builtAt[0] as number)).toBeGreaterThan(100);
    } finally {
      built.mockRestore();
      slow.close();
      await secure.close();
    }
  });

  test("a connection through the timer's child asks the host cache the question an in-loop connect asks: one lookup serves both", async () => {
    const server = await startHttpServer(respond(0));
    const asked: string[] = [];
    const lookupAll = HostCache.prototype.lookupAll;
    const spy = jest.spyOn(HostCache.prototype, 'lookupAll').mockImplementation(function (this: HostCache, hostname, key) {
      asked.push(JSON.stringify({ hostname, family: key?.family ?? 0, hints: key?.hints ?? 0 }));
      return lookupAll.call(this, hostname, key);
    });
    try {
      const origin = `http://localhost:${server.port}`;
      for (const connectIn of ['loop', 'timer'] as const) {
        const { socket, handshake } = await new TimingConnector({ connectIn }).open(origin, 1);
        socket.destroy();
        expect(handshake.dnsMs).toBeGreaterThan(0);
      }
      expect(asked).toHaveLength(2);
      expect(new Set(asked).size).toBe(1);
    } finally {
      spy.mockRestore();
      await server.close();
    }
  });

  test('a later connection resumes even when a garbage collection ran in between', async () => {
    const { cert } = testCert();
    const server = await startHttpsServer(respond(0));
    try {
      const origin = `https://localhost:${server.port}`;
      const connector = new TimingConnector({ ca: cert });
      const first = await oneConnection(connector, origin, 1);
      const second = await oneConnection(connector, origin, 2);
      collectGarbage();
      await new Promise((r) => setTimeout(r, 20));
      collectGarbage();
      const third = await oneConnection(connector, origin, 3);
      expect([first.resumed, second.resumed]).toEqual([false, true]);
      // The session a browser would keep must not depend on when the collector runs.
      expect(third.resumed).toBe(true);
      expect(server.tls.map((t) => t.resumed)).toEqual([false, true, true]);
    } finally {
      await server.close();
    }
  });

  test.each(['timer', 'loop'] as const)('connectors that share one TlsSessions resume each other\'s sessions; a connector of its own does not (connect in the %s)', async (connectIn) => {
    const { cert } = testCert();
    const server = await startHttpsServer(respond(0));
    try {
      const origin = `https://localhost:${server.port}`;
      const tlsSessions = new TlsSessions();
      const first = await oneConnection(new TimingConnector({ ca: cert, connectIn, tlsSessions }), origin, 1);
      expect(tlsSessions.size).toBe(1);
      const shared = await oneConnection(new TimingConnector({ ca: cert, connectIn, tlsSessions }), origin, 2);
      const own = await oneConnection(new TimingConnector({ ca: cert, connectIn }), origin, 3);
      expect([first.resumed, shared.resumed, own.resumed]).toEqual([false, true, false]);
      // The server agrees, connection by connection (matched by the client's port).
      expect([first, shared, own].map((h) => server.tls.find((t) => t.remotePort === h.localPort)?.resumed)).toEqual([false, true, false]);
    } finally {
      await server.close();
    }
  });
});


describe('loop delay in handshake records', () => {
  test('connecting in this loop: a loop held busy while the SYN-ACK waits inflates tcpMs, and loopDelayMs covers the inflation', async () => {
    const server = await startHttpServer(respond(0), '127.0.0.1');
    const connector = new TimingConnector({ connectIn: 'loop' });
    try {
      const BLOCK = 60;
      const opening = connector.open(`http://127.0.0.1:${server.port}`, 1);
      // Node sends the SYN on its next tick; this tick comes after it. The loopback handshake then
      // completes in the kernel at once, and its 'connect' event waits for the loop.
      process.nextTick(() => blockLoop(BLOCK));
      const { socket, handshake: h } = await opening;
      socket.destroy();
      expectPhasesConsistent(h);
      expect(h.tcpMs).toBeGreaterThanOrEqual(BLOCK);
      expect(h.loopDelayMs).toBeGreaterThanOrEqual(BLOCK);
      expect(h.loopDelayMs).toBeLessThanOrEqual(h.totalMs + EPS);
      // What is left once the bound is taken off is the connect itself, far below the block.
      expect(h.tcpMs - (h.loopDelayMs as number)).toBeLessThan(BLOCK / 2);
    } finally {
      await server.close();
    }
  });

  test('a loop held busy before the SYN is sent is no part of tcpMs: it is in totalMs, and not in loopDelayMs', async () => {
    const server = await startHttpServer(respond(0), '127.0.0.1');
    const connector = new TimingConnector();
    try {
      const BLOCK = 60;
      const opening = connector.open(`http://127.0.0.1:${server.port}`, 1);
      // Still this tick: Node has not sent the SYN yet (an IP literal connects on the next tick),
      // as when a page's parse goes on after asking for connections.
      blockLoop(BLOCK);
      const { socket, handshake: h } = await opening;
      socket.destroy();
      expectPhasesConsistent(h);
      expect(h.dnsMs).toBe(0);
      expect(h.tcpMs).toBeLessThan(BLOCK / 2);
      expect(h.loopDelayMs).toBeLessThan(BLOCK / 2);
      expect(h.totalMs).toBeGreaterThanOrEqual(BLOCK);
    } finally {
      await server.close();
    }
  });

  test('connections opened at once are timestamped before any of them is handed over: work on the first does not delay the others', async () => {
    const server = await startHttpServer(respond(0), '127.0.0.1');
    const connector = new TimingConnector();
    const BLOCK = 60;
    try {
      const origin = `http://127.0.0.1:${server.port}`;
      const openings = Array.from({ length: 6 }, (_, i) => connector.open(origin, i + 1));
      // The first connection's user does heavy work as soon as it is handed the socket.
      void openings[0]?.then(() => blockLoop(BLOCK));
      const done = await Promise.all(openings);
      for (const { socket } of done) socket.destroy();
      // Six distinct TCP connections (the server accepts in this same loop, so ask the sockets).
      expect(new Set(done.map((d) => d.handshake.localPort)).size).toBe(6);
      for (const { handshake } of done) {
        expectPhasesConsistent(handshake);
        expect(handshake.tcpMs).toBeLessThan(BLOCK);
      }
    } finally {
      await server.close();
    }
  });

  test('loopDelayMs is what the busy clock advanced during the handshake: a clock that never advances gives 0', async () => {
    const server = await startHttpServer(respond(0), '127.0.0.1');
    const connector = new TimingConnector({}, undefined, () => 0);
    try {
      const { socket, handshake } = await connector.open(`http://127.0.0.1:${server.port}`, 1);
      socket.destroy();
      // An injected busy clock that never advances: no loop delay to report.
      expect(handshake.loopDelayMs).toBe(0);
    } finally {
      await server.close();
    }
  });
});

describe('the start of each TLS handshake, told to a watcher', () => {
  beforeAll(async () => {
    expect(await sharedConnectTimer().warmUp()).toBe(true);
  });

  test.each(['timer', 'loop'] as const)('connecting in the %s: once per https connection, before it is handed over, with its own TCP round trip; never for http', async (connectIn) => {
    const { cert } = testCert();
    const tls = await startHttpsServer(respond(0));
    const plain = await startHttpServer(respond(0));
    const told: Array<{ origin: string; rttMs: number }> = [];
    const connector = new TimingConnector({ ca: cert, connectIn, onTlsStart: (origin, rttMs) => told.push({ origin, rttMs }) });
    try {
      const secureOrigin = `https://localhost:${tls.port}`;
      const records: HandshakeRecord[] = [];
      for (let id = 1; id <= 3; id++) {
        const opened = await connector.open(secureOrigin, id).then((o) => ({ ...o, toldBefore: told.length }));
        opened.socket.destroy();
        expect(opened.toldBefore).toBe(id);
        records.push(opened.handshake);
      }
      const { socket } = await connector.open(`http://localhost:${plain.port}`, 4);
      socket.destroy();
      expect(told.map((t) => t.origin)).toEqual([secureOrigin, secureOrigin, secureOrigin]);
      // The round trip told is the one the connection's record gives its TCP phase.
      for (const [i, h] of records.entries()) {
        expect(h.tlsMs).toBeGreaterThan(0);
        expect(told[i]?.rttMs).toBeCloseTo(h.tcpMs, 6);
      }
    } finally {
      await tls.close();
      await plain.close();
    }
  });
});
