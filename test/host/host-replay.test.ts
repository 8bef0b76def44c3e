import type { PriorityClass } from '../../src/core/priority';
import type { HostMessage, ReplayResultMessage, ReplaySummaryMessage } from '../../src/protocol';
import { MAX_MESSAGE_BYTES } from '../../src/protocol';
import { eachWithHostAndOrigin, SpawnedHost } from './host-harness';
import type { TestOrigin } from './test-origin';

let host: SpawnedHost;
let origin: TestOrigin;
eachWithHostAndOrigin((h, o) => {
  host = h;
  origin = o;
});

const PRIORITIES: PriorityClass[] = ['document', 'blocking', 'font', 'visible-image', 'script', 'image', 'other', 'prefetch'];

/** Waits for a replay's summary and returns every message of it in order. */
async function replayMessages(id: string): Promise<HostMessage[]> {
  await host.reader.waitFor((m) => m.id === id && (m.type === 'replay-summary' || m.type === 'error'), `the end of replay ${id}`);
  return host.reader.withId(id);
}

test('a 20-request list replayed with browser and getlist: a result per strategy as it completes, then the summary', async () => {
  const sizes = Array.from({ length: 20 }, (_, i) => (i === 3 ? 0 : i === 7 ? 200_000 : 100 * i + 17));
  const list = sizes.map((size, i) => ({
    url: `${origin.origin}/r/${i}?size=${size}`,
    priority: PRIORITIES[i % PRIORITIES.length],
    ...(i === 5 ? { method: 'HEAD' } : {}),
    resourceType: i === 0 ? 'main_frame' : 'image',
    discoveredAt: i * 3,
  }));
  host.send({ type: 'schedule', id: 'r1', pageId: 'page-1', documentUrl: `${origin.origin}/r/0`, mode: 'replay', strategies: ['browser', 'getlist'], requests: list });
  const messages = await replayMessages('r1');
  expect(messages.map((m) => m.type)).toEqual(['replay-result', 'replay-result', 'replay-summary']);
  const results = messages.slice(0, 2) as ReplayResultMessage[];
  expect(results.map((r) => r.strategy)).toEqual(['browser', 'getlist']);
  for (const r of results) {
    expect(r.pageId).toBe('page-1');
    expect(r.requests.map((q) => q.url)).toEqual(list.map((l) => l.url));
    expect(r.requests.map((q) => q.status)).toEqual(list.map(() => 200));
    expect(r.requests.map((q) => q.bytes)).toEqual(sizes.map((s, i) => (i === 5 ? 0 : s)));
    expect(r.requests.map((q) => q.method)).toEqual(list.map((l) => l.method ?? 'GET'));
    expect(r.requests.map((q) => q.priority)).toEqual(list.map((l) => l.priority));
    expect(r.requests[0]?.resourceType).toBe('main_frame');
    expect(r.requests.every((q) => q.error === null && q.attempts === 1 && typeof q.ttfbMs === 'number' && q.doneMs >= (q.sentMs ?? Infinity))).toBe(true);
  }
  const summary = messages[2] as ReplaySummaryMessage;
  const total = sizes.reduce((s, x, i) => s + (i === 5 ? 0 : x), 0);
  expect(summary.summaries.map((s) => s.strategy)).toEqual(['browser', 'getlist']);
  summary.summaries.forEach((s, i) => {
    expect(s).toMatchObject({ bytes: total, errors: 0, requests: list.length });
    expect(s.connectionsOpened).toBeGreaterThanOrEqual(1);
    expect(s.connectionsOpened).toBeLessThanOrEqual(6);
    // Per connection that carried a response: one opened after the list was done carries none.
    const used = new Set(results[i]?.requests.map((q) => q.connectionId)).size;
    expect(used).toBeLessThanOrEqual(s.connectionsOpened);
    expect(s.requestsPerConnection).toBeCloseTo(20 / used, 2);
    expect(s.handshakeP90Ms).toBeGreaterThanOrEqual(s.handshakeP50Ms as number);
    expect(s.totalMs).toBeGreaterThan(0);
  });
  // Both strategies fetched every URL, on their own connections (fresh pools); beside them at most
  // the getlist framing probe's one HEAD (src/scheduler/order-probe.ts), never a GET more.
  const listHeads = list.filter((l) => l.method === 'HEAD').length;
  expect(origin.requests.filter((r) => r.method !== 'HEAD')).toHaveLength(2 * (list.length - listHeads));
  expect([0, 1]).toContain(origin.requests.filter((r) => r.method === 'HEAD').length - 2 * listHeads);
  const connections = summary.summaries.reduce((s, x) => s + x.connectionsOpened, 0);
  expect(origin.accepted()).toBe(connections);
  await origin.drained();
});

test('requests carry only the fixed headers: no cookies, no credentials', async () => {
  host.send({
    type: 'schedule',
    id: 'r2',
    pageId: 'p',
    documentUrl: `${origin.origin}/`,
    mode: 'replay',
    strategies: ['getlist'],
    requests: [{ url: `${origin.origin}/private?size=3`, priority: 'document' }],
  });
  const [result] = await replayMessages('r2');
  expect(result).toMatchObject({ type: 'replay-result', requests: [{ status: 200, bytes: 3 }] });
  expect(origin.requests).toHaveLength(1);
  const headers = origin.requests[0]?.headers ?? {};
  expect(Object.keys(headers).sort()).toEqual(['accept', 'accept-encoding', 'connection', 'host', 'user-agent']);
  expect(headers['user-agent']).toMatch(/^getlist\//);
});

test('replays ask as a browser does and report wire and decoded bytes as the server wrote them', async () => {
  host.send({
    type: 'schedule',
    id: 'r5',
    pageId: 'p',
    documentUrl: `${origin.origin}/`,
    mode: 'replay',
    strategies: ['getlist'],
    requests: [
      { url: `${origin.origin}/doc?size=5000&gzip=1`, priority: 'document', resourceType: 'main_frame' },
      { url: `${origin.origin}/img?size=700`, priority: 'image', resourceType: 'image' },
    ],
  });
  const [result] = (await replayMessages('r5')) as [ReplayResultMessage];
  const seen = (path: string) => origin.requests.find((q) => q.url.startsWith(path));
  // bodyFor's bytes are pseudo-random, so gzip only adds its framing: wire and decoded sizes differ.
  expect(seen('/doc')?.wireBytes).not.toBe(seen('/doc')?.plainBytes);
  expect(result.requests.map((q) => [new URL(q.url).pathname, q.bytes, q.decodedBytes])).toEqual([
    ['/doc', seen('/doc')?.wireBytes, seen('/doc')?.plainBytes],
    ['/img', seen('/img')?.wireBytes, seen('/img')?.plainBytes],
  ]);
  expect(seen('/doc')?.headers.accept).toMatch(/^text\/html,/);
  expect(seen('/img')?.headers.accept).toMatch(/^image\//);
  expect(seen('/doc')?.headers['accept-encoding']).toBe('gzip, deflate');
});

test('replays write their handshakes and page summaries to the store', async () => {
  host.send({
    type: 'schedule',
    id: 'r3',
    pageId: 'p',
    documentUrl: `${origin.origin}/`,
    mode: 'replay',
    strategies: ['pipelined', 'http10'],
    requests: [1, 2, 3].map((i) => ({ url: `${origin.origin}/${i}?size=${i}`, priority: 'image' })),
  });
  const messages = await replayMessages('r3');
  const summary = messages.at(-1) as ReplaySummaryMessage;
  expect(summary.summaries.map((s) => [s.strategy, s.connectionsOpened])).toEqual([['pipelined', 1], ['http10', 3]]);
  expect(await host.ask({ type: 'stats', id: 's' })).toMatchObject({ count: 4 });
  const exported = await host.ask({ type: 'export', id: 'e', format: 'json' });
  const doc = JSON.parse((exported as { data: string }).data) as { count: number; pages: Array<{ strategy: string; mode: string; pageId: string; requests: number; bytes: number }> };
  expect(doc.count).toBe(4);
  expect(doc.pages.map((p) => [p.strategy, p.mode, p.pageId, p.requests, p.bytes])).toEqual([['pipelined', 'replay', 'p', 3, 6], ['http10', 'replay', 'p', 3, 6]]);
});

test('a replay reply over 1 MiB arrives as chunks, each frame under 1 MiB, and reassembles exactly', async () => {
  // 2000 URLs with ~600-character query strings make each replay-result about 2 MB of JSON.
  const pad = 'q'.repeat(600);
  const list = Array.from({ length: 2000 }, (_, i) => ({ url: `${origin.origin}/item/${i}?size=${i % 50}&pad=${pad}`, priority: 'image', resourceType: 'bild-ß-🖼' }));
  host.send({ type: 'schedule', id: 'big', pageId: 'big-page', documentUrl: `${origin.origin}/`, mode: 'replay', strategies: ['getlist'], requests: list });
  const [result, summary] = await replayMessages('big');
  const chunks = host.reader.frames.filter((f) => f.message.type === 'chunk' && f.message.id === 'big');
  expect(chunks.length).toBeGreaterThanOrEqual(2);
  for (const c of chunks) expect(c.bytes).toBeLessThan(MAX_MESSAGE_BYTES);
  expect(chunks.map((c) => (c.message as { seq: number }).seq)).toEqual(chunks.map((_, i) => i));
  // Every frame, chunk or not, is under the limit (the reader also enforces this).
  for (const f of host.reader.frames) expect(f.bytes).toBeLessThan(MAX_MESSAGE_BYTES);

  const r = result as ReplayResultMessage;
  expect(r.type).toBe('replay-result');
  expect(r.requests).toHaveLength(2000);
  expect(r.requests.map((q) => q.url)).toEqual(list.map((l) => l.url));
  expect(r.requests.map((q) => q.bytes)).toEqual(list.map((_, i) => i % 50));
  expect(r.requests.every((q) => q.resourceType === 'bild-ß-🖼' && q.status === 200)).toBe(true);
  // The slices joined are exactly the JSON the host serialised.
  const joined = chunks.map((c) => (c.message as { data: string }).data).join('');
  expect(joined).toBe(JSON.stringify(r));
  expect(summary).toMatchObject({ type: 'replay-summary', summaries: [{ strategy: 'getlist', errors: 0 }] });
  await host.expectAlive('after');
});
