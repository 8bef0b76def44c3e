/**
 * The overhead benchmark's pages: `/page-N.html` holds N distinct images (`/img/N-i.png`), each
 * a small PNG-sized body, all `no-store`, served by one HTTP/1.1 server on 127.0.0.1, port 0
 * (over the packet-level link: on the server namespace's address, port 80; overhead-link-site.ts).
 * The page has no script of its own, so a page's main-thread script time is the extension's.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface OverheadSite {
  origin: string;
  url(resources: number): string;
  close(): Promise<void>;
}

/** A body the size of a small icon; its bytes do not matter, only that each URL is fetched. */
const IMAGE = Buffer.alloc(600, 0x2a);

export function pageHtml(resources: number): string {
  const imgs = Array.from({ length: resources }, (_, i) => `<img src="/img/${resources}-${i}.png" width="16" height="16" alt="">`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${resources} resources</title><link rel="icon" href="data:,"></head><body><h1>${resources} images</h1>\n${imgs.join('\n')}\n</body></html>\n`;
}

export interface OverheadSiteOptions {
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 0 (any free port) */
  port?: number;
}

export async function startOverheadSite(options: OverheadSiteOptions = {}): Promise<OverheadSite> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    // Each run loads its own URL (`?run=i`): the query names the load, not the page.
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const page = /^\/page-(\d+)\.html$/.exec(path);
    if (page) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(pageHtml(Number(page[1])));
    } else if (path.startsWith('/img/')) {
      res.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store', 'content-length': String(IMAGE.length) }).end(IMAGE);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', fail);
      ok();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = port === 80 ? `http://${host}` : `http://${host}:${port}`;
  return {
    origin,
    url: (n) => `${origin}/page-${n}.html`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
