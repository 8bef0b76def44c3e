import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nearestRank } from '../../bench/engine/stats';
import { curlConnects, type FidelityTarget } from '../../bench/handshake/fidelity-run';
import { ConnectTimer, sharedConnectTimer } from '../../native-host/transport/connect-timer';
import { CONNECT_TIMER_CHILD_SOURCE } from '../../native-host/transport/connect-timer-child';
import { TimingConnector } from '../../native-host/transport/timing-connector';
import { median } from '../../src/stats/median';
import { mulberry32 } from '../../src/core/prng';
import { blockLoop } from '../support/block-loop';
import { startHttpServer } from '../support/tls-servers';
import { buildChildScript } from '../support/build-child';

const PARALLEL = 6;
const ROUNDS = 12;
const MIN_BLOCK_MS = 10;

/** curl's TCP connect (`time_connect − time_namelookup`) to the same server, `PARALLEL` at once. */
function curlTarget(origin: string): FidelityTarget {
  const urls = Array.from({ length: PARALLEL }, (_, i) => `${origin}/c${i}`);
  return { name: 'loopback', rttMs: 0, pageUrl: urls[0] as string, resourceUrls: urls, exec: (c, a, o) => spawn(c, a, o) };
}

/**
 * Six connects at once, then the loop held busy for `blockMs` from the next tick on, as a page's
 * parse would hold it: the SYNs are out (an IP literal's connect is asked within `open`), and
 * every `connect` event this loop would dispatch waits behind the block.
 */
async function connectsUnderBlock(connector: TimingConnector, origin: string, blockMs: number, firstId: number) {
  const openings = Array.from({ length: PARALLEL }, (_, i) => connector.open(origin, firstId + i));
  process.nextTick(() => blockLoop(blockMs));
  return Promise.all(openings);
}

describe('TCP connects timed off the event loop', () => {
  test('six connects at once under a busy loop: tcpMs agrees with curl within 1 ms, each on a connection the server accepted and answered', async () => {
    const accepted = new Set<number>();
    const server = await startHttpServer((_req, res) => res.end('ok'), '127.0.0.1');
    server.server.on('connection', (s: Socket) => accepted.add(s.remotePort as number));
    const origin = `http://127.0.0.1:${server.port}`;
    const timed = new TimingConnector();
    const inLoop = new TimingConnector({ connectIn: 'loop' });
    const random = mulberry32(7);
    try {
      expect(await sharedConnectTimer().warmUp()).toBe(true);
      const curl: number[] = [];
      const timedMs: number[] = [];
      /** Connects whose timed TCP phase reached their own round's block: all of them, had the block leaked in. */
      let carriedBlock = 0;
      const loopDelays: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const blockMs = MIN_BLOCK_MS + Math.floor(random() * 30);
        curl.push(...(await curlConnects(curlTarget(origin), PARALLEL, 10_000)));
        const done = await connectsUnderBlock(timed, origin, blockMs, 100 * round + 1);
        for (const { socket, handshake } of done) {
          // The timed connection is the one in use: the server accepted it from this local port and answers on it.
          expect(accepted.has(handshake.localPort as number)).toBe(true);
          socket.write(`GET /t HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
          const answer = await new Promise<string>((resolve) => {
            let text = '';
            socket.setEncoding('utf8').on('data', (d: string) => (text += d)).once('end', () => resolve(text));
          });
          expect(answer).toMatch(/^HTTP\/1\.1 200 /);
          expect(answer.endsWith('ok')).toBe(true);
          expect(handshake.totalMs).toBeGreaterThanOrEqual(handshake.tcpMs);
          timedMs.push(handshake.tcpMs);
          if (handshake.tcpMs >= blockMs) carriedBlock++;
          loopDelays.push(handshake.loopDelayMs as number);
        }
        // The same block on the loop-timed path lands in its TCP phase: the fault is where it should be.
        const loopTimed = await connectsUnderBlock(inLoop, origin, blockMs, 100 * round + 50);
        for (const { socket, handshake } of loopTimed) {
          socket.destroy();
          expect(handshake.tcpMs).toBeGreaterThanOrEqual(blockMs);
        }
      }
      expect(timedMs).toHaveLength(ROUNDS * PARALLEL);
      // curl, run between the rounds on the same machine, is the independent observer of the
      // typical connect. The slow tail is the OS scheduler's on a loaded machine, which curl, run
      // at other moments, does not share: the tail is judged against the block each connect was
      // made under, which every connect would carry had the block leaked in.
      expect(median(timedMs)).toBeLessThanOrEqual(median(curl) + 1);
      expect(carriedBlock).toBeLessThanOrEqual(Math.floor(timedMs.length / 10));
      expect(nearestRank(timedMs, 0.9)).toBeLessThan(MIN_BLOCK_MS);
      // No phase of an IP literal's plain-http handshake was timed on this loop.
      expect(new Set(loopDelays)).toEqual(new Set([0]));
    } finally {
      await server.close();
    }
  }, 60_000);

  test('a refused connect fails with the kernel\'s code; a connect the timer never answers times out, and one pending when the timer dies fails with E_CONNECT_TIMER', async () => {
    const server = await startHttpServer((_req, res) => res.end('ok'), '127.0.0.1');
    const port = server.port;
    await server.close();
    const timer = new ConnectTimer();
    const silent = new ConnectTimer("process.on('message', () => undefined);");
    const loopback = [{ address: '127.0.0.1', family: 4 }];
    try {
      await expect(timer.connect({ addresses: loopback, port, timeoutMs: 5_000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      await expect(silent.connect({ addresses: loopback, port, timeoutMs: 200 })).rejects.toMatchObject({ code: 'UND_ERR_CONNECT_TIMEOUT' });
      const pending = silent.connect({ addresses: loopback, port, timeoutMs: 5_000 });
      silent.close();
      await expect(pending).rejects.toMatchObject({ code: 'E_CONNECT_TIMER' });
    } finally {
      timer.close();
      silent.close();
    }
  });

  test("the timer's child starts without NODE_EXTRA_CA_CERTS, which Node would parse at its start, and with the rest of this process's environment", async () => {
    // The child answers a connect with what its own environment holds, as a connect error.
    const telling = new ConnectTimer("process.on('message', (m) => process.send({ id: m.id, error: { code: 'ENV', message: JSON.stringify([process.env.NODE_EXTRA_CA_CERTS ?? null, process.env.GETLIST_TEST_MARK ?? null]) } })); process.send({ ready: true });");
    const saved = { extra: process.env.NODE_EXTRA_CA_CERTS, mark: process.env.GETLIST_TEST_MARK };
    process.env.NODE_EXTRA_CA_CERTS = '/etc/ssl/certs/ca-certificates.crt';
    process.env.GETLIST_TEST_MARK = 'kept';
    try {
      const told = await telling.connect({ addresses: [{ address: '127.0.0.1', family: 4 }], port: 9, timeoutMs: 5_000 }).catch((e: Error) => e.message);
      expect(JSON.parse(String(told))).toEqual([null, 'kept']);
    } finally {
      telling.close();
      for (const [name, value] of [['NODE_EXTRA_CA_CERTS', saved.extra], ['GETLIST_TEST_MARK', saved.mark]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  test('a timer that cannot run or dies mid-connect costs timing fidelity, not the connection: the connect is made in the loop', async () => {
    const server = await startHttpServer((_req, res) => res.end('ok'), '127.0.0.1');
    const origin = `http://127.0.0.1:${server.port}`;
    const missing = new ConnectTimer(undefined, '/nonexistent/node');
    // Up, then gone on its first connect.
    const dying = new ConnectTimer("process.send({ ready: true }); process.on('message', () => process.exit(3));");
    try {
      expect(await missing.warmUp()).toBe(false);
      expect(await dying.warmUp()).toBe(true);
      for (const timer of [missing, dying]) {
        const connector = new TimingConnector({}, undefined, undefined, () => timer);
        const toTimer = jest.spyOn(timer, 'connect');
        const opened = await connector.open(origin, 1);
        expect(toTimer).toHaveBeenCalledTimes(timer === dying ? 1 : 0);
        expect(opened.socket.remoteAddress).toBe('127.0.0.1');
        expect(opened.handshake.tcpMs).toBeGreaterThanOrEqual(0);
        opened.socket.destroy();
      }
      expect(missing.usable).toBe(false);
    } finally {
      missing.close();
      dying.close();
      await server.close();
    }
  });

  test('a connect asked before the timer\'s child is up does not wait for it: it is made in the loop, and once the child is up the next goes to it', async () => {
    const server = await startHttpServer((_req, res) => res.end('ok'), '127.0.0.1');
    const origin = `http://127.0.0.1:${server.port}`;
    const LISTEN = 'send({ ready: true });';
    expect(CONNECT_TIMER_CHILD_SOURCE).toContain(LISTEN);
    // A child that takes far longer than a loopback connect to say it listens.
    const slow = new ConnectTimer(CONNECT_TIMER_CHILD_SOURCE.replace(LISTEN, 'setTimeout(() => send({ ready: true }), 3000);'));
    const toTimer = jest.spyOn(slow, 'connect');
    try {
      const connector = new TimingConnector({}, undefined, undefined, () => slow);
      const first = await connector.open(origin, 1);
      first.socket.destroy();
      expect(slow.warm).toBe(false);
      expect(toTimer).not.toHaveBeenCalled();
      expect(await slow.warmUp()).toBe(true);
      const second = await connector.open(origin, 2);
      second.socket.destroy();
      expect(toTimer).toHaveBeenCalledTimes(1);
      expect(second.handshake.loopDelayMs).toBe(0);
    } finally {
      slow.close();
      await server.close();
    }
  }, 20_000);

  test('the first connect does not wait for the timer\'s child to start: its SYN is out before the start holds the loop', async () => {
    // A server in another process, whose loop nothing here holds, notes when it accepts.
    const server = spawn(process.execPath, ['-e', `const s = require('node:net').createServer((c) => { process.stdout.write('accepted ' + Date.now() + '\\n'); c.end(); });
s.listen(0, '127.0.0.1', () => process.stdout.write('port ' + s.address().port + '\\n'));`], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: string[] = [];
    const waiters: Array<() => void> = [];
    let buffered = '';
    server.stdout.on('data', (b: Buffer) => {
      buffered += String(b);
      for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
        lines.push(buffered.slice(0, i));
        buffered = buffered.slice(i + 1);
        waiters.splice(0).forEach((w) => w());
      }
    });
    const line = async (prefix: string): Promise<string> => {
      for (;;) {
        const found = lines.find((l) => l.startsWith(prefix));
        if (found !== undefined) return found.slice(prefix.length);
        await new Promise<void>((r) => waiters.push(r));
      }
    };
    const START_MS = 150;
    // A process start that holds the loop far longer than a loopback connect takes.
    class SlowStart extends ConnectTimer {
      starts = 0;
      override warmUp(): Promise<boolean> {
        this.starts++;
        blockLoop(START_MS);
        return super.warmUp();
      }
    }
    const timer = new SlowStart();
    try {
      const port = Number(await line('port '));
      const connector = new TimingConnector({}, undefined, undefined, () => timer);
      const calledAt = Date.now();
      const { socket } = await connector.open(`http://127.0.0.1:${port}`, 1);
      socket.destroy();
      const acceptedAt = Number(await line('accepted '));
      expect(acceptedAt - calledAt).toBeLessThan(START_MS / 2);
      // The child was started, once, after that SYN.
      expect(timer.starts).toBe(1);
      expect(await timer.warmUp()).toBe(true);
    } finally {
      timer.close();
      server.kill();
    }
  }, 20_000);

  test('a process that exits right after its first connect leaves the timer\'s child to exit quietly: no EPIPE on the stderr they share', async () => {
    const server = await startHttpServer((_req, res) => res.end());
    const dir = mkdtempSync(join(tmpdir(), 'gl-timer-exit-'));
    try {
      const child = join(dir, 'connector-child.js');
      buildChildScript(join(__dirname, '..', 'support', 'connector-child.ts'), child);
      for (let i = 0; i < 5; i++) {
        // The first connect is made in the loop while the timer's child starts; the process exits
        // before that child reports ready.
        const c = spawn(process.execPath, [child], { env: { PATH: process.env.PATH, GL_CONNECT_IN: 'timer', GL_ORIGINS: JSON.stringify([`http://localhost:${server.port}`]) }, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        c.stdout.on('data', (b: Buffer) => (out += String(b)));
        c.stderr.on('data', (b: Buffer) => (err += String(b)));
        // The stream ends once every process holding it has: the timer's child too.
        await new Promise((r) => c.stderr.on('close', r));
        expect(JSON.parse(out)).toEqual([{ origin: `http://localhost:${server.port}`, ok: true }]);
        expect(err).toBe('');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  });
});
