import { endianness } from 'node:os';
import { NativePort, type NativePortLike } from '../../extension/background/native-port';
import type { ExportReply, ForgottenReply, MeasuredReply, PongReply, ReplayResultMessage, ReplaySummaryMessage, StatsReply } from '../../src/protocol';
import { SpawnedHost } from '../host/host-harness';
import { startTestOrigin, type TestOrigin } from '../host/test-origin';

/**
 * The extension's NativePort talking to the real host (`bin/getlist.js host`, needs `npm run
 * build`) over its stdio frames, as the browser relays them: every request resolves with the
 * reply type `ReplyOf` promises, and what those replies say agrees with the test origin's own log.
 */

/** The browser's side of `runtime.connectNative`: frames the port's messages onto stdin, splits stdout into messages. */
function browserPort(host: SpawnedHost): NativePortLike {
  const messageListeners: Array<(m: unknown) => void> = [];
  const disconnectListeners: Array<(p: NativePortLike) => void> = [];
  let buf = Buffer.alloc(0);
  host.child.stdout.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    while (buf.length >= 4) {
      const n = endianness() === 'LE' ? buf.readUInt32LE(0) : buf.readUInt32BE(0);
      if (buf.length < 4 + n) return;
      const message: unknown = JSON.parse(buf.subarray(4, 4 + n).toString('utf8'));
      buf = buf.subarray(4 + n);
      for (const l of messageListeners) l(message);
    }
  });
  const port: NativePortLike = {
    postMessage: (m) => host.send(m),
    disconnect: () => host.child.stdin.end(),
    onMessage: { addListener: (l) => void messageListeners.push(l) },
    onDisconnect: { addListener: (l) => void disconnectListeners.push(l) },
  };
  host.child.once('exit', () => disconnectListeners.forEach((l) => l(port)));
  return port;
}

let host: SpawnedHost;
let origin: TestOrigin;
/**
 * The origin's count of accepted connections once it has caught up with `expected`. The host is
 * another process: its reply can be read before this process has run the server's `connection`
 * callback for a socket the kernel already accepted, so the count may lag behind for a moment; it
 * never runs ahead. Waits at most 2 s, then returns what it has (and the assertion says what).
 */
async function acceptedOnceSettled(expected: number): Promise<number> {
  for (let i = 0; i < 200 && origin.accepted() < expected; i++) await new Promise((r) => setTimeout(r, 10));
  return origin.accepted();
}

beforeEach(async () => {
  origin = await startTestOrigin();
  host = new SpawnedHost();
});
afterEach(async () => {
  await host.dispose();
  await origin.close();
  expect(host.reader.violations).toEqual([]);
});

test('measure, replay, stats, export and forget against the real host: typed replies that agree with the wire', async () => {
  const port = new NativePort({ connectNative: () => browserPort(host), warn: (m) => { throw new Error(`unexpected warning: ${m}`); } });
  const pong: PongReply = await port.request({ type: 'ping' });
  expect(pong.type).toBe('pong');
  expect(port.status).toMatchObject({ state: 'ok', hostVersion: expect.any(String) });

  const documentUrl = `${origin.origin}/doc?size=300`;
  const measured: MeasuredReply = await port.request({ type: 'schedule', pageId: 'p1', documentUrl, requests: [{ url: documentUrl, priority: 'document' }], mode: 'measure' });
  expect(measured.handshakes.map((h) => h.origin)).toEqual([origin.origin]);
  expect(await acceptedOnceSettled(1)).toBe(1);
  expect(origin.requests).toEqual([]); // measuring fetches nothing

  const sizes = [300, 1200, 0, 4000];
  const list = sizes.map((size, i) => ({ url: `${origin.origin}/r/${i}?size=${size}`, priority: i === 0 ? ('document' as const) : ('image' as const) }));
  const results: ReplayResultMessage[] = [];
  const summary: ReplaySummaryMessage = await port.request(
    { type: 'schedule', pageId: 'p1', documentUrl: list[0]!.url, requests: list, mode: 'replay', strategies: ['browser', 'getlist'] },
    { onProgress: (r) => results.push(r), timeoutMs: 30_000 },
  );
  expect(results.map((r) => r.strategy)).toEqual(['browser', 'getlist']);
  expect(summary.summaries.map((s) => s.strategy)).toEqual(['browser', 'getlist']);
  for (const r of results) expect(r.requests.map((q) => q.bytes)).toEqual(sizes);
  // The origin saw each list once per strategy, on as many new connections as the summaries say.
  expect(origin.requests.map((q) => q.url).sort()).toEqual([...list, ...list].map((l) => new URL(l.url).pathname + new URL(l.url).search).sort());
  const opened = 1 + summary.summaries.reduce((n, s) => n + s.connectionsOpened, 0);
  expect(await acceptedOnceSettled(opened)).toBe(opened);

  // Every connection the host opened is a stored handshake.
  const stats: StatsReply = await port.request({ type: 'stats', origin: origin.origin });
  expect(stats.count).toBe(origin.accepted());
  const csv: ExportReply = await port.request({ type: 'export', format: 'csv' });
  expect(csv.data).toMatch(/^group,key,phase,ms,cdf,count\r\n/);
  const forgotten: ForgottenReply = await port.request({ type: 'forget', all: true });
  expect(forgotten.removed).toBeGreaterThanOrEqual(stats.count);
  expect((await port.request({ type: 'stats' })).count).toBe(0);

  expect(port.pendingCount).toBe(0);
  port.disconnect();
  expect((await host.exited).code).toBe(0);
});
