import { Agent, get, IncomingHttpHeaders, request } from 'node:http';
import { getBody, getPage } from '../../native-host/demo/corpus';
import { DemoServer, startDemoServer } from '../../native-host/demo/demo-server';
import { connectRaw, getRequest, readResponses } from './raw-http';

interface Fetched {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

function fetch(url: string, opts: { agent?: Agent; method?: string } = {}): Promise<Fetched> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: opts.agent, method: opts.method ?? 'GET' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('startDemoServer', () => {
  let server: DemoServer;
  const page = getPage('pm95');

  beforeEach(async () => {
    server = await startDemoServer();
  });
  afterEach(() => server.close());

  it('listens on an ephemeral loopback port', () => {
    expect(server.port).toBeGreaterThan(0);
    expect(server.origin).toBe(`http://127.0.0.1:${server.port}`);
  });

  it('serves the document and images with exact length, type and no-store', async () => {
    const doc = await fetch(server.origin + page.path);
    expect(doc.status).toBe(200);
    expect(doc.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(doc.headers['content-length']).toBe(String(page.documentSize));
    expect(doc.headers['cache-control']).toBe('no-store');
    expect(doc.headers['timing-allow-origin']).toBe('*');
    expect(doc.headers['transfer-encoding']).toBeUndefined();
    expect(doc.body.equals(getBody(page.path)?.body as Buffer)).toBe(true);

    const img = page.resources[0];
    const res = await fetch(`${server.origin}${img?.path}?bust=1`);
    expect(res.headers['content-type']).toBe('image/gif');
    expect(res.body.length).toBe(2544);
    expect(res.body.equals(getBody(img?.path ?? '')?.body as Buffer)).toBe(true);
  });

  it('answers 404 for unknown paths, 405 for other methods, and headers only for HEAD', async () => {
    expect((await fetch(`${server.origin}/nope`)).status).toBe(404);
    expect((await fetch(`${server.origin}/`)).status).toBe(404);
    const post = await fetch(server.origin + page.path, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    const head = await fetch(server.origin + page.path, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(page.documentSize));
    expect(head.body.length).toBe(0);
  });

  it('keeps connections alive and logs each request with its client port', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const r of page.resources.slice(0, 3)) expect((await fetch(server.origin + r.path, { agent })).status).toBe(200);
    } finally {
      agent.destroy();
    }
    expect(server.requestLog.map((e) => e.path)).toEqual(page.resources.slice(0, 3).map((r) => r.path));
    expect(new Set(server.requestLog.map((e) => e.remotePort)).size).toBe(1);
    expect(server.requestLog.every((e) => e.method === 'GET' && e.at > 0)).toBe(true);
    const ats = server.requestLog.map((e) => e.at);
    expect([...ats].sort((a, b) => a - b)).toEqual(ats);
  });

  it('answers pipelined requests (three in one write) completely and in order', async () => {
    const socket = await connectRaw(server.port);
    try {
      const paths = [page.path, page.resources[1]?.path ?? '', '/missing'];
      const responses = readResponses(socket, 3);
      socket.write(paths.map((p) => getRequest(p)).join(''));
      const [a, b, c] = await responses;
      expect(a?.status).toBe(200);
      expect(a?.body.equals(getBody(page.path)?.body as Buffer)).toBe(true);
      expect(b?.status).toBe(200);
      expect(b?.body.equals(getBody(paths[1] ?? '')?.body as Buffer)).toBe(true);
      expect(c?.status).toBe(404);
      expect(server.requestLog.map((e) => e.path)).toEqual(paths);
      expect(new Set(server.requestLog.map((e) => e.remotePort)).size).toBe(1);
    } finally {
      socket.destroy();
    }
  });

  it('close() destroys idle persistent connections and resolves', async () => {
    const socket = await connectRaw(server.port);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    const responses = readResponses(socket, 1).catch(() => []);
    socket.write(getRequest(page.path));
    expect(await responses).toHaveLength(1);
    await server.close();
    await closed; // the server did not wait for the 30 s keep-alive timeout
    await server.close(); // idempotent
    await expect(new Promise((resolve, reject) => get(server.origin + page.path, resolve).on('error', reject)))
      .rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});
