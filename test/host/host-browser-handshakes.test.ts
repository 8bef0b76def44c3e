import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { runHost } from '../../native-host/host/host';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore, type LmdbStore } from '../../native-host/store/lmdb-store';
import type { HostMessage } from '../../src/protocol';
import { FrameReader } from './frame-reader';
import { frame } from './host-harness';
import { startTestOrigin, type TestOrigin } from './test-origin';

/** `runHost` in process on a real store (LMDB in a temporary data dir). */
function startHost(store: LmdbStore) {
  const stdin = new PassThrough();
  const reader = new FrameReader();
  const stdout = new Writable({ write: (chunk: Buffer, _enc, cb) => (reader.push(chunk), cb()) });
  const stderr = new Writable({ write: (_chunk: Buffer, _enc, cb) => cb() });
  const exited = runHost({ stdin, stdout, stderr, hostVersion: '9.9.9', store });
  const ask = (m: { id: string } & Record<string, unknown>): Promise<HostMessage> => {
    stdin.write(frame(JSON.stringify(m)));
    return reader.waitFor((x) => x.id === m.id, `reply ${m.id}`);
  };
  const stop = async () => {
    stdin.end();
    expect(await exited).toBe(0);
    expect(reader.violations).toEqual([]);
  };
  return { ask, stop };
}

/** The count of a stats reply's `source` group (0 when the group is absent). */
function sourceCount(reply: HostMessage, source: string): number {
  if (reply.type !== 'stats') throw new Error(`expected stats, got ${JSON.stringify(reply)}`);
  return reply.groups.find((g) => g.group === 'source' && g.key === source)?.count ?? 0;
}

let origin: TestOrigin;
let dataDir: string;
beforeEach(async () => {
  origin = await startTestOrigin();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'getlist-browser-hs-'));
});
afterEach(async () => {
  await origin.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test("the browser's own connections are stored beside the host's, kept apart by source in stats and exports, across a reopen", async () => {
  const page = `${origin.origin}/page.html`;
  const browser = [
    { origin: origin.origin, startedAt: Date.now() - 50, dnsMs: 0, tcpMs: 0.2, tlsMs: 0, totalMs: 0.2, protocol: 'http/1.1' },
    { origin: 'https://cdn.example', startedAt: Date.now() - 40, dnsMs: 3, tcpMs: 20, tlsMs: 22, totalMs: 45, protocol: 'h2' },
    // A connect the browser showed begin but not end: stored and counted, with no TCP time or total.
    { origin: 'http://unended.example', startedAt: Date.now() - 30, dnsMs: 4, tcpMs: 0, tlsMs: 0, totalMs: 4, protocol: 'http/1.1', connect: 'unended' },
  ];
  let store = await openStore({ dir: storeDirIn(dataDir) });
  let host = startHost(store);
  expect(await host.ask({ id: 'b', type: 'handshakes', pageUrl: page, handshakes: browser })).toEqual({ type: 'recorded', id: 'b', recorded: 3 });
  // The host's own handshake to the same origin: one connection its server accepted.
  const measured = await host.ask({ id: 'm', type: 'schedule', pageId: 'p', documentUrl: page, requests: [] });
  expect(measured.type).toBe('measured');
  expect(origin.accepted()).toBe(1);
  await host.stop();
  await store.close();

  store = await openStore({ dir: storeDirIn(dataDir) });
  host = startHost(store);
  const all = await host.ask({ id: 's', type: 'stats' });
  expect([sourceCount(all, 'browser'), sourceCount(all, 'host'), sourceCount(all, 'cli')]).toEqual([3, 1, 0]);
  // A CDN connection's TLS resumption is not exposed by the browser: its own TLS kind.
  expect(all.type === 'stats' && all.groups.find((g) => g.group === 'tls' && g.key === 'unknown')?.count).toBe(1);
  const onlyBrowser = await host.ask({ id: 'sb', type: 'stats', source: 'browser' });
  expect(onlyBrowser.type === 'stats' && onlyBrowser.count).toBe(3);
  const prom = await host.ask({ id: 'e', type: 'export', format: 'prom' });
  const text = prom.type === 'export' ? prom.data : '';
  expect(text).toMatch(/_count\{phase="tcp",origin="https:\/\/cdn\.example",protocol="h2",tls="unknown",source="browser"\} 1/);
  expect(text).toMatch(/_count\{phase="dns",origin="http:\/\/unended\.example",protocol="http\/1\.1",tls="none",source="browser"\} 1/);
  expect(text).not.toMatch(/_count\{phase="(tcp|total)",origin="http:\/\/unended\.example"[^}]*\} [1-9]/);
  expect(text).toMatch(new RegExp(`_count\\{phase="tcp",origin="${origin.origin.replace(/[.]/g, '\\.')}",protocol="http/1.1",tls="none",source="host"\\} 1`));
  // Forgetting the page's origin removes the browser's records of the CDN it used too.
  await host.ask({ id: 'f', type: 'forget', origin: origin.origin });
  expect(sourceCount(await host.ask({ id: 's2', type: 'stats' }), 'browser')).toBe(0);
  await host.stop();
  await store.close();
});

test('a bad handshakes message is refused with its code, and nothing is stored', async () => {
  const store = await openStore({ dir: storeDirIn(dataDir) });
  const host = startHost(store);
  const bad = { origin: origin.origin, startedAt: Date.now(), dnsMs: 0, tcpMs: 5, tlsMs: 3, totalMs: 8, protocol: 'http/1.1' };
  expect(await host.ask({ id: 'b', type: 'handshakes', pageUrl: `${origin.origin}/`, handshakes: [bad] })).toMatchObject({ type: 'error', id: 'b', code: 'E_INVALID_FIELD', message: expect.stringContaining('handshakes[0].tlsMs') });
  expect(await host.ask({ id: 's', type: 'stats' })).toMatchObject({ type: 'stats', count: 0 });
  await host.stop();
  await store.close();
});
