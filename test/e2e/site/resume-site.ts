import { createHash } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { gifPictureBytes } from '../../../native-host/demo/synth-bytes';

/** One request as the resume site saw it. */
export interface ResumeRequest {
  path: string;
  /** `Range` ('' when none). */
  range: string;
  /** `Sec-Purpose` ('' when none). */
  purpose: string;
  status: number;
}

export interface ResumeSite {
  origin: string;
  requests: ResumeRequest[];
  /** Body bytes of the large image. */
  imageBytes: number;
  /** Bytes of the image written so far on its first, full response. */
  imageSent(): number;
  close(): Promise<void>;
}

const IMAGE = gifPictureBytes(400_000, 'resume-site', { width: 800, height: 420 });
const ETAG = `"${createHash('sha256').update(IMAGE).digest('hex').slice(0, 16)}"`;
/** The full image trickles out: a prerender discarded meanwhile leaves part of it in the cache. */
const CHUNK = 16_000;
const CHUNK_EVERY_MS = 40;

/**
 * A small https site for what Chromium's HTTP cache does with a body it holds in part: `/a.html`
 * shows `/big.gif` (400 kB, immutable, a strong ETag, byte ranges served), sent slowly in full and
 * at once for a range; `/start.html` and `/other.html` are plain pages. Every request is logged
 * with its `Range` and `Sec-Purpose`.
 */
export async function startResumeSite(tls: { cert: string | Buffer; key: string | Buffer }): Promise<ResumeSite> {
  const requests: ResumeRequest[] = [];
  let sent = 0;
  const server = https.createServer({ ...tls, ALPNProtocols: ['http/1.1'] }, (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const range = req.headers.range ?? '';
    const purpose = (req.headers['sec-purpose'] as string | undefined) ?? '';
    if (path !== '/big.gif') {
      const status = path === '/favicon.ico' ? 404 : 200;
      requests.push({ path, range, purpose, status });
      const body = status === 404 ? '' : page(path);
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', 'content-length': String(Buffer.byteLength(body)) });
      res.end(body);
      return;
    }
    const headers = { 'content-type': 'image/gif', 'cache-control': 'public, max-age=31536000, immutable', etag: ETAG, 'last-modified': 'Mon, 01 Jan 2024 00:00:00 GMT', 'accept-ranges': 'bytes' };
    const m = /^bytes=(\d+)-(\d*)$/.exec(range);
    if (m) {
      const start = Number(m[1]);
      const end = m[2] === '' ? IMAGE.length - 1 : Math.min(Number(m[2]), IMAGE.length - 1);
      requests.push({ path, range, purpose, status: 206 });
      res.writeHead(206, { ...headers, 'content-range': `bytes ${start}-${end}/${IMAGE.length}`, 'content-length': String(end - start + 1) });
      res.end(IMAGE.subarray(start, end + 1));
      return;
    }
    requests.push({ path, range, purpose, status: 200 });
    res.writeHead(200, { ...headers, 'content-length': String(IMAGE.length) });
    const first = sent === 0;
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed || at >= IMAGE.length) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      const chunk = IMAGE.subarray(at, at + CHUNK);
      at += chunk.length;
      if (first) sent = at;
      res.write(chunk);
    }, CHUNK_EVERY_MS);
    res.on('close', () => clearInterval(timer));
  });
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    requests,
    imageBytes: IMAGE.length,
    imageSent: () => sent,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}

function page(path: string): string {
  const body = path === '/a.html' ? '<img src="/big.gif" width="800" height="420" alt="">' : '<a href="/a.html">A</a>';
  return `<!doctype html><html><head><meta charset="utf-8"><title>${path}</title></head><body><h1>${path}</h1>${body}</body></html>`;
}
