import http from 'node:http';
import net from 'node:net';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { main } from '../../native-host/cli/main';
import { startDemoServer, type DemoServer } from '../../native-host/demo/demo-server';
import { getPage } from '../../native-host/demo/corpus';

function capture() {
  let out = '';
  let err = '';
  return { io: { out: (s: string) => void (out += s), err: (s: string) => void (err += s) }, out: () => out, err: () => err };
}

let demo: DemoServer;
beforeAll(async () => {
  demo = await startDemoServer();
});
afterAll(async () => {
  await demo.close();
});

describe('getlist load', () => {
  test('--json prints one object with a run per strategy and every resource of the page', async () => {
    const c = capture();
    const page = getPage('pm95');
    const url = `${demo.origin}${page.path}`;
    const code = await main(['load', url, '--strategy', 'browser,getlist', '--json'], c.io);
    expect(code).toBe(0);
    const doc = JSON.parse(c.out());
    expect(doc.url).toBe(url);
    expect(doc.runs.map((r: { strategy: string }) => r.strategy)).toEqual(['browser', 'getlist']);
    for (const run of doc.runs) {
      expect(run.requests).toHaveLength(page.resources.length + 1);
      expect(run.requests.every((r: { status: number; error?: unknown }) => r.status === 200 && !r.error)).toBe(true);
      expect(run.bytes).toBe(page.documentSize + page.resources.reduce((a, r) => a + r.size, 0));
      expect(run.handshakes.length).toBe(run.connectionsOpened);
      for (const key of ['totalMs', 'meanTtfbMs', 'connectionsOpened']) expect(typeof run[key]).toBe('number');
      for (const r of run.requests) for (const key of ['url', 'status', 'bytes', 'connectionId', 'reused', 'pipelined', 'ttfbMs', 'doneMs']) expect(r).toHaveProperty(key);
      for (const h of run.handshakes) for (const key of ['origin', 'dnsMs', 'tcpMs', 'tlsMs', 'totalMs', 'protocol', 'resumed']) expect(h).toHaveProperty(key);
    }
  });

  test('--repeat interleaves strategies and the table lists each strategy once', async () => {
    const c = capture();
    const code = await main(['load', `${demo.origin}${getPage('pm95').path}`, '--strategy', 'serial,pipelined', '--repeat', '2'], c.io);
    expect(code).toBe(0);
    expect(c.err().match(/run \d\/2/g)).toEqual(['run 1/2', 'run 1/2', 'run 2/2', 'run 2/2']);
    expect(c.out()).toMatch(/^serial\s+\d/m);
    expect(c.out()).toMatch(/^pipelined\s+\d/m);
    expect(c.out()).toMatch(/hs p50 ms/);
  });

  test.each([
    [['load', 'not a url'], 'E_INVALID_URL', 1],
    [['load', 'ftp://example.test/'], 'E_UNSUPPORTED_SCHEME', 1],
    [['load'], 'E_USAGE', 2],
    [['load', 'http://127.0.0.1:1/', '--repeat', 'many'], 'E_USAGE', 2],
    [['load', 'http://127.0.0.1:1/', '--strategy', 'fastest'], 'E_USAGE', 2],
    [['load', 'http://127.0.0.1:1/', '--bogus'], 'E_USAGE', 2],
    [['frobnicate'], 'E_USAGE', 2],
  ])('%j fails with %s, exit %d', async (argv, code, exit) => {
    const c = capture();
    expect(await main(argv, c.io)).toBe(exit);
    expect(c.err()).toContain(`getlist: ${code}: `);
    expect(c.out()).toBe('');
  });

  test.each([
    [['--ca', '/dev/zero'], /^getlist: E_CA_FILE: CA file \/dev\/zero: it is a character device, not a regular file; /],
    [['--memory', '/dev/zero'], /^getlist: E_MEMORY_FILE: cannot read origin memory \/dev\/zero: it is a character device, not a regular file; /],
    [['--memory', '/dev'], /^getlist: E_MEMORY_FILE: cannot read origin memory \/dev: it is a directory, not a regular file; /],
  ])('load %j is refused before anything is fetched', async (flags, message) => {
    const before = demo.requestLog.length;
    const c = capture();
    expect(await main(['load', `${demo.origin}${getPage('pm95').path}`, '--strategy', 'getlist', ...flags], c.io)).toBe(1);
    expect(c.err()).toMatch(message);
    expect(demo.requestLog.length).toBe(before);
  });

  test('an unreachable host gives E_CONNECT_FAILED with the socket error', async () => {
    const port = await freePort();
    const c = capture();
    expect(await main(['load', `http://127.0.0.1:${port}/`, '--strategy', 'getlist'], c.io)).toBe(1);
    expect(c.err()).toMatch(/getlist: E_CONNECT_FAILED: .*ECONNREFUSED/);
  });

  test('a non-HTML document gives E_NOT_HTML; an HTTP error gives E_HTTP_STATUS', async () => {
    const server = http.createServer((req, res) => {
      if (req.url === '/data.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>no</h1>');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const origin = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    try {
      const a = capture();
      expect(await main(['load', `${origin}/data.json`, '--strategy', 'getlist'], a.io)).toBe(1);
      expect(a.err()).toMatch(/getlist: E_NOT_HTML: .*application\/json/);
      const b = capture();
      expect(await main(['load', `${origin}/missing`, '--strategy', 'getlist'], b.io)).toBe(1);
      expect(b.err()).toMatch(/getlist: E_HTTP_STATUS: .*404/);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});

describe('getlist demo', () => {
  test('--json on a short emulated link: every strategy loads every page request; getlist beats http10', async () => {
    const c = capture();
    const code = await main(['demo', '--rtt', '10', '--page', 'pm95', '--json'], c.io);
    expect(code).toBe(0);
    const doc = JSON.parse(c.out());
    expect(doc.link.rttMs).toBe(10);
    const [page] = doc.pages;
    expect(page.page).toBe('pm95-2544-10');
    const by = Object.fromEntries(page.runs.map((r: { strategy: string }) => [r.strategy, r]));
    expect(Object.keys(by)).toEqual(['http10', 'browser', 'pipelined', 'getlist']);
    for (const run of page.runs) expect(run.requests).toHaveLength(page.requests);
    expect(by.http10.connectionsOpened).toBe(page.requests);
    expect(by.pipelined.connectionsOpened).toBe(1);
    expect(by.getlist.totalMs).toBeLessThan(by.http10.totalMs);
    expect(doc.handshakeCdf.total.at(-1).cdf).toBe(1);
  });
});

describe('the installed launcher', () => {
  test('bin/getlist.js exits non-zero with the code on stderr and nothing on stdout', () => {
    const bin = path.join(__dirname, '..', '..', 'bin', 'getlist.js');
    const r = spawnSync(process.execPath, [bin, 'load', 'nope://x'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^getlist: E_UNSUPPORTED_SCHEME: /);
  });
});

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
