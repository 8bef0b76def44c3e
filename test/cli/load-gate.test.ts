import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { startBadPortListener, type CountingListener } from '../support/counting-listener';

/**
 * `getlist load` on a page that names a bad port every way a page can: a preconnect and a
 * dns-prefetch hint, an image, a stylesheet over TLS, and a document that redirects there. A
 * counting listener on that port is the judge: under every strategy, nothing connects.
 */

const run = promisify(execFile);
const BIN = path.join(__dirname, '..', '..', 'bin', 'getlist.js');
const STRATEGIES = 'http10,browser,pipelined,getlist,h2';

let bad: CountingListener;
let server: http.Server;
let origin: string;
beforeAll(async () => {
  bad = await startBadPortListener();
  server = http.createServer((req, res) => {
    if (req.url === '/moved') {
      res.writeHead(302, { location: `${bad.origin('http')}/landing` });
      res.end();
      return;
    }
    if (req.url === '/page.html') {
      const html = [
        '<!doctype html><html><head>',
        `<link rel=preconnect href="${bad.origin('http')}">`,
        `<link rel=dns-prefetch href="//127.0.0.1:${bad.port}">`,
        `<link rel=stylesheet href="${bad.origin('https')}/s.css">`,
        '</head><body>',
        `<img src="${bad.origin('http')}/x.png" width=10 height=10>`,
        '<img src="/ok.png" width=10 height=10>',
        '</body></html>',
      ].join('\n');
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(html) });
      res.end(html);
      return;
    }
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
    res.writeHead(200, { 'content-type': 'image/png', 'content-length': png.length });
    res.end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await bad.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface JsonRun {
  strategy: string;
  requests: Array<{ url: string; error?: { code: string } | null }>;
}

async function load(url: string, strategies: string, ...flags: string[]): Promise<{ code: number; runs: JsonRun[]; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, 'load', url, '--strategy', strategies, '--json', '--timeout', '10000', ...flags], { env: { ...process.env, GETLIST_DATA_DIR: '/nonexistent-getlist-test' } });
    return { code: 0, runs: (JSON.parse(stdout) as { runs: JsonRun[] }).runs, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, runs: e.stdout ? (JSON.parse(e.stdout) as { runs: JsonRun[] }).runs : [], stderr: e.stderr };
  }
}

test('hints, subresources and a redirect to a bad port: E_UNSAFE_PORT under every strategy, and not one connection', async () => {
  const page = await load(`${origin}/page.html`, STRATEGIES, '--revisit');
  expect(page.runs.map((r) => r.strategy)).toEqual(STRATEGIES.split(','));
  for (const r of page.runs) {
    const codes = Object.fromEntries(r.requests.map((q) => [q.url, q.error?.code ?? 'ok']));
    expect(codes).toMatchObject({ [`${bad.origin('http')}/x.png`]: 'E_UNSAFE_PORT', [`${bad.origin('https')}/s.css`]: 'E_UNSAFE_PORT', [`${origin}/ok.png`]: 'ok' });
  }
  const moved = await load(`${origin}/moved`, STRATEGIES);
  expect(moved.code).not.toBe(0);
  expect(moved.stderr + JSON.stringify(moved.runs)).toContain('E_UNSAFE_PORT');
  expect(bad.accepts()).toBe(0);
}, 60_000);

test('--allow-unsafe-ports lets the same page connect there (the listener counts)', async () => {
  await load(`${origin}/page.html`, 'browser', '--allow-unsafe-ports', '--idle-timeout', '300');
  expect(bad.accepts()).toBeGreaterThan(0);
}, 60_000);
