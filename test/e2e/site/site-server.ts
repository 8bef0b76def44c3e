import fs from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { repoRoot } from '../../support/repo-root';

const PAGES = path.join(repoRoot(__dirname), 'test', 'e2e', 'site', 'pages');

/** One request as a site server saw it. */
export interface SiteRequest {
  /** The origin of the server that answered (`http://127.0.0.1:<port>`). */
  origin: string;
  method: string;
  /** Path and query, as sent. */
  path: string;
  /** `origin + path`: what the browser's webRequest reports as the URL. */
  url: string;
  userAgent: string;
  referer: string | undefined;
  /** The request carried a Cookie header. */
  cookie: boolean;
  /** The client's port: a handshake the host recorded names the same port as its `localPort`. */
  remotePort: number;
  at: number;
  /** HTTP/1.1 only, once the response finished: the bytes the server wrote for it (status line, headers, body). */
  responseBytes?: number;
}

/** One TCP connection a site server accepted. */
export interface SiteConnection {
  origin: string;
  remotePort: number;
  at: number;
  /** Bytes the server has written on it so far (TCP payload: HTTP/1.1 as is; TLS records for h2). */
  bytesWritten(): number;
}

export interface SiteOptions {
  /**
   * Serve HTTP/2 over TLS (no HTTP/1.1 fallback) with this certificate, for `127.0.0.1`; the
   * browsers must be told to trust it (launchChromium `spkiHashes`, launchFirefox accepts it).
   */
  h2?: { certPath: string; keyPath: string };
  /**
   * Serve the pages (`.html`) `max-age=0` instead of `no-store`: the browser's cache keeps them, as
   * it does most sites' documents, and every load still reaches the server (no validator to revalidate with).
   */
  storablePages?: boolean;
}

export interface Site {
  /** The site's own origin: the pages live here. */
  main: string;
  /** The second origin (another port), for cross-origin resources. */
  other: string;
  requests: SiteRequest[];
  connections: SiteConnection[];
  /** `main + '/' + page`. */
  url(page: string): string;
  close(): Promise<void>;
}

/** True for requests getlist's host made (measure opens connections only; replay fetches with this user agent). */
export function isFromHost(r: SiteRequest): boolean {
  return r.userAgent.startsWith('getlist/');
}

/**
 * The e2e test site: two HTTP servers on 127.0.0.1, port 0 each, so two origins. Both serve the
 * same routes; every request and connection is logged so tests compare what the extension
 * observed with what reached the wire.
 *
 * Routes: `/<page>.html` and `/<file>.css|.js` from `pages/` (`{{OTHER}}` becomes the other
 * origin, `{{BAD_PORT}}` the `?bad-port=N` parameter); `/img/<anything>.png` a 16×16 PNG (`?bytes=N` pads it to N bytes); `/font/<anything>.woff2`
 * a few bytes served as a font with `Access-Control-Allow-Origin: *` (fonts are fetched with CORS).
 * `?delay=MS` holds the response back; `?body-delay=MS` then sends the headers and the body up to
 * its `<html` and holds the rest back (a document committed with no element parsed yet); `?tao=1` adds `Timing-Allow-Origin: *`; `?redirect=3xx` answers
 * that status with a Location to the same URL without the parameter; anything else is a
 * 404 (text/plain). Everything is `no-store` (pages `max-age=0` with `options.storablePages`), so each page load reaches the servers. With
 * `options.h2` both origins are `https:` and speak HTTP/2 only.
 */
export async function startSite(options: SiteOptions = {}): Promise<Site> {
  const requests: SiteRequest[] = [];
  const connections: SiteConnection[] = [];
  const origins: string[] = [];
  const serve = (index: 0 | 1) => (req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse) => {
    const origin = origins[index] ?? '';
    const other = origins[index === 0 ? 1 : 0] ?? '';
    const pathAndQuery = req.url ?? '/';
    const logged: SiteRequest = {
      origin,
      method: req.method ?? '',
      path: pathAndQuery,
      url: origin + pathAndQuery,
      userAgent: req.headers['user-agent'] ?? '',
      referer: req.headers.referer,
      cookie: req.headers.cookie !== undefined,
      remotePort: req.socket.remotePort ?? 0,
      at: Date.now(),
    };
    requests.push(logged);
    if (res instanceof http.ServerResponse) {
      // Browsers do not pipeline: what the socket wrote since this request arrived is its response.
      const before = req.socket.bytesWritten;
      res.on('finish', () => (logged.responseBytes = req.socket.bytesWritten - before));
    }
    const url = new URL(pathAndQuery, origin);
    const delay = Number(url.searchParams.get('delay') ?? '0');
    const bodyDelay = Number(url.searchParams.get('body-delay') ?? '0');
    const headers: Record<string, string> = { 'cache-control': options.storablePages && url.pathname.endsWith('.html') ? 'max-age=0' : 'no-store' };
    if (url.searchParams.get('tao') === '1') headers['timing-allow-origin'] = '*';
    if (url.pathname.startsWith('/font/')) headers['access-control-allow-origin'] = '*';
    const found = resolve(url.pathname, other, Number(url.searchParams.get('bytes') ?? '0'), /^\d{1,5}$/.exec(url.searchParams.get('bad-port') ?? '')?.[0] ?? '0');
    const redirect = Number(url.searchParams.get('redirect') ?? '0');
    const send = () => {
      if (redirect >= 300 && redirect < 400) {
        url.searchParams.delete('redirect');
        res.writeHead(redirect, { ...headers, location: url.pathname + url.search, 'content-type': 'text/plain', 'content-length': String(REDIRECT_BODY.length) });
        res.end(REDIRECT_BODY);
        return;
      }
      if (!found) {
        res.writeHead(404, { ...headers, 'content-type': 'text/plain' });
        res.end('not found');
        return;
      }
      res.writeHead(200, { ...headers, 'content-type': found.type, 'content-length': String(found.body.length) });
      if (req.method === 'HEAD') res.end();
      else if (bodyDelay > 0) {
        const split = Math.max(0, found.body.indexOf('<html'));
        if (split > 0) (res as { write(chunk: Buffer): boolean }).write(found.body.subarray(0, split));
        // HTTP/2's compatibility response sends its headers at writeHead.
        else if (res instanceof http.ServerResponse) res.flushHeaders();
        setTimeout(() => res.end(found.body.subarray(split)), Math.min(bodyDelay, 5000));
      } else res.end(found.body);
    };
    if (delay > 0) setTimeout(send, Math.min(delay, 5000));
    else send();
  };
  const h2 = options.h2;
  const tls = h2 ? { cert: fs.readFileSync(h2.certPath), key: fs.readFileSync(h2.keyPath), allowHTTP1: false } : undefined;
  const servers = tls ? [http2.createSecureServer(tls, serve(0)), http2.createSecureServer(tls, serve(1))] : [http.createServer(serve(0)), http.createServer(serve(1))];
  const sockets = new Set<Socket>();
  for (const [i, server] of servers.entries()) {
    server.on('connection', (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      connections.push({ origin: origins[i] ?? '', remotePort: socket.remotePort ?? 0, at: Date.now(), bytesWritten: () => socket.bytesWritten });
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    origins.push(`${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
  const [main = '', other = ''] = origins;
  return {
    main,
    other,
    requests,
    connections,
    url: (page) => `${main}/${page}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise<void>((ok) => s.close(() => ok()))));
    },
  };
}

/** The body of a redirect response: a few bytes, so a browser that sizes the hop has something to count. */
const REDIRECT_BODY = Buffer.from('moved: see Location\n');

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript' };

/** `bytes` pads a PNG to that size (decoders ignore what follows IEND): big enough bodies make ±1 % byte checks meaningful. */
function resolve(pathname: string, other: string, bytes = 0, badPort = '0'): { type: string; body: Buffer } | undefined {
  if (pathname.startsWith('/img/') && pathname.endsWith('.png')) {
    return { type: 'image/png', body: bytes > PNG.length ? Buffer.concat([PNG, Buffer.alloc(Math.min(bytes, 4 << 20) - PNG.length)]) : PNG };
  }
  if (pathname.startsWith('/font/') && pathname.endsWith('.woff2')) return { type: 'font/woff2', body: FONT };
  const name = pathname === '/' ? 'index.html' : pathname.slice(1);
  const type = TYPES[path.extname(name)];
  if (!type || name.includes('/') || name.includes('..')) return undefined;
  const file = path.join(PAGES, name);
  if (!fs.existsSync(file)) return undefined;
  return { type, body: Buffer.from(fs.readFileSync(file, 'utf8').replaceAll('{{OTHER}}', other).replaceAll('{{BAD_PORT}}', badPort)) };
}

/** A 16×16 opaque PNG, built once (no binary fixture in the tree). */
const PNG = makePng(16, 16, [0x2a, 0x7a, 0xe2]);
/** Not a valid font (the browser fetches it, fails to decode it and falls back): only its fetch matters. */
const FONT = Buffer.from('wOF2 getlist e2e font placeholder');

function makePng(width: number, height: number, rgb: readonly number[]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit depth, truecolour, deflate, no filter, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}
