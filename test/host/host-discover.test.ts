import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import { runHost } from '../../native-host/host/host';
import type { DiscoveredReply, HostMessage } from '../../src/protocol';
import { startBadPortListener } from '../support/counting-listener';
import { FrameReader } from './frame-reader';
import { frame } from './host-harness';

/**
 * `discover`: the host finds what a page names as a browser would — CSS rules matched to its
 * elements, fonts for the text that uses them, a cross-origin sheet's too — fetching only the
 * document and its style sheets, with no cookie. The servers' own logs are the judge.
 */

interface Seen {
  url: string;
  cookie: string | undefined;
}

interface Server {
  origin: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function serve(files: Record<string, [string, string]>): Promise<Server> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ url: req.url ?? '', cookie: req.headers.cookie });
    const file = files[req.url ?? ''];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    // The page sets a cookie: a browser would send it back; the host must not.
    res.writeHead(200, { 'content-type': file[0], 'set-cookie': 'session=secret; Path=/' }).end(file[1]);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, seen, close: () => new Promise((r) => server.close(() => r())) };
}

function startHost() {
  const stdin = new PassThrough();
  const reader = new FrameReader();
  const stdout = new Writable({ write: (chunk: Buffer, _enc, cb) => (reader.push(chunk), cb()) });
  const stderr = new Writable({ write: (_chunk: Buffer, _enc, cb) => cb() });
  const stop = new AbortController();
  const exited = runHost({ stdin, stdout, stderr, hostVersion: '9.9.9', signal: stop.signal });
  const ask = (m: { id: string } & Record<string, unknown>): Promise<HostMessage> => {
    stdin.write(frame(JSON.stringify(m)));
    return reader.waitFor((x) => x.id === m.id, `reply ${m.id}`);
  };
  return { ask, reader, close: async () => (stdin.end(), await exited) };
}

let other: Server;
let main: Server;
let host: ReturnType<typeof startHost>;
beforeEach(async () => {
  other = await serve({ '/b.css': ['text/css', '.cross { width: 10px; height: 10px; background-image: url(/img/cross.png); }'] });
  main = await serve({
    '/page.html': ['text/html', `<!doctype html><html><head><link rel="stylesheet" href="/a.css"><link rel="stylesheet" href="${other.origin}/b.css"><script src="/j.js"></script></head>
      <body><div class="hero">hero</div><div class="cross">cross</div><p class="face">text in a web font</p><img src="/img/p.png" width="10" height="10" alt=""></body></html>`],
    '/a.css': ['text/css', '@font-face { font-family: "F"; src: url(/font/f.woff2) format("woff2"); }\n.face { font-family: "F", serif; }\n.hero { height: 10px; background-image: url(/img/bg.png); }\n.unused { background-image: url(/img/unused.png); }'],
  });
  host = startHost();
});
afterEach(async () => {
  await host.close();
  expect(host.reader.violations).toEqual([]);
  await Promise.all([main.close(), other.close()]);
});

test('what the page names through its markup and its style sheets, the other origin’s included; only the document and the sheets fetched, never a cookie', async () => {
  const reply = (await host.ask({ type: 'discover', id: 'd-1', url: `${main.origin}/page.html` })) as DiscoveredReply;
  expect(reply.type).toBe('discovered');
  expect(reply.url).toBe(`${main.origin}/page.html`);
  const found = reply.resources.map((r) => `${r.via} ${r.as} ${r.url}`);
  expect(found).toEqual(
    expect.arrayContaining([
      `html style ${main.origin}/a.css`,
      `html style ${other.origin}/b.css`,
      `html script ${main.origin}/j.js`,
      `html image ${main.origin}/img/p.png`,
      `css image ${main.origin}/img/bg.png`,
      `css font ${main.origin}/font/f.woff2`,
      `css image ${other.origin}/img/cross.png`,
    ]),
  );
  // A rule no element matches names nothing.
  expect(found.some((f) => f.includes('unused.png'))).toBe(false);
  // The servers saw the document and the sheets, each once, and nothing else; no Cookie header.
  expect(main.seen.map((s) => s.url).sort()).toEqual(['/a.css', '/page.html']);
  expect(other.seen.map((s) => s.url)).toEqual(['/b.css']);
  expect([...main.seen, ...other.seen].filter((s) => s.cookie !== undefined)).toEqual([]);
});

test('a page that cannot be loaded is E_PAGE_UNAVAILABLE; a bad port is refused by the gate before any connection', async () => {
  const missing = await host.ask({ type: 'discover', id: 'd-2', url: `${main.origin}/missing.html` });
  expect(missing).toMatchObject({ type: 'error', code: 'E_PAGE_UNAVAILABLE' });
  const bad = await startBadPortListener();
  try {
    const refused = await host.ask({ type: 'discover', id: 'd-3', url: `${bad.origin('http')}/page.html` });
    expect(refused).toMatchObject({ type: 'error', code: 'E_PAGE_UNAVAILABLE' });
    expect((refused as { message: string }).message).toMatch(/E_UNSAFE_PORT|unsafe|port/i);
    expect(bad.accepts()).toBe(0);
  } finally {
    await bad.close();
  }
});

test('a malformed discover is refused with a stable code', async () => {
  expect(await host.ask({ type: 'discover', id: 'd-4', url: 'ftp://example.test/' })).toMatchObject({ type: 'error', code: 'E_UNSUPPORTED_SCHEME' });
  expect(await host.ask({ type: 'discover', id: 'd-5' })).toMatchObject({ type: 'error', code: 'E_MISSING_FIELD' });
});
