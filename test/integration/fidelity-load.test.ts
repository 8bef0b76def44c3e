import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { main } from '../../native-host/cli/main';
import { parseConnectTo, parseResolve } from '../../native-host/transport/host-mapping';

/**
 * `getlist load` as a browser would fetch: host mapping (`--resolve`, `--connect-to`), the
 * browser's Accept / Accept-Encoding, bodies decoded for scanning, wire and decoded bytes — each
 * checked against what a real server on port 0 received and sent.
 */
interface Seen {
  host: string;
  path: string;
  accept: string;
  acceptEncoding: string;
  wire: number;
  plain: number;
}

const PAGE = `<!doctype html><html><head><link rel=icon href=/i.png><link rel=stylesheet href=/s.css></head>
<body><div class=bg>${'text '.repeat(400)}</div><img src=/a.png srcset="/a.png 1x, /a2.png 2x"><img loading=lazy src=/far.png width=10 height=10 style="margin-top:9000px">
${'<div><img src=/tall.png width=1280 height=2000></div>'.repeat(3)}<img loading=lazy src=/lazy.png width=10 height=10></body></html>`;
const CSS = `.bg{background:url(/bg.png)} .none{background:url(/unused.png)} ${'.x{color:red}'.repeat(200)}`;

async function startSite(): Promise<{ port: number; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const text = path === '/' ? PAGE : path === '/s.css' ? CSS : undefined;
    const plain = Buffer.from(text ?? 'GIF89a');
    const gzip = text !== undefined && String(req.headers['accept-encoding']).includes('gzip');
    const body = gzip ? zlib.gzipSync(plain) : plain;
    res.writeHead(200, { 'content-type': path === '/' ? 'text/html' : path.endsWith('.css') ? 'text/css' : 'image/png', 'content-length': String(body.length), ...(gzip ? { 'content-encoding': 'gzip' } : {}) });
    res.end(body);
    seen.push({ host: String(req.headers.host), path, accept: String(req.headers.accept), acceptEncoding: String(req.headers['accept-encoding']), wire: body.length, plain: plain.length });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as AddressInfo).port, seen, close: () => new Promise((r) => server.close(() => r())) };
}

async function load(args: string[]): Promise<{ code: number; run: { requests: Array<{ url: string; resourceType: string | null; bytes: number; decodedBytes: number }>; skipped: Array<{ url: string; reason: string }>; handshakes: Array<{ dnsMs: number }> } }> {
  let out = '';
  const code = await main(['load', ...args, '--json', '--strategy', 'getlist'], { out: (t) => (out += t), err: () => undefined });
  return { code, run: (JSON.parse(out) as { runs: never[] }).runs[0] as never };
}

test('--connect-to loads a site under its real name from a local server: Host kept, DNS 0, browser headers, decoded bytes', async () => {
  const site = await startSite();
  try {
    const { code, run } = await load(['http://www.staging-site.test/', '--connect-to', `::127.0.0.1:${site.port}`]);
    expect(code).toBe(0);
    // The server saw the URL's host, never the address.
    expect(new Set(site.seen.map((s) => s.host))).toEqual(new Set(['www.staging-site.test']));
    expect(run.handshakes.every((h) => h.dnsMs === 0)).toBe(true);
    // What a browser fetches: the 1x candidate, the matched background, the favicon; lazy far below last.
    expect(site.seen.map((s) => s.path)).toEqual(expect.arrayContaining(['/', '/s.css', '/a.png', '/bg.png', '/i.png', '/lazy.png']));
    expect(site.seen.map((s) => s.path)).not.toEqual(expect.arrayContaining(['/a2.png']));
    expect(site.seen.map((s) => s.path)).not.toContain('/unused.png');
    expect(site.seen.map((s) => s.path).indexOf('/lazy.png')).toBe(site.seen.length - 1);
    // Browser Accept per destination, gzip/deflate over http (as Chromium: br only over https).
    const by = (p: string) => site.seen.find((s) => s.path === p) as Seen;
    expect(by('/').accept).toMatch(/^text\/html,/);
    expect(by('/s.css').accept).toBe('text/css,*/*;q=0.1');
    expect(by('/a.png').accept).toMatch(/^image\/avif,/);
    expect(by('/').acceptEncoding).toBe('gzip, deflate');
    // Wire bytes are what the server sent; decoded bytes what it compressed.
    for (const s of site.seen) {
      const r = run.requests.find((q) => new URL(q.url).pathname === s.path);
      expect([s.path, r?.bytes, r?.decodedBytes]).toEqual([s.path, s.wire, s.plain]);
    }
    expect(by('/').wire).toBeLessThan(by('/').plain / 3);
  } finally {
    await site.close();
  }
});

test('--resolve maps one host:port to an address; --no-lazy skips deferred lazy images and lists them', async () => {
  const site = await startSite();
  try {
    const { run } = await load([`http://static.example.test:${site.port}/`, '--resolve', `static.example.test:${site.port}:127.0.0.1`, '--no-lazy']);
    expect(site.seen[0]?.host).toBe(`static.example.test:${site.port}`);
    expect(run.skipped).toEqual([{ url: `http://static.example.test:${site.port}/lazy.png`, resourceType: 'image', reason: 'lazy' }]);
    expect(site.seen.map((s) => s.path)).not.toContain('/lazy.png');
  } finally {
    await site.close();
  }
});

test('mapping syntax: curl forms accepted, mistakes rejected with E_USAGE naming the flag', async () => {
  expect(parseResolve('example.com:443:127.0.0.1')).toEqual({ host: 'example.com', port: 443, target: '127.0.0.1', targetPort: undefined });
  expect(parseResolve('*:80:[::1]')).toEqual({ host: '*', port: 80, target: '::1', targetPort: undefined });
  expect(parseConnectTo('::127.0.0.1:8443')).toEqual({ host: '*', port: undefined, target: '127.0.0.1', targetPort: 8443 });
  expect(parseConnectTo('a.test:443:b.test:')).toEqual({ host: 'a.test', port: 443, target: 'b.test', targetPort: undefined });
  for (const [flag, value] of [['--resolve', 'example.com:443'], ['--resolve', 'example.com:443:not-an-ip'], ['--connect-to', 'a:b:c'], ['--viewport', '1280'], ['--dpr', '0']]) {
    let err = '';
    const code = await main(['load', 'http://x.test/', flag as string, value as string], { out: () => undefined, err: (t) => (err += t) });
    expect({ code, err }).toEqual({ code: 2, err: expect.stringMatching(new RegExp(`E_USAGE.*${flag as string}`)) });
  }
});
