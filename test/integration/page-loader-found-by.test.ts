import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { strategy } from '../../src/scheduler';
import { loadPage } from '../../native-host/run/page-loader';
import { runStructure } from '../../src/bound/run-bound';

/** document → a.css → @import b.css → (font face used by the page's text, background image); the document names an image too. */
const BODIES: Record<string, [string, string]> = {
  '/': ['text/html', '<!doctype html><html><head><link rel=stylesheet href="/a.css"><style>.s{background:url(/inline.gif)}</style></head><body><p class="x s">text</p><div class=y>box</div><img src="/pic.gif"></body></html>'],
  '/a.css': ['text/css', '@import url("/b.css");\n.x{color:red}\n'],
  '/b.css': ['text/css', '@font-face{font-family:F;src:url(/f.woff2) format("woff2")}\np{font-family:F}\n.y{background:url(/bg.gif)}\n'],
  '/f.woff2': ['font/woff2', 'wOF2'],
  '/bg.gif': ['image/gif', 'GIF89a'],
  '/pic.gif': ['image/gif', 'GIF89a'],
  '/inline.gif': ['image/gif', 'GIF89a'],
};

describe('loadPage: each request names what named it (foundBy)', () => {
  test.each(['browser', 'getlist'])('%s: markup names the document, an @import its sheet, fonts and url()s the sheet that holds them', async (name) => {
    const server = createServer((req, res) => {
      const body = BODIES[req.url ?? ''];
      if (body === undefined) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': body[0] }).end(body[1]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = await loadPage({ url: `${base}/`, strategy: strategy(name) });
      const foundBy = new Map(run.requests.map((r) => [r.url.slice(base.length), r.foundBy?.slice(base.length) ?? null]));
      expect(Object.fromEntries(foundBy)).toEqual({
        '/': null, '/a.css': '/', '/b.css': '/a.css', '/f.woff2': '/b.css', '/bg.gif': '/b.css', '/pic.gif': '/', '/inline.gif': '/',
        // The page has no icon link: the browser asks for /favicon.ico, named by the document (a 404 here).
        '/favicon.ico': '/',
      });
      const levels = new Map(runStructure(run)?.structure.requests.map((r) => [r.key.slice(base.length), r.level]));
      expect(Object.fromEntries(levels)).toEqual({ '/': 1, '/a.css': 2, '/pic.gif': 2, '/inline.gif': 2, '/b.css': 3, '/f.woff2': 4, '/bg.gif': 4, '/favicon.ico': 2 });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
