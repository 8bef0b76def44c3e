import { request as httpRequest } from 'node:http';
import { connect as h2connect } from 'node:http2';
import { X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connect as tlsConnect } from 'node:tls';
import { ALMANAC_ORIGINS, benchPageBuild, getBenchPage } from '../../bench/corpus/bench-corpus';
import { spkiHash, startOrigins, type Origins } from '../../bench/origins/start-origins';
import { connectRaw, getRequest, readResponses } from '../demo/raw-http';
import { describeWithNginx, eventually, loopback } from './nginx-gate';
import { NGINX_TLS_FIRST_FLIGHT_SEGMENTS } from '../../bench/real/real-bounds';

const ORIGINS = [ALMANAC_ORIGINS.www, ALMANAC_ORIGINS.static, ALMANAC_ORIGINS.cdn1];
const PAGE = 'mcmanus-159';

function get(url: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

describeWithNginx('nginx origins on loopback (3 origins)', () => {
  let origins: Origins;
  const page = getBenchPage(PAGE);
  const build = benchPageBuild(PAGE);
  const expected = (path: string): Buffer => build.bodyOf(page.origins[0] ?? '', path, () => '')?.body ?? Buffer.alloc(0);

  beforeAll(async () => {
    origins = await startOrigins({ bindings: loopback(ORIGINS), pages: [PAGE, 'pm95-2544-10'] });
  });
  afterAll(async () => {
    const dir = origins?.dir;
    await origins?.stop();
    if (dir !== undefined) expect(existsSync(dir)).toBe(false);
  });

  it('serves the document and resources over HTTP/1.1 with exact bytes, types and Timing-Allow-Origin', async () => {
    const doc = await get(origins.pageUrl(PAGE, 'http'));
    expect(doc.status).toBe(200);
    expect(doc.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(doc.body.equals(expected(page.document.path))).toBe(true);
    // Single-origin pages are on every origin; take resources of each kind from another one.
    const base = origins.urls[ALMANAC_ORIGINS.static]?.http ?? '';
    for (const kind of ['stylesheet', 'script', 'font', 'image'] as const) {
      const r = page.resources.find((x) => x.kind === kind);
      if (r === undefined) throw new Error(`${PAGE} has no ${kind}`);
      const res = await get(`${base}${r.path}`);
      expect([r.path, res.status, res.headers['content-type'], res.headers['timing-allow-origin'], res.headers['content-length']])
        .toEqual([r.path, 200, r.contentType, '*', String(r.size)]);
      expect(res.body.equals(expected(r.path))).toBe(true);
    }
    expect((await get(`${base}/no/such/file.gif`)).status).toBe(404);
  });

  it('answers 3 pipelined GETs sent in one write, in order, on one connection', async () => {
    const cdn1 = origins.origins.find((o) => o.origin === ALMANAC_ORIGINS.cdn1);
    if (cdn1 === undefined) throw new Error('cdn1 not bound');
    const paths = page.resources.slice(0, 3).map((r) => r.path);
    const socket = await connectRaw(cdn1.httpPort);
    try {
      const responses = readResponses(socket, 3);
      socket.write(paths.map((p) => getRequest(p, cdn1.origin)).join(''));
      const got = await responses;
      expect(got.map((r) => r.status)).toEqual([200, 200, 200]);
      expect(got.map((r) => r.body.equals(expected(paths[got.indexOf(r)] ?? '')))).toEqual([true, true, true]);
    } finally {
      socket.destroy();
    }
    const log = await eventually(() => origins.accessLog().filter((e) => e.port === cdn1.httpPort && paths.includes(e.path)), (l) => l.length >= 3);
    expect(log.map((e) => [e.path, e.connectionRequests, e.protocol])).toEqual(paths.map((p, i) => [p, i + 1, 'HTTP/1.1']));
    expect(new Set(log.map((e) => e.connection)).size).toBe(1);
    expect(log.every((e) => e.origin === ALMANAC_ORIGINS.cdn1)).toBe(true);
  });

  it('speaks HTTP/2 over TLS (ALPN h2) with a certificate the run\'s CA signed', async () => {
    const url = origins.pageUrl(PAGE, 'https', ALMANAC_ORIGINS.www);
    const session = h2connect(new URL(url).origin, { ca: origins.caPem });
    try {
      await new Promise<void>((resolve, reject) => {
        session.once('connect', () => resolve());
        session.once('error', reject);
      });
      expect(session.alpnProtocol).toBe('h2');
      const fetchH2 = (path: string) => new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const stream = session.request({ ':path': path });
        const chunks: Buffer[] = [];
        let headers: Record<string, unknown> = {};
        stream.on('response', (h) => { headers = h; });
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve({ headers, body: Buffer.concat(chunks) }));
        stream.on('error', reject);
      });
      const paths = [page.document.path, ...page.resources.slice(0, 4).map((r) => r.path)];
      const got = await Promise.all(paths.map(fetchH2));
      for (const [i, r] of got.entries()) {
        expect([paths[i], r.headers[':status'], r.headers['timing-allow-origin']]).toEqual([paths[i], 200, '*']);
        expect(r.body.equals(expected(paths[i] ?? ''))).toBe(true);
      }
    } finally {
      session.close();
    }
    const log = await eventually(() => origins.accessLog().filter((e) => e.protocol === 'HTTP/2.0'), (l) => l.length >= 5);
    expect(log.length).toBeGreaterThanOrEqual(5);
    expect(new Set(log.map((e) => e.connection)).size).toBe(1);
  });

  it('over TLS 1.3 sends, as soon as the handshake ends, the session tickets the lower bound\'s first flight leaves out', async () => {
    const { address, httpsPort, origin } = origins.origins[1] ?? { address: '', httpsPort: 0, origin: '' };
    // Nothing is sent after the handshake: every ticket counted comes before any request could be answered.
    const tickets = await new Promise<number>((resolve, reject) => {
      let n = 0;
      const socket = tlsConnect({ host: address, port: httpsPort, servername: origin, ca: origins.caPem, ALPNProtocols: ['h2'], minVersion: 'TLSv1.3' }, () => {
        setTimeout(() => {
          socket.destroy();
          resolve(n);
        }, 300);
      });
      socket.on('session', () => n++);
      socket.once('error', reject);
    });
    expect(tickets).toBe(NGINX_TLS_FIRST_FLIGHT_SEGMENTS);
  });

  it('gives Chromium the SPKI hash of the certificate nginx serves', async () => {
    const { address, httpsPort } = origins.origins[1] ?? { address: '', httpsPort: 0 };
    const served = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: address, port: httpsPort, ca: origins.caPem, ALPNProtocols: ['http/1.1'] }, () => {
        const raw = socket.getPeerCertificate().raw;
        socket.destroy();
        resolve(spkiHash(new X509Certificate(raw).toString()));
      });
      socket.once('error', reject);
    });
    expect(origins.spkiHash).toBe(served);
    expect(origins.spkiHash).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(origins.caSpkiHash).toBe(spkiHash(origins.caPem));
  });
});

describeWithNginx('nginx origins: several at once (as bench --jobs runs them)', () => {
  it('share one exit listener, which goes when the last stops; each removes its own tree', async () => {
    const before = process.listenerCount('exit');
    const many = await Promise.all(Array.from({ length: 6 }, () => startOrigins({ bindings: loopback([ALMANAC_ORIGINS.www]), pages: ['pm95-2544-1'] })));
    try {
      expect(process.listenerCount('exit')).toBe(before + 1);
      for (const o of many) expect((await get(o.pageUrl('pm95-2544-1', 'http'))).status).toBe(200);
    } finally {
      await Promise.all(many.map((o) => o.stop()));
    }
    expect(process.listenerCount('exit')).toBe(before);
    for (const o of many) expect(existsSync(o.dir)).toBe(false);
  });
});
