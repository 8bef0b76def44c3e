import net from 'node:net';
import type { HostMessage, MeasuredReply } from '../../src/protocol';
import { frame, SpawnedHost } from './host-harness';
import { startTestOrigin, type TestOrigin } from './test-origin';

let host: SpawnedHost;
let a: TestOrigin;
let b: TestOrigin;
beforeEach(async () => {
  [a, b] = await Promise.all([startTestOrigin(), startTestOrigin()]);
  host = new SpawnedHost();
});
afterEach(async () => {
  await host.dispose();
  await Promise.all([a.close(), b.close()]);
  expect(host.reader.violations).toEqual([]);
});

function measured(m: HostMessage): MeasuredReply {
  if (m.type !== 'measured') throw new Error(`expected a measured reply, got ${JSON.stringify(m)}`);
  return m;
}

test('two origins: one timed connection each, nothing fetched; a second page on one of them finds it warm', async () => {
  const before = Date.now();
  const first = measured(
    await host.ask({
      type: 'schedule',
      id: 'page-1',
      pageId: 'tab1-nav1',
      documentUrl: `${a.origin}/index.html`,
      requests: [
        { url: `${a.origin}/index.html`, priority: 'document' },
        { url: `${b.origin}/style.css`, priority: 'blocking', discoveredAt: 12.5, resourceType: 'stylesheet' },
        { url: `${a.origin}/a.png`, priority: 'image', inViewport: true },
        { url: `${b.origin}/b.png`, priority: 'image', method: 'HEAD' },
      ],
    }),
  );
  const after = Date.now();
  expect(first).toMatchObject({ pageId: 'tab1-nav1', warm: [], failed: [] });
  expect(first.handshakes.map((h) => h.origin)).toEqual([a.origin, b.origin]);
  for (const [h, server] of [[first.handshakes[0], a], [first.handshakes[1], b]] as const) {
    expect(h).toMatchObject({ protocol: 'http/1.1', resumed: false, dnsMs: 0, tlsMs: 0, remoteAddress: '127.0.0.1', remotePort: server.port });
    expect(h?.tcpMs).toBeGreaterThanOrEqual(0);
    expect(h?.totalMs).toBeGreaterThanOrEqual(h?.tcpMs ?? Infinity);
    expect(h?.startedAt).toBeGreaterThanOrEqual(before);
    expect(h?.startedAt).toBeLessThanOrEqual(after);
  }
  expect(new Set(first.handshakes.map((h) => h.connectionId)).size).toBe(2);
  // One connection per origin, and not one request on them.
  expect([a.accepted(), b.accepted()]).toEqual([1, 1]);
  expect([...a.requests, ...b.requests]).toEqual([]);
  // The connections are held open (warm).
  expect([a.open(), b.open()]).toEqual([1, 1]);

  const second = measured(
    await host.ask({ type: 'schedule', id: 'page-2', pageId: 'tab2-nav1', documentUrl: `${a.origin}/other.html`, requests: [{ url: `${a.origin}/c.png`, priority: 'image' }] }),
  );
  expect(second).toEqual({ type: 'measured', id: 'page-2', pageId: 'tab2-nav1', handshakes: [], warm: [a.origin], failed: [], storeHealth: { state: 'ok', pending: expect.any(Number), dropped: 0 } });
  expect(a.accepted()).toBe(1);
});

test('an origin that refuses connections is reported failed with the socket error; the others are measured', async () => {
  const closed = await unusedPort();
  const reply = measured(
    await host.ask({
      type: 'schedule',
      id: 'p',
      pageId: 'p',
      documentUrl: `${a.origin}/`,
      requests: [{ url: `http://127.0.0.1:${closed}/x.js`, priority: 'script' }],
    }),
  );
  expect(reply.handshakes.map((h) => h.origin)).toEqual([a.origin]);
  expect(reply.failed).toEqual([{ origin: `http://127.0.0.1:${closed}`, code: 'ECONNREFUSED', message: expect.any(String) }]);
  await host.expectAlive('after');
});

test('measured handshakes reach the store and show in stats, export and forget', async () => {
  await host.ask({ type: 'schedule', id: 'm', pageId: 'p', documentUrl: `${a.origin}/`, requests: [{ url: `${b.origin}/x`, priority: 'image' }] });
  const stats = await host.ask({ type: 'stats', id: 's1' });
  expect(stats).toMatchObject({ type: 'stats', count: 2 });
  const one = await host.ask({ type: 'stats', id: 's2', origin: b.origin });
  expect(one).toMatchObject({ type: 'stats', count: 1, groups: expect.arrayContaining([expect.objectContaining({ group: 'origin', key: b.origin, count: 1 })]) });
  const prom = await host.ask({ type: 'export', id: 'e1', format: 'prom' });
  expect(prom).toMatchObject({ type: 'export', format: 'prom', mimeType: expect.stringMatching(/^text\/plain; version=0\.0\.4/) });
  expect((prom as { data: string }).data).toContain(`origin="${a.origin}"`);
  const csv = await host.ask({ type: 'export', id: 'e2', format: 'csv', origin: a.origin });
  expect((csv as { data: string }).data).toMatch(/^group,key,phase,ms,cdf,count\r\n/);
  expect((csv as { data: string }).data).not.toContain(b.origin);
  // Forgetting an origin also forgets what was measured for pages on it, so forget b (a page on a).
  expect(await host.ask({ type: 'forget', id: 'f1', origin: b.origin })).toEqual({ type: 'forgotten', id: 'f1', removed: 1 });
  expect(await host.ask({ type: 'stats', id: 's3' })).toMatchObject({ count: 1, groups: expect.arrayContaining([expect.objectContaining({ group: 'origin', key: a.origin })]) });
  expect(await host.ask({ type: 'forget', id: 'f2', all: true })).toEqual({ type: 'forgotten', id: 'f2', removed: 1 });
  expect(await host.ask({ type: 'stats', id: 's4' })).toMatchObject({ count: 0, groups: [] });
});

test('a ping that repeats its type as "forget", and a forget naming nothing, are refused and forget nothing', async () => {
  await host.ask({ type: 'schedule', id: 'm', pageId: 'p', documentUrl: `${a.origin}/`, requests: [{ url: `${b.origin}/x`, priority: 'image' }] });
  expect(await host.ask({ type: 'stats', id: 's1' })).toMatchObject({ count: 2 });
  // JSON.parse keeps a repeated key's last value: read naively, this frame is a forget of everything.
  host.sendRaw(frame('{"type":"ping","id":"dup","type":"forget"}'));
  expect(await host.reader.waitFor((m) => m.type === 'error' && m.id === null, 'the reply to the ambiguous frame')).toEqual({
    type: 'error',
    id: null,
    code: 'E_DUPLICATE_KEY',
    message: expect.stringMatching(/^key "type" appears twice in the top-level object;/),
  });
  expect(await host.ask({ type: 'forget', id: 'bare' })).toMatchObject({ type: 'error', id: 'bare', code: 'E_MISSING_FIELD' });
  expect(await host.ask({ type: 'stats', id: 's2' })).toMatchObject({ count: 2 });
  expect(host.reader.messages.filter((m) => m.type === 'forgotten' || m.id === 'dup')).toEqual([]);
  expect(host.stderr).not.toMatch(/forgot/);
});

async function unusedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}
