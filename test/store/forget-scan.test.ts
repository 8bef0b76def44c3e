import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostMessage } from '../../src/protocol';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore, type LmdbStore } from '../../native-host/store/lmdb-store';
import type { PageSummary } from '../../native-host/store/store-types';
import { SpawnedHost } from '../host/host-harness';
import { startTestOrigin, type TestOrigin } from '../host/test-origin';

/*
 * "Forget means gone": after a forget, no origin, URL or timestamp of the forgotten records is in
 * any byte of any file under the data dir. Each needle is first found by the same scan before the
 * forget (so the scan can see it), and what was not forgotten is still found after.
 */

/** Every file under `dir`, recursively, with its bytes. */
function filesUnder(dir: string, root = dir): Array<{ file: string; bytes: Buffer }> {
  const out: Array<{ file: string; bytes: Buffer }> = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, root));
    else out.push({ file: path.relative(root, p), bytes: readFileSync(p) });
  }
  return out;
}

/** The needles found anywhere under `dir`, each with the files that hold it. */
function scan(dir: string, needles: readonly string[]): Record<string, string[]> {
  const files = filesUnder(dir);
  const found: Record<string, string[]> = {};
  for (const n of needles) {
    const hits = files.filter((f) => f.bytes.includes(Buffer.from(n, 'utf8'))).map((f) => f.file);
    if (hits.length > 0) found[n] = hits;
  }
  return found;
}

/** How a record's time appears in a file: epoch ms in the JSON value, and zero-padded in its key. */
/** Sorted, each once: `scan` reports a needle once however many needles share its text. */
const distinct = (needles: readonly string[]) => [...new Set(needles)].sort();
const timeNeedles = (ms: number) => [String(Math.floor(ms)), String(Math.floor(ms)).padStart(15, '0')];

let dataDir: string;
let origins: TestOrigin[] = [];
let host: SpawnedHost | undefined;
let writer: LmdbStore | undefined;
beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'getlist-scan-'));
  origins = await Promise.all([startTestOrigin(), startTestOrigin(), startTestOrigin()]);
});
afterEach(async () => {
  await writer?.close().catch(() => undefined);
  writer = undefined;
  await host?.dispose();
  host = undefined;
  await Promise.all(origins.map((o) => o.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

test('a host forgets one origin, then everything, while another process has the store open: every byte of it leaves every file', async () => {
  host = new SpawnedHost({ env: () => ({ GETLIST_DATA_DIR: dataDir }) });
  const [a, b, c] = origins as [TestOrigin, TestOrigin, TestOrigin];
  const measured: Record<string, number[]> = {};
  for (const [i, o] of origins.entries()) {
    const m = (await host.ask({ type: 'schedule', id: `m${i}`, pageId: `p${i}`, documentUrl: `${o.origin}/secret-page-${i}.html`, requests: [] })) as Extract<HostMessage, { type: 'measured' }>;
    measured[o.origin] = m.handshakes.map((h) => h.startedAt);
  }
  // Another process (this one) writes page summaries and origin facts into the same store, with
  // many updates of the facts: LMDB leaves old versions in freed pages until they are reused.
  writer = await openStore({ dir: storeDirIn(dataDir) });
  const pageAt: Record<string, number> = {};
  for (const [i, o] of origins.entries()) {
    const at = Date.now() - 1000 * (i + 1) - 0.5;
    pageAt[o.origin] = at;
    const summary: PageSummary = { pageId: `p${i}`, url: `${o.origin}/secret-page-${i}.html`, strategy: 'getlist', mode: 'replay', at, totalMs: 100, meanTtfbMs: 10, connectionsOpened: 1, requestsPerConnection: 1, requests: 1, bytes: 1, errors: 0, handshakeP50Ms: null, handshakeP90Ms: null };
    await writer.addPageSummaries([summary]);
    // The page's origin list (origin memory's l! record), naming the next origin too: a CDN it used.
    const next = (origins[(i + 1) % origins.length] as TestOrigin).origin;
    await writer.putPageOrigins([{ url: `${o.origin}/secret-page-${i}.html`, lastSeen: Date.now(), origins: [{ origin: o.origin, requests: 3 }, { origin: next, requests: 1 }] }]);
    for (let k = 0; k < 50; k++) {
      await writer.putOriginFacts([{ origin: o.origin, lastSeen: Date.now(), rttMs: 10 + k, requestBudget: 100 + k }]);
      await writer.flush();
    }
  }
  const needlesOf = (o: TestOrigin, i: number) => [o.origin, `${o.origin}/secret-page-${i}.html`, `secret-page-${i}`, ...(measured[o.origin] ?? []).flatMap(timeNeedles), ...timeNeedles(pageAt[o.origin] as number)];
  const [na, nb, nc] = origins.map(needlesOf) as [string[], string[], string[]];
  while (Object.keys(scan(dataDir, nc)).length < nc.length) await new Promise((r) => setTimeout(r, 50)); // The host's batch is on disk.
  // Needles are compared as sets: two records may share a millisecond (the same timestamp needle twice).
  expect(Object.keys(scan(dataDir, [...na, ...nb, ...nc])).sort()).toEqual(distinct([...na, ...nb, ...nc]));

  // Forget one origin: all of its needles go, the others' stay.
  const one = await host.ask({ type: 'forget', id: 'f1', origin: b.origin });
  expect(one).toEqual({ type: 'forgotten', id: 'f1', removed: 2 }); // Its connection and its page.
  // A needle b shares with a kept record (two handshakes in one millisecond) cannot be expected to go.
  const onlyB = nb.filter((n) => !na.includes(n) && !nc.includes(n));
  expect(onlyB.length).toBeGreaterThanOrEqual(nb.length - 4);
  expect(scan(dataDir, onlyB)).toEqual({});
  expect(Object.keys(scan(dataDir, [...na, ...nc])).sort()).toEqual(distinct([...na, ...nc]));
  // The other process follows the new generation: it still reads a and c, and writes where the host reads.
  const left: string[] = [];
  for await (const f of writer.originFacts()) left.push(f.origin);
  expect(left.sort()).toEqual([a.origin, c.origin].sort());
  // Page origin lists that named b went with it (b's own page's, and a's page, which used b); c's stays.
  const lists: string[] = [];
  for await (const p of writer.pageOrigins()) lists.push(p.url);
  expect(lists).toEqual([`${c.origin}/secret-page-2.html`]);

  // Forget everything.
  const all = await host.ask({ type: 'forget', id: 'f2', all: true });
  expect(all).toEqual({ type: 'forgotten', id: 'f2', removed: 4 });
  expect(scan(dataDir, [...na, ...nb, ...nc, '127.0.0.1:'])).toEqual({});
  // What is left is the store's skeleton (and the host's fresh log line).
  expect(filesUnder(dataDir).map((f) => f.file.replace(/gen-\d{6}-[0-9a-f]{8}/, 'gen-*')).sort()).toEqual(['handshakes/ACTIVE', 'handshakes/gen-*/data.mdb', 'handshakes/gen-*/lock.mdb', 'host.log']);
  expect((await host.endInput()).code).toBe(0);
});

test('retention deletes the same way: expired records leave every file, younger ones stay', async () => {
  const DAY = 86_400_000;
  const now = Date.now();
  const dir = storeDirIn(dataDir);
  writer = await openStore({ dir, now: () => now });
  const page = (n: number, daysAgo: number): PageSummary => ({
    pageId: `p${n}`, url: `https://old-${n}.test/expired-${n}.html`, strategy: 'getlist', mode: 'replay', at: now - daysAgo * DAY, totalMs: 1, meanTtfbMs: 1, connectionsOpened: 1, requestsPerConnection: 1, requests: 1, bytes: 1, errors: 0, handshakeP50Ms: null, handshakeP90Ms: null,
  });
  await writer.addPageSummaries([page(1, 89.9), page(2, 30)]);
  await writer.putOriginFacts([{ origin: 'https://old-1.test', lastSeen: now - 89.9 * DAY }, { origin: 'https://old-2.test', lastSeen: now - DAY }]);
  await writer.putPageOrigins([
    { url: 'https://old-1.test/list-1.html', lastSeen: now - 89.9 * DAY, origins: [{ origin: 'https://old-1.test', requests: 2 }] },
    { url: 'https://old-2.test/list-2.html', lastSeen: now - DAY, origins: [{ origin: 'https://old-2.test', requests: 2 }] },
  ]);
  await writer.flush();
  const old = ['old-1.test', 'expired-1', 'list-1', ...timeNeedles(now - 89.9 * DAY)];
  const young = ['old-2.test', 'expired-2', 'list-2', ...timeNeedles(now - 30 * DAY)];
  expect(Object.keys(scan(dataDir, [...old, ...young])).sort()).toEqual([...old, ...young].sort());
  expect(await writer.enforceRetention(now + 0.2 * DAY)).toBe(1);
  expect(scan(dataDir, old)).toEqual({});
  expect(Object.keys(scan(dataDir, young)).sort()).toEqual([...young].sort());
});
