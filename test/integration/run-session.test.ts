import net from 'node:net';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { strategy } from '../../src/scheduler';
import { runSession } from '../../native-host/run/run-session';
import { runPage } from '../../native-host/run/page-run';
import { originsUsed } from '../../native-host/run/page-memory';
import { roundMs } from '../../src/run/round';

/**
 * A server that answers `/fast` at once and never answers `/hang`, and tracks its open sockets:
 * the independent observer of "every connection is closed when the session returns".
 */
async function startServer() {
  const open = new Set<net.Socket>();
  const paths: string[] = [];
  let closedWaiters: Array<() => void> = [];
  const server = net.createServer((socket) => {
    open.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      open.delete(socket);
      if (open.size === 0) for (const w of closedWaiters.splice(0)) w();
    });
    let buf = '';
    socket.on('data', (chunk) => {
      buf += chunk.toString('latin1');
      for (let end = buf.indexOf('\r\n\r\n'); end >= 0; end = buf.indexOf('\r\n\r\n')) {
        const path = buf.slice(0, end).split(' ')[1] ?? '';
        buf = buf.slice(end + 4);
        paths.push(path);
        if (path === '/fast') socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    origin,
    paths,
    openSockets: () => open.size,
    allClosed: () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => closedWaiters.push(resolve))),
    close: () => new Promise<void>((resolve) => {
      for (const s of open) s.destroy();
      closedWaiters = [];
      server.close(() => resolve());
    }),
  };
}

let server: Awaited<ReturnType<typeof startServer>>;
beforeEach(async () => {
  server = await startServer();
});
afterEach(() => server.close());

describe('runSession: one run on fresh connections, closed whatever happens', () => {
  test('idle: every request settled, the run summarises them, and no connection is left open', async () => {
    const { ended, run } = await runSession({ url: `${server.origin}/`, strategy: strategy('browser') }, (s) => {
      for (let i = 0; i < 3; i++) s.enqueue({ url: `${server.origin}/fast`, priority: 'image', resourceType: 'image' });
    });
    expect(ended).toBe('idle');
    expect(run.requests.map((r) => [r.status, r.bytes, r.error])).toEqual([[200, 2, null], [200, 2, null], [200, 2, null]]);
    expect(server.paths).toEqual(['/fast', '/fast', '/fast']);
    expect(run.connectionsOpened).toBeGreaterThanOrEqual(1);
    await server.allClosed();
    expect(server.openSockets()).toBe(0);
  });

  test('hooks.onSent: every request as it is written, with the round trip its connection\'s TCP handshake measured', async () => {
    const sent: Array<{ connectionId: number; rttMs: number | undefined }> = [];
    const { run } = await runSession({
      url: `${server.origin}/`, strategy: strategy('browser'),
      hooks: { onSent: (d, rttMs) => sent.push({ connectionId: d.connectionId, rttMs }) },
    }, (s) => {
      for (let i = 0; i < 3; i++) s.enqueue({ url: `${server.origin}/fast`, priority: 'image', resourceType: 'image' });
    });
    // One call per request written, on the connection the run says carried it.
    expect(sent.map((x) => x.connectionId).sort()).toEqual(run.requests.map((r) => r.connectionId).sort());
    // The independent account: the connector's own handshake record of the same connection (kept in µs).
    const tcpOf = new Map(run.handshakes.map((h) => [h.connectionId, h.tcpMs]));
    for (const x of sent) expect(roundMs(x.rttMs as number)).toBe(tcpOf.get(x.connectionId));
  });

  test('timeout: the wait ends, what was unfinished fails with E_SCHEDULER_CLOSED, the server sees its connections closed', async () => {
    const { ended, run } = await runSession({ url: `${server.origin}/`, strategy: strategy('browser'), timeoutMs: 300 }, (s) => {
      s.enqueue({ url: `${server.origin}/fast`, priority: 'image' });
      s.enqueue({ url: `${server.origin}/hang`, priority: 'image' });
    });
    expect(ended).toBe('timeout');
    const byPath = new Map(run.requests.map((r) => [new URL(r.url).pathname, r]));
    expect(byPath.get('/fast')).toMatchObject({ status: 200, error: null });
    expect(byPath.get('/hang')).toMatchObject({ status: null, ttfbMs: null, error: { code: 'E_SCHEDULER_CLOSED' } });
    expect(server.paths.sort()).toEqual(['/fast', '/hang']);
    await server.allClosed();
    expect(server.openSockets()).toBe(0);
  });

  test('abort: the wait ends at once with "aborted" and the connections are closed', async () => {
    const controller = new AbortController();
    const done = runSession({ url: `${server.origin}/`, strategy: strategy('browser'), timeoutMs: 60_000, signal: controller.signal }, (s) => {
      s.enqueue({ url: `${server.origin}/hang`, priority: 'image' });
    });
    while (server.paths.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    const { ended, run } = await done;
    expect(ended).toBe('aborted');
    expect(run.requests[0]?.error?.code).toBe('E_SCHEDULER_CLOSED');
    await server.allClosed();
    expect(server.openSockets()).toBe(0);
  });

  test('a start that throws closes the session and rethrows', async () => {
    await expect(runSession({ url: 'x', strategy: strategy('browser') }, (s) => {
      s.enqueue({ url: 'ftp://a.test/', priority: 'image' });
    })).rejects.toMatchObject({ code: 'E_UNSUPPORTED_SCHEME' });
  });
});

describe('runPage: the setup and teardown every run of a page shares', () => {
  test('out of time: what finished is kept, the rest fails with E_LOAD_TIMEOUT naming the run, and no connection is left open', async () => {
    const url = `${server.origin}/`;
    const { ended, run } = await runPage({ url, strategy: strategy('browser'), timeoutMs: 300 }, {
      kind: 'replay',
      start: (s) => {
        s.enqueue({ url: `${server.origin}/fast`, priority: 'image' });
        s.enqueue({ url: `${server.origin}/hang`, priority: 'image' });
      },
    });
    expect(ended).toBe('timeout');
    const byPath = new Map(run.requests.map((r) => [new URL(r.url).pathname, r]));
    expect(byPath.get('/fast')).toMatchObject({ status: 200, error: null });
    expect(byPath.get('/hang')?.error).toEqual({ code: 'E_LOAD_TIMEOUT', message: `replaying ${url} with browser: still unfinished when the replay's 300 ms ran out` });
    await server.allClosed();
  });

  test('origin memory reaches only a strategy that uses it, and learns the page\'s answered origins', async () => {
    const url = `${server.origin}/`;
    for (const name of ['browser', 'getlist'] as const) {
      const memory = new InMemoryOriginMemory();
      const given: unknown[] = [];
      await runPage({ url, strategy: strategy(name), memory }, {
        kind: 'load',
        start: (s, m) => {
          given.push(m);
          s.enqueue({ url: `${server.origin}/fast`, priority: 'image' });
        },
        learn: (results) => ({ origins: originsUsed(results) }),
      });
      expect(given).toEqual([name === 'getlist' ? memory : undefined]);
      expect(memory.pageOrigins(url)).toEqual(name === 'getlist' ? [{ origin: server.origin, requests: 1 }] : []);
    }
  });

  test('a failed run (plan.check) teaches memory nothing; an abort rejects after closing every connection', async () => {
    const url = `${server.origin}/`;
    const memory = new InMemoryOriginMemory();
    await expect(runPage({ url, strategy: strategy('getlist'), memory }, {
      kind: 'load',
      start: (s) => void s.enqueue({ url: `${server.origin}/fast`, priority: 'image' }),
      check: () => {
        throw new Error('the document failed');
      },
      learn: (results) => ({ origins: originsUsed(results) }),
    })).rejects.toThrow('the document failed');
    expect(memory.pageOrigins(url)).toEqual([]);

    const controller = new AbortController();
    const done = runPage({ url, strategy: strategy('getlist'), memory, signal: controller.signal }, {
      kind: 'replay',
      start: (s) => void s.enqueue({ url: `${server.origin}/hang`, priority: 'image' }),
      learn: (results) => ({ origins: originsUsed(results) }),
    });
    while (!server.paths.includes('/hang')) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(memory.pageOrigins(url)).toEqual([]);
    await server.allClosed();
  });
});
