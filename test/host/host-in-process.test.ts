import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runHost } from '../../native-host/host/host';
import type { HandshakeStore } from '../../native-host/store/store-types';
import { PROTOCOL_VERSION, type HostMessage } from '../../src/protocol';
import { FrameReader } from './frame-reader';
import { frame } from './host-harness';
import { MemoryStore } from './memory-store';
import { startTestOrigin, type TestOrigin } from './test-origin';

/** `runHost` on in-memory streams: the same host, observable without a process boundary. */
function startHost(store?: HandshakeStore) {
  const stdin = new PassThrough();
  const reader = new FrameReader();
  let log = '';
  const stdout = new Writable({ write: (chunk: Buffer, _enc, cb) => (reader.push(chunk), cb()) });
  const stderr = new Writable({ write: (chunk: Buffer, _enc, cb) => ((log += chunk.toString()), cb()) });
  const stop = new AbortController();
  const exited = runHost({ stdin, stdout, stderr, hostVersion: '9.9.9', signal: stop.signal, ...(store ? { store } : {}) });
  const ask = (m: { id: string } & Record<string, unknown>): Promise<HostMessage> => {
    stdin.write(frame(JSON.stringify(m)));
    return reader.waitFor((x) => x.id === m.id, `reply ${m.id}`);
  };
  return { stdin, reader, ask, exited, stop, log: () => log };
}

let origin: TestOrigin;
beforeEach(async () => {
  origin = await startTestOrigin();
});
afterEach(async () => {
  await origin.close();
});

test('when runHost returns, it has closed every socket it opened: warm ones and a replay in flight', async () => {
  const h = startHost();
  await h.ask({ id: 'm', type: 'schedule', pageId: 'p', documentUrl: `${origin.origin}/`, requests: [] });
  origin.hold();
  h.stdin.write(frame(JSON.stringify({ id: 'r', type: 'schedule', pageId: 'p', documentUrl: `${origin.origin}/`, mode: 'replay', strategies: ['browser'], requests: [{ url: `${origin.origin}/a`, priority: 'image' }] })));
  while (origin.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
  expect(origin.open()).toBe(2);
  h.stdin.end();
  expect(await h.exited).toBe(0);
  // This process is still running: only the host's own closing can bring the count to 0.
  await origin.drained();
  expect(h.reader.withId('r')).toEqual([]);
  expect(h.reader.violations).toEqual([]);
});

test('aborting the signal (SIGTERM in the CLI) stops the host like EOF does', async () => {
  const store = new MemoryStore();
  const h = startHost(store);
  await h.ask({ id: 'm', type: 'schedule', pageId: 'p', documentUrl: `${origin.origin}/`, requests: [] });
  h.stop.abort();
  expect(await h.exited).toBe(0);
  await origin.drained();
  expect(store.closed).toBe(true);
});

test('measure and replay write to the store: handshakes by source, one page summary per strategy', async () => {
  const store = new MemoryStore();
  const h = startHost(store);
  const doc = `${origin.origin}/page.html`;
  await h.ask({ id: 'm', type: 'schedule', pageId: 'p1', documentUrl: doc, requests: [] });
  h.stdin.write(frame(JSON.stringify({ id: 'r', type: 'schedule', pageId: 'p1', documentUrl: doc, mode: 'replay', strategies: ['serial', 'browser'], requests: [{ url: `${origin.origin}/x?size=9`, priority: 'image' }] })));
  await h.reader.waitFor((m) => m.id === 'r' && m.type === 'replay-summary');
  expect(store.handshakeRecords.map((r) => [r.source, r.origin, r.pageUrl])).toEqual([
    ['measure', origin.origin, doc],
    ['replay', origin.origin, doc],
    ['replay', origin.origin, doc],
  ]);
  expect(store.pages).toEqual([
    expect.objectContaining({ pageId: 'p1', url: doc, strategy: 'serial', mode: 'replay', requests: 1, bytes: 9, errors: 0, connectionsOpened: 1 }),
    expect.objectContaining({ pageId: 'p1', url: doc, strategy: 'browser', mode: 'replay', requests: 1, bytes: 9, errors: 0, connectionsOpened: 1 }),
  ]);
  expect(await h.ask({ id: 'h', type: 'hello', protocolVersion: PROTOCOL_VERSION })).toMatchObject({ hostVersion: '9.9.9', capabilities: { store: '/memory' } });
  h.stdin.end();
  expect(await h.exited).toBe(0);
  expect(store.closed).toBe(true);
});

test('a failing store: reads answer E_INTERNAL, measuring still answers, and the host keeps serving', async () => {
  const store = new MemoryStore();
  const h = startHost(store);
  store.failWith = new Error('disk on fire');
  expect(await h.ask({ id: 's', type: 'stats' })).toEqual({ type: 'error', id: 's', code: 'E_INTERNAL', message: expect.stringContaining('disk on fire') });
  expect(await h.ask({ id: 'm', type: 'schedule', pageId: 'p', documentUrl: `${origin.origin}/`, requests: [] })).toMatchObject({ type: 'measured', handshakes: [{ origin: origin.origin }] });
  expect(await h.ask({ id: 'p', type: 'ping' })).toEqual({ type: 'pong', id: 'p' });
  expect(h.log()).toMatch(/could not store results: Error: disk on fire/);
  store.failWith = undefined;
  h.stdin.end();
  expect(await h.exited).toBe(0);
  expect(h.reader.violations).toEqual([]);
});

test('without a store, stats, export and forget answer E_NO_STORE', async () => {
  const h = startHost();
  for (const [i, m] of [{ type: 'stats' }, { type: 'export', format: 'json' }, { type: 'forget', origin: origin.origin }].entries()) {
    expect(await h.ask({ ...m, id: `n${i}` })).toMatchObject({ type: 'error', id: `n${i}`, code: 'E_NO_STORE' });
  }
  h.stdin.end();
  expect(await h.exited).toBe(0);
});

test('a replay whose caFile is /dev/zero or a FIFO answers E_CA_FILE at once, fetches nothing, and the host keeps serving', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'getlist-ca-special-'));
  const fifo = path.join(dir, 'ca.pem');
  execFileSync('mkfifo', [fifo]);
  const h = startHost(new MemoryStore());
  try {
    const replay = { type: 'schedule', pageId: 'p', documentUrl: `${origin.origin}/`, mode: 'replay', strategies: ['browser'], requests: [{ url: `${origin.origin}/a`, priority: 'image' }] };
    expect(await h.ask({ ...replay, id: 'z', caFile: '/dev/zero' })).toEqual({ type: 'error', id: 'z', code: 'E_CA_FILE', message: expect.stringMatching(/^CA file \/dev\/zero: it is a character device, not a regular file; /) });
    expect(await h.ask({ ...replay, id: 'f', caFile: fifo })).toEqual({ type: 'error', id: 'f', code: 'E_CA_FILE', message: expect.stringContaining(`CA file ${fifo}: it is a FIFO (named pipe), not a regular file`) });
    expect(await h.ask({ id: 'p', type: 'ping' })).toEqual({ type: 'pong', id: 'p' });
    expect(origin.accepted()).toBe(0);
    expect(h.reader.withId('z')).toHaveLength(1);
    h.stdin.end();
    expect(await h.exited).toBe(0);
    expect(h.reader.violations).toEqual([]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
