import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import zlib from 'node:zlib';
import { testCert } from '../support/tls-cert';
import { FIDELITY_DIR, type FidelityFixture } from './fidelity-corpus';
import { ttfToWoff2 } from './woff2';

/** One response as the server wrote it. */
export interface ServedRequest {
  /** `scheme://host/path?query` as the client asked (Host header, TLS or not). */
  url: string;
  status: number;
  /** Body bytes written (after compression). */
  wireBytes: number;
  /** `GET`, or `HEAD` (getlist's framing probe, src/scheduler/order-probe.ts, or Chromium's own). */
  method: string;
  encoding: string | undefined;
  userAgent: string;
}

export interface CatchAllOrigin {
  port: number;
  /** Every response so far, in order. */
  log: ServedRequest[];
  /** Which fixture answers from now on. */
  serve(fixture: FidelityFixture): void;
  close(): Promise<void>;
}

/**
 * A valid PNG of `side`×`side` transparent pixels. Icons must be real images of the size they
 * claim: a browser that cannot decode an icon, or finds it a poor fit, downloads the next one.
 */
function pngOfSize(side: number): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const rows = Buffer.alloc(side * (1 + side * 4)); // filter byte 0 + transparent pixels
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** An SVG with a viewBox only (scalable, as icon SVGs are) or of a fixed size. */
function svgOfSize(side: number | undefined): Buffer {
  const size = side === undefined ? 'viewBox="0 0 16 16"' : `width="${side}" height="${side}"`;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" ${size}><symbol id="search" viewBox="0 0 1 1"/><rect width="16" height="16" fill="#c00"/></svg>`);
}

/** A `.ico` holding 16×16 and 32×32 PNG images, as a site's favicon.ico does. */
function icoFile(): Buffer {
  const images = [pngOfSize(16), pngOfSize(32)];
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach((png, i) => {
    const e = 6 + 16 * i;
    header[e] = i === 0 ? 16 : 32;
    header[e + 1] = i === 0 ? 16 : 32;
    header.writeUInt16LE(1, e + 4);
    header.writeUInt16LE(32, e + 6);
    header.writeUInt32LE(png.length, e + 8);
    header.writeUInt32LE(offset, e + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images]);
}

/** The size an image path claims (`favicon-32x32.png`, `favicon-192.png`), 16 for other icons, else 1. */
function claimedSide(pathname: string): number {
  const m = /(\d+)x\1\b/.exec(pathname) ?? (/icon/i.test(pathname) ? /-(\d+)\.\w+$/.exec(pathname) : null);
  if (m) return Math.min(512, Number(m[1]));
  return /icon/i.test(pathname) ? 16 : 1;
}
const FONT_FILE = '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf';
const TEXT_TYPES = /^(text\/|application\/javascript|image\/svg)/;

/**
 * Every host name on one port (the browser maps `*` to it, getlist connects there with
 * `--connect-to`): TLS and cleartext on the same socket, told apart by the first byte. Answers
 * from the current fixture's files, or with a small body of the right type for any other path
 * (a real font for fonts, so a browser does not fall back to the next `src`). Logs what it wrote,
 * so both clients are observed by the same independent witness.
 */
export async function startCatchAllOrigin(): Promise<CatchAllOrigin> {
  let fixture: FidelityFixture | undefined;
  const log: ServedRequest[] = [];
  const ttf = fs.existsSync(FONT_FILE) ? fs.readFileSync(FONT_FILE) : Buffer.alloc(0);
  const fonts = { ttf, woff2: ttf.length > 0 ? ttfToWoff2(ttf) : ttf };
  const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
    const secure = (req.socket as TLSSocket).encrypted === true;
    const host = String(req.headers.host ?? '').replace(/:(80|443)$/, '');
    const url = `${secure ? 'https' : 'http'}://${host}${req.url ?? '/'}`;
    const answer = fixture ? respond(fixture, url, fonts) : undefined;
    const status = answer ? 200 : 404;
    let body = answer?.body ?? Buffer.from('not found');
    let encoding: string | undefined;
    const accepted = String(req.headers['accept-encoding'] ?? '');
    if (answer && fixture?.compress && TEXT_TYPES.test(answer.type)) {
      if (/\bbr\b/.test(accepted)) {
        encoding = 'br';
        body = zlib.brotliCompressSync(body);
      } else if (/\bgzip\b/.test(accepted)) {
        encoding = 'gzip';
        body = zlib.gzipSync(body);
      }
    }
    // Fonts and CDNs allow cross-origin use, as real font hosts do (fonts are fetched in CORS mode).
    const headers: Record<string, string> = { 'content-type': answer?.type ?? 'text/plain', 'content-length': String(body.length), 'cache-control': 'no-store', 'access-control-allow-origin': '*' };
    if (encoding) headers['content-encoding'] = encoding;
    if (answer && fixture?.compress) headers['vary'] = 'Accept-Encoding';
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
    log.push({ url, status, wireBytes: req.method === 'HEAD' ? 0 : body.length, method: req.method ?? 'GET', encoding, userAgent: String(req.headers['user-agent'] ?? '') });
  };
  const cert = testCert();
  const plain = http.createServer(handler);
  const secure = https.createServer({ key: cert.key, cert: cert.cert }, handler);
  const sockets = new Set<net.Socket>();
  const front = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return {
    port: (front.address() as AddressInfo).port,
    log,
    serve: (f) => {
      fixture = f;
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}

function respond(fixture: FidelityFixture, url: string, fonts: { ttf: Buffer; woff2: Buffer }): { type: string; body: Buffer } | undefined {
  const dir = path.join(FIDELITY_DIR, fixture.name);
  const u = new URL(url);
  if (u.href === new URL(fixture.url).href) return { type: fixture.documentType, body: fs.readFileSync(path.join(dir, 'index.html')) };
  let file: string;
  try {
    file = path.join(dir, u.hostname, decodeURIComponent(u.pathname));
  } catch {
    return undefined;
  }
  const ext = path.extname(u.pathname).toLowerCase();
  if (file.startsWith(dir) && fs.existsSync(file) && fs.statSync(file).isFile()) {
    const css = ext === '.css' || u.searchParams.get('only') === 'styles';
    return { type: css ? 'text/css' : ext === '.js' || ext === '.php' ? 'application/javascript' : 'application/octet-stream', body: fs.readFileSync(file) };
  }
  switch (ext) {
    case '.png':
    case '.gif':
    case '.jpg':
    case '.jpeg':
    case '.ico':
      return { type: 'image/x-icon', body: icoFile() };
    case '.webp':
    case '.avif':
    case '.cur':
      return { type: 'image/png', body: pngOfSize(claimedSide(u.pathname)) };
    case '.svg':
      return { type: 'image/svg+xml', body: svgOfSize(/\d+x\d+/.test(u.pathname) ? claimedSide(u.pathname) : undefined) };
    case '.woff2':
      return { type: 'font/woff2', body: fonts.woff2 };
    case '.woff':
    case '.ttf':
    case '.otf':
      return { type: 'font/ttf', body: fonts.ttf };
    case '.js':
    case '.php':
      return u.pathname.includes('vignette') ? { type: 'image/png', body: pngOfSize(1) } : { type: 'application/javascript', body: Buffer.from('/* script */\n') };
    case '.css':
      return { type: 'text/css', body: Buffer.from('/* empty */\n') };
    case '.html':
      return { type: 'text/html', body: Buffer.from('<!doctype html><title>frame</title><p>frame</p>') };
    case '.mp4':
    case '.webm':
    case '.swf':
      return { type: 'application/octet-stream', body: Buffer.alloc(64) };
    default:
      return undefined;
  }
}
