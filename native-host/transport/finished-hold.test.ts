import { spawn } from 'node:child_process';
import type http2 from 'node:http2';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { request } from 'undici';
import { testCert } from '../../test/support/tls-cert';
import { startHttp2Server, type TestServer } from '../../test/support/tls-servers';
import { FINISHED_MAX_HOLD_MS } from './finished-hold';
import { TimingConnector } from './timing-connector';
import { handedClient } from './undici-transport';

/**
 * A relay in a process of its own (so its reads do not wait on the client's event loop): it
 * forwards 127.0.0.1:<its port> to the server and prints, per connection, the TLS record types of
 * each read it made from the client — what a server reading the same socket would get together.
 */
const RELAY = String.raw`
const net = require('node:net');
const target = Number(process.argv[1]);
const server = net.createServer((c) => {
  c.setNoDelay(true);
  const reads = [];
  const t = net.connect(target, '127.0.0.1');
  t.setNoDelay(true);
  c.on('data', (b) => {
    const types = [];
    for (let i = 0; i + 5 <= b.length; i += 5 + b.readUInt16BE(i + 3)) types.push(b[i]);
    reads.push(types);
    t.write(b);
  });
  t.on('data', (b) => c.write(b));
  const done = () => { if (reads) process.stdout.write(JSON.stringify(reads) + '\n'); t.destroy(); c.destroy(); };
  c.on('close', done);
  c.on('error', () => undefined);
  t.on('error', () => c.destroy());
});
server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ port: server.address().port }) + '\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

/** TLS record content types (RFC 8446 §5.1). */
const CHANGE_CIPHER_SPEC = 20;
const HANDSHAKE = 22;
const APPLICATION_DATA = 23;

/** A TLS h2 server answering `ok`, and the relay in front of it; `reads()` is the next connection's. */
interface Relayed {
  origin: string;
  server: TestServer<http2.Http2SecureServer>;
  reads(): Promise<number[][]>;
  close(): Promise<void>;
}

async function relayedServer(options: http2.SecureServerOptions): Promise<Relayed> {
  const server = await startHttp2Server((_req, res) => res.end('ok'), '127.0.0.1', options);
  const relay = spawn(process.execPath, ['-e', RELAY, String(server.port)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let waiting: ((line: string) => void) | undefined;
  let buf = '';
  relay.stdout?.on('data', (b: Buffer) => {
    buf += b.toString();
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i);
      buf = buf.slice(i + 1);
      const w = waiting;
      waiting = undefined;
      if (w) w(line);
      else lines.push(line);
    }
  });
  const nextLine = (): Promise<string> => {
    const l = lines.shift();
    return l !== undefined ? Promise.resolve(l) : new Promise((r) => (waiting = r));
  };
  const { port } = JSON.parse(await nextLine()) as { port: number };
  return {
    origin: `https://localhost:${port}`,
    server,
    reads: async () => JSON.parse(await nextLine()) as number[][],
    close: async () => {
      relay.stdin?.end();
      await server.close();
    },
  };
}

describe('FinishedHold', () => {
  let tls13: Relayed;
  let tls12: Relayed;
  let retry: Relayed;

  beforeAll(async () => {
    tls13 = await relayedServer({ minVersion: 'TLSv1.3' });
    tls12 = await relayedServer({ maxVersion: 'TLSv1.2' });
    // The client's ClientHello offers an X25519 key share only: a server that takes P-384 alone
    // answers with a HelloRetryRequest (RFC 8446 §4.1.4).
    retry = await relayedServer({ minVersion: 'TLSv1.3', ecdhCurve: 'P-384' });
  });
  afterAll(async () => {
    for (const s of [tls13, tls12, retry]) await s?.close();
  });

  function connector(finishedHold: boolean): TimingConnector {
    return new TimingConnector({ connectIn: 'loop', ca: testCert().cert, allowH2: true, finishedHold });
  }

  /** One GET over a connection the connector opened; the relay's reads of what the client sent. */
  async function readsOfOneRequest(server: Relayed, finishedHold = true): Promise<number[][]> {
    const { socket } = await connector(finishedHold).open(server.origin, 1);
    // As the transport does: undici's Client on the handed socket, its request queued at once.
    const h2 = (socket as TLSSocket).alpnProtocol === 'h2';
    const client = handedClient(server.origin, socket, () => false, server.origin, { allowH2: h2 });
    const { statusCode, body } = await request(`${server.origin}/`, { dispatcher: client });
    expect(statusCode).toBe(200);
    expect(await body.text()).toBe('ok');
    await client.close();
    return server.reads();
  }

  const appRecords = (read: number[] | undefined) => (read ?? []).filter((t) => t === APPLICATION_DATA).length;

  test('TLS 1.3: the client\'s Finished reaches the server in the same read as the h2 preface and the first request', async () => {
    for (let i = 0; i < 5; i++) {
      const reads = await readsOfOneRequest(tls13);
      expect(reads[0]).toEqual([HANDSHAKE]);
      // change_cipher_spec (RFC 8446 D.4), the Finished, then the application's record(s).
      expect(reads[1]?.[0]).toBe(CHANGE_CIPHER_SPEC);
      expect(appRecords(reads[1])).toBeGreaterThanOrEqual(2);
    }
  });

  test('without it, the Finished is read alone', async () => {
    // The control: Node writes the Finished a turn before the request. A relay slowed down by a
    // loaded machine may read both at once, so one read of the Finished alone in five is asked.
    const alone: boolean[] = [];
    for (let i = 0; i < 5; i++) {
      const reads = await readsOfOneRequest(tls13, false);
      expect(reads[0]).toEqual([HANDSHAKE]);
      alone.push(appRecords(reads[1]) === 1);
    }
    expect(alone).toContain(true);
  });

  test('after a HelloRetryRequest the second ClientHello goes at once, and the Finished still goes with the request', async () => {
    const reads = await readsOfOneRequest(retry);
    expect(reads[0]).toEqual([HANDSHAKE]);
    expect(reads[1]).toEqual([CHANGE_CIPHER_SPEC, HANDSHAKE]);
    expect(appRecords(reads[2])).toBeGreaterThanOrEqual(2);
  });

  test('TLS 1.2 passes through: the client\'s second flight is not held, and the request follows the server\'s Finished', async () => {
    const reads = await readsOfOneRequest(tls12);
    expect(reads[0]).toEqual([HANDSHAKE]);
    // ClientKeyExchange, change_cipher_spec and the encrypted Finished (a handshake record in TLS 1.2).
    expect(reads[1]).toEqual([HANDSHAKE, CHANGE_CIPHER_SPEC, HANDSHAKE]);
    expect(appRecords(reads[2])).toBeGreaterThanOrEqual(1);
  });

  test('a reset while the Finished is held fails the connection with the socket\'s error, and nothing goes unhandled', async () => {
    const server = await startHttp2Server(() => undefined, '127.0.0.1', { minVersion: 'TLSv1.3' });
    // The client's handshake ends when the server's flight arrives; the reset follows while its Finished waits.
    server.server.on('connection', (s: Socket) => setTimeout(() => s.resetAndDestroy(), 50));
    try {
      const { socket } = await connector(true).open(`https://localhost:${server.port}`, 1);
      const err = await new Promise<NodeJS.ErrnoException>((resolve) => socket.once('error', resolve));
      expect(err.code).toBe('ECONNRESET');
      await new Promise((r) => setTimeout(r, FINISHED_MAX_HOLD_MS));
      expect(socket.destroyed).toBe(true);
    } finally {
      await server.close();
    }
  });

  test('a connection with no request sends its Finished alone once the hold\'s limit passes, and the server completes the handshake', async () => {
    const before = tls13.server.tls.length;
    const { socket } = await connector(true).open(tls13.origin, 1);
    await new Promise((r) => setTimeout(r, FINISHED_MAX_HOLD_MS + 100));
    expect(tls13.server.tls.length).toBe(before + 1);
    socket.destroy();
    const reads = await tls13.reads();
    expect(reads).toEqual([[HANDSHAKE], [CHANGE_CIPHER_SPEC, APPLICATION_DATA]]);
  });
});
