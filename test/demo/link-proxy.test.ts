import { AddressInfo, connect, createServer, Server, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { getPage } from '../../native-host/demo/corpus';
import { DemoServer, startDemoServer } from '../../native-host/demo/demo-server';
import { LinkProxy, LinkProxyOptions, startLinkProxy } from '../../native-host/demo/link-proxy';
import { Prng } from '../../src/core/prng';
import { getRequest, readResponses } from './raw-http';

// Timers never fire early for delivery (the relay re-checks a monotonic clock), so lower
// bounds only need slack for clock granularity between this process's two readings.
const SLACK_MS = 3;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

async function proxyTo(port: number, opts: Omit<LinkProxyOptions, 'target'>): Promise<LinkProxy> {
  const proxy = await startLinkProxy({ target: { host: '127.0.0.1', port }, ...opts });
  cleanups.push(() => proxy.close());
  return proxy;
}

async function demoServer(): Promise<DemoServer> {
  const server = await startDemoServer();
  cleanups.push(() => server.close());
  return server;
}

/** A raw TCP server whose connections are handled by `onConnection`; closes them on cleanup. */
async function rawServer(onConnection: (socket: Socket) => void): Promise<Server> {
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  }));
  return server;
}

const portOf = (server: Server): number => (server.address() as AddressInfo).port;

function open(port: number): Socket {
  const socket = connect({ port, host: '127.0.0.1', noDelay: true, allowHalfOpen: true });
  socket.on('error', () => undefined);
  cleanups.push(() => { socket.destroy(); });
  return socket;
}

const once = <T = void>(socket: Socket, event: string): Promise<T> =>
  new Promise((resolve) => socket.once(event, (arg: T) => resolve(arg)));

/** Reads everything until the peer's FIN; resolves with the bytes and when the FIN came. */
function readToEnd(socket: Socket): Promise<{ data: Buffer; endAt: number }> {
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve, reject) => {
    socket.once('end', () => resolve({ data: Buffer.concat(chunks), endAt: performance.now() }));
    socket.once('error', reject);
  });
}

describe('link proxy: latency', () => {
  it('charges the handshake RTT to the first request and 1 RTT to the next one', async () => {
    const server = await demoServer();
    const proxy = await proxyTo(server.port, { rttMs: 100 });
    const page = getPage('pm95');

    const t0 = performance.now();
    const socket = open(proxy.port);
    await once(socket, 'connect');
    const connectMs = performance.now() - t0;
    const first = readResponses(socket, 1);
    const firstByte = once(socket, 'data').then(() => performance.now());
    socket.write(getRequest(page.path));
    const ttfb1 = (await firstByte) - t0;
    expect((await first)[0]?.body.length).toBe(page.documentSize);

    const t1 = performance.now();
    const second = readResponses(socket, 1);
    const secondByte = once(socket, 'data').then(() => performance.now());
    socket.write(getRequest(page.resources[0]?.path ?? ''));
    const ttfb2 = (await secondByte) - t1;
    expect((await second)[0]?.body.length).toBe(2544);

    // Loopback accepts at once: the kernel-level connect reads ~0 ...
    expect(connectMs).toBeLessThan(50);
    // ... and the emulated SYN/SYN-ACK round trip is charged to the first byte instead.
    expect(ttfb1).toBeGreaterThanOrEqual(200 - SLACK_MS);
    expect(ttfb1).toBeLessThan(400);
    expect(ttfb2).toBeGreaterThanOrEqual(100 - SLACK_MS);
    expect(ttfb2).toBeLessThan(200);
    // The server saw the first request 1.5 RTT after the client's connect (handshake + ½ RTT).
    const firstSeen = (server.requestLog[0]?.at ?? 0) - (performance.timeOrigin + t0);
    expect(firstSeen).toBeGreaterThanOrEqual(150 - SLACK_MS);
    expect(server.requestLog).toHaveLength(2);
    expect(proxy.stats()).toMatchObject({ connections: 1, openConnections: 1 });
  });
});

describe('link proxy: shared bottleneck', () => {
  const MiB = 1024 * 1024;
  const bytesAt8Mbps = (bytes: number): number => (bytes * 8 * 1000) / 8_000_000;

  it('takes >= size*8/rate for 1 MiB at 8 Mbit/s', async () => {
    const payload = Buffer.alloc(MiB, 7);
    const server = await rawServer((s) => s.end(payload));
    const proxy = await proxyTo(portOf(server), { rttMs: 20, downlinkBitsPerSec: 8_000_000 });
    const t0 = performance.now();
    const { data, endAt } = await readToEnd(open(proxy.port));
    const elapsed = endAt - t0;
    expect(data.equals(payload)).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(bytesAt8Mbps(MiB) + 20 + 10 - SLACK_MS); // + handshake + ½ RTT
    expect(elapsed).toBeLessThan(3_000);
    expect(proxy.stats().bytesDown).toBe(MiB);
  });

  it('makes parallel connections share one rate: two 512 KiB transfers take as long as 1 MiB', async () => {
    const payload = Buffer.alloc(MiB / 2, 9);
    const server = await rawServer((s) => s.end(payload));
    const proxy = await proxyTo(portOf(server), { rttMs: 20, downlinkBitsPerSec: 8_000_000 });
    const t0 = performance.now();
    const results = await Promise.all([readToEnd(open(proxy.port)), readToEnd(open(proxy.port))]);
    const [a, b] = results.map((r) => r.endAt - t0) as [number, number];
    for (const r of results) expect(r.data.length).toBe(MiB / 2);
    expect(Math.max(a, b)).toBeGreaterThanOrEqual(bytesAt8Mbps(MiB) - SLACK_MS);
    // FIFO with per-connection backpressure interleaves them: neither gets the link alone.
    expect(Math.min(a, b)).toBeGreaterThan(0.7 * bytesAt8Mbps(MiB));
    expect(Math.max(a, b)).toBeLessThan(3_000);
    expect(proxy.stats()).toMatchObject({ connections: 2, bytesDown: MiB });
  });
});

describe('link proxy: ordering and close', () => {
  it('relays a large transfer byte-exact both ways through tight backpressure', async () => {
    const rng = new Prng('link-proxy-order');
    const payload = rng.fillBytes(Buffer.alloc(4 * 1024 * 1024));
    const echo = await rawServer((s) => s.pipe(s)); // ends after echoing everything
    const proxy = await proxyTo(portOf(echo), {
      rttMs: 10, downlinkBitsPerSec: 200_000_000, uplinkBitsPerSec: 200_000_000, queueBytes: 4_096,
    });
    const socket = open(proxy.port);
    const received = readToEnd(socket);
    await once(socket, 'connect');
    for (let off = 0; off < payload.length;) {
      const size = rng.int(1, 65_536);
      if (!socket.write(payload.subarray(off, off + size))) await once(socket, 'drain');
      off += size;
    }
    socket.end();
    const { data } = await received;
    expect(data.length).toBe(payload.length);
    expect(data.equals(payload)).toBe(true);
    expect(proxy.stats()).toMatchObject({ bytesUp: payload.length, bytesDown: payload.length });
  });

  it('propagates the server closing: the client sees the data, then end, one way later', async () => {
    const server = await rawServer((s) => s.end('bye'));
    const proxy = await proxyTo(portOf(server), { rttMs: 40 });
    const t0 = performance.now();
    const socket = open(proxy.port);
    const { data, endAt } = await readToEnd(socket);
    expect(data.toString()).toBe('bye');
    expect(endAt - t0).toBeGreaterThanOrEqual(40 + 20 - SLACK_MS);
    socket.end();
    await once(socket, 'close');
    // The relay closes once the client's FIN has crossed the emulated link (one way, 20 ms); on a
    // loaded machine the link's timers fire late, so it is waited for, within a bound.
    const deadline = performance.now() + 2_000;
    while (proxy.stats().openConnections > 0 && performance.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(proxy.stats().openConnections).toBe(0);
  });

  it('half-closes: the client FIN reaches the server, which can still answer', async () => {
    const server = await rawServer((s) => {
      const chunks: Buffer[] = [];
      s.on('data', (c: Buffer) => chunks.push(c));
      s.on('end', () => s.end(`got:${Buffer.concat(chunks).toString()}`));
    });
    const proxy = await proxyTo(portOf(server), { rttMs: 40 });
    const t0 = performance.now();
    const socket = open(proxy.port);
    const reply = readToEnd(socket);
    socket.end('hello');
    const { data, endAt } = await reply;
    expect(data.toString()).toBe('got:hello');
    expect(endAt - t0).toBeGreaterThanOrEqual(40 + 40 - SLACK_MS); // handshake + a round trip
  });

  it('propagates a reset from the server, and a refused upstream connection, as a reset', async () => {
    const server = await rawServer((s) => s.resetAndDestroy());
    const proxy = await proxyTo(portOf(server), { rttMs: 20 });
    const socket = open(proxy.port);
    const error = new Promise<NodeJS.ErrnoException>((resolve) => socket.once('error', resolve));
    await once(socket, 'close');
    expect((await error).code).toBe('ECONNRESET');

    const gone = await rawServer(() => undefined);
    const deadPort = portOf(gone);
    await cleanups.pop()?.(); // closes `gone`: nothing listens on deadPort now
    const refusedProxy = await proxyTo(deadPort, { rttMs: 20 });
    const refused = open(refusedProxy.port);
    const refusedError = new Promise<NodeJS.ErrnoException>((resolve) => refused.once('error', resolve));
    await once(refused, 'close');
    expect((await refusedError).code).toBe('ECONNRESET');
  });

  it('close() tears down relayed connections and resolves', async () => {
    const server = await demoServer();
    const proxy = await proxyTo(server.port, { rttMs: 10 });
    const socket = open(proxy.port);
    const response = readResponses(socket, 1);
    socket.write(getRequest(getPage('pm95').path));
    await response;
    const ended = once(socket, 'end'); // our socket allows half-open, so it sees the FIN as 'end'
    await proxy.close();
    await ended;
    await proxy.close(); // idempotent
    expect(proxy.stats().openConnections).toBe(0);
  });

  it('rejects invalid options with E_LINK_OPTIONS', async () => {
    const target = { host: '127.0.0.1', port: 9 };
    await expect(startLinkProxy({ target, rttMs: -1 })).rejects.toMatchObject({ code: 'E_LINK_OPTIONS' });
    await expect(startLinkProxy({ target, rttMs: 10, downlinkBitsPerSec: 0 })).rejects.toMatchObject({ code: 'E_LINK_OPTIONS' });
    await expect(startLinkProxy({ target, rttMs: 10, queueBytes: 0 })).rejects.toMatchObject({ code: 'E_LINK_OPTIONS' });
    await expect(startLinkProxy({ target: { host: '127.0.0.1', port: 0 }, rttMs: 10 })).rejects.toMatchObject({ code: 'E_LINK_OPTIONS' });
  });
});
