import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClassicLevel } from 'classic-level';
import { buildStoreChild, storeChildEnv } from '../../test/support/store-child-build';
import { openStore, type LevelStore } from './level-store';
import { recordKey } from './record-codec';
import type { PageSummary, StoredHandshake } from './store-types';

const DAY = 86_400_000;
const T0 = Date.UTC(2025, 0, 15);

function hs(n: number, over: Partial<StoredHandshake> = {}): StoredHandshake {
  return {
    connectionId: n, origin: 'https://a.test', startedAt: T0 + n * 1000, dnsMs: 1.5, tcpMs: 10 + n, tlsMs: 20, totalMs: 31.5 + n,
    remoteAddress: '192.0.2.1', remotePort: 443, localPort: 50000 + n, protocol: 'h2', tlsVersion: 'TLSv1.3', resumed: false,
    source: 'measure', ...over,
  };
}

function page(n: number, over: Partial<PageSummary> = {}): PageSummary {
  return {
    pageId: `p${n}`, url: 'https://a.test/index.html', strategy: 'getlist', mode: 'measure', at: T0 + n * 1000, totalMs: 400, meanTtfbMs: 120,
    connectionsOpened: 6, requestsPerConnection: 2.5, requests: 15, bytes: 123456, errors: 0, handshakeP50Ms: null, handshakeP90Ms: null, ...over,
  };
}

async function all<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

async function codeOf(p: Promise<unknown> | (() => unknown)): Promise<string | undefined> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

let tmp: string;
let dir: string;
const opened: LevelStore[] = [];
async function open(options: Partial<Parameters<typeof openStore>[0]> = {}): Promise<LevelStore> {
  const s = await openStore({ dir, now: () => T0, ...options });
  opened.push(s);
  return s;
}

beforeEach(() => {
  tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'getlist-store-')));
  dir = path.join(tmp, 'data', 'handshakes');
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

describe('records', () => {
  test('round trip: what goes in comes back, oldest first, after close and reopen', async () => {
    const store = await open();
    const records = [hs(3), hs(1, { remoteAddress: undefined, remotePort: undefined, localPort: undefined, tlsVersion: undefined, origin: 'http://b.test', tlsMs: 0 }), hs(2, { pageUrl: 'https://a.test/', source: 'replay', resumed: true })];
    await store.addHandshakes(records);
    await store.addPageSummaries([page(2), page(1, { handshakeP50Ms: 30, handshakeP90Ms: 45 })]);
    expect(await all(store.handshakes())).toEqual([records[1], records[2], records[0]]);
    await store.close();
    await store.close(); // Idempotent.
    const again = await open();
    expect(await all(again.handshakes())).toEqual([records[1], records[2], records[0]]);
    expect(await all(again.pageSummaries())).toEqual([page(1, { handshakeP50Ms: 30, handshakeP90Ms: 45 }), page(2)]);
    expect(await all(again.pageSummaries({ url: 'https://other.test/' }))).toEqual([]);
    expect(again.stats()).toMatchObject({ skipped: 0, pending: 0 });
  });

  test('records wait in memory until the batch is written (flush, timer or close)', async () => {
    const store = await open({ flushIntervalMs: 60_000 });
    await store.addHandshakes([hs(1), hs(2)]);
    expect(store.stats()).toMatchObject({ pending: 2, written: 0 });
    await store.flush();
    expect(store.stats()).toMatchObject({ pending: 0, written: 2 });
    await store.addHandshakes([hs(3)]);
    await store.close();
    const again = await open();
    expect((await all(again.handshakes())).map((r) => r.connectionId)).toEqual([1, 2, 3]);
  });

  test('the timer writes accepted records without any flush or close', async () => {
    const store = await open({ flushIntervalMs: 20 });
    await store.addHandshakes([hs(1), hs(2)]);
    while (store.stats().written < 2) await new Promise((r) => setTimeout(r, 5));
    expect(store.stats()).toMatchObject({ pending: 0, written: 2 });
  });

  test('an invalid record is refused with E_STORE_RECORD naming the field; nothing is written', async () => {
    const store = await open();
    const bad = { ...hs(2), tcpMs: -1 };
    await expect(store.addHandshakes([hs(1), bad])).rejects.toMatchObject({ code: 'E_STORE_RECORD', message: expect.stringContaining('handshakes[1].tcpMs') });
    await expect(store.addHandshakes([{ ...hs(1), protocol: 'spdy' as 'h2' }])).rejects.toMatchObject({ code: 'E_STORE_RECORD' });
    await expect(store.addPageSummaries([{ ...page(1), mode: 'guess' as 'measure' }])).rejects.toMatchObject({ code: 'E_STORE_RECORD', message: expect.stringContaining('summaries[0].mode') });
    expect(await all(store.handshakes())).toEqual([]);
  });

  test('after close every call is E_STORE_CLOSED', async () => {
    const store = await open();
    await store.close();
    expect(await codeOf(store.addHandshakes([hs(1)]))).toBe('E_STORE_CLOSED');
    expect(await codeOf(all(store.handshakes()))).toBe('E_STORE_CLOSED');
    expect(await codeOf(store.forget())).toBe('E_STORE_CLOSED');
  });
});

describe('queries', () => {
  const origins = ['https://a.test', 'https://b.test:8443', 'http://we!rd%21.test'];
  let store: LevelStore;
  beforeEach(async () => {
    store = await open();
    // 30 records, 10 per origin, interleaved in time; fractional timestamps on purpose.
    await store.addHandshakes(Array.from({ length: 30 }, (_, i) => hs(i, { origin: origins[i % 3] as string, startedAt: T0 + i * 1000 + 0.25 })));
  });

  test('per origin: exactly that origin, oldest first (a `!` in an origin does not confuse the index)', async () => {
    for (const [k, origin] of origins.entries()) {
      const got = await all(store.handshakes({ origin }));
      expect(got.map((r) => r.connectionId)).toEqual(Array.from({ length: 10 }, (_, i) => i * 3 + k));
    }
    expect(await all(store.handshakes({ origin: 'https://a.tes' }))).toEqual([]);
  });

  test('time range: since inclusive, until exclusive, to the fraction of a ms', async () => {
    const ids = async (q: object) => (await all(store.handshakes(q))).map((r) => r.connectionId);
    expect(await ids({ since: T0 + 5000.25, until: T0 + 9000.25 })).toEqual([5, 6, 7, 8]);
    expect(await ids({ since: T0 + 5000.26 })).toEqual(Array.from({ length: 24 }, (_, i) => i + 6));
    expect(await ids({ until: T0 + 2000.25 })).toEqual([0, 1]);
    expect(await ids({ origin: origins[1], since: T0 + 4000, until: T0 + 14_000 })).toEqual([4, 7, 10, 13]);
    expect(await codeOf(all(store.handshakes({ since: Number.NaN })))).toBe('E_STORE_QUERY');
  });
});

describe('forget', () => {
  test('forget() removes everything, says how many, and the store keeps working', async () => {
    const store = await open();
    await store.addHandshakes([hs(1), hs(2), hs(3)]);
    await store.addPageSummaries([page(1)]);
    expect(await store.forget()).toBe(4);
    expect(await all(store.handshakes())).toEqual([]);
    expect(await all(store.pageSummaries())).toEqual([]);
    expect(await all(store.handshakes({ origin: 'https://a.test' }))).toEqual([]);
    await store.addHandshakes([hs(9)]);
    expect((await all(store.handshakes())).map((r) => r.connectionId)).toEqual([9]);
  });

  test('forget(origin) removes its connections, the ones its pages opened elsewhere, and its page summaries', async () => {
    const store = await open();
    await store.addHandshakes([
      hs(1, { origin: 'https://a.test', pageUrl: 'https://a.test/' }),
      hs(2, { origin: 'https://cdn.test', pageUrl: 'https://a.test/' }), // opened by a page on a.test
      hs(3, { origin: 'https://cdn.test', pageUrl: 'https://b.test/' }),
      hs(4, { origin: 'https://b.test' }),
    ]);
    await store.addPageSummaries([page(1, { url: 'https://a.test/x' }), page(2, { url: 'https://b.test/' })]);
    expect(await store.forget('https://a.test')).toBe(3);
    expect((await all(store.handshakes())).map((r) => r.connectionId)).toEqual([3, 4]);
    expect((await all(store.handshakes({ origin: 'https://cdn.test' }))).map((r) => r.connectionId)).toEqual([3]);
    expect((await all(store.pageSummaries())).map((p) => p.pageId)).toEqual(['p2']);
    expect(await store.forget('https://a.test')).toBe(0);
    expect(await store.forget('https://cdn.test')).toBe(1);
    expect((await all(store.handshakes())).map((r) => r.connectionId)).toEqual([4]);
  });
});

describe('retention', () => {
  test('records older than retentionDays go on open and on enforceRetention; younger ones stay', async () => {
    const first = await open({ now: () => T0 - 200 * DAY });
    const at = (daysAgo: number, n: number) => hs(n, { startedAt: T0 - daysAgo * DAY });
    await first.addHandshakes([at(120, 1), at(91, 2), at(89, 3), at(1, 4)]);
    await first.addPageSummaries([page(1, { at: T0 - 95 * DAY }), page(2, { at: T0 - 10 * DAY })]);
    await first.close();

    const store = await open({ retentionDays: 90, now: () => T0 });
    expect((await all(store.handshakes())).map((r) => r.connectionId)).toEqual([3, 4]);
    expect((await all(store.handshakes({ origin: 'https://a.test' }))).map((r) => r.connectionId)).toEqual([3, 4]);
    expect((await all(store.pageSummaries())).map((p) => p.pageId)).toEqual(['p2']);
    expect(await store.enforceRetention(T0 + 2 * DAY)).toBe(1); // Record 3 is now 91 days old.
    expect((await all(store.handshakes())).map((r) => r.connectionId)).toEqual([4]);
    expect(store.stats().dangling).toBe(0);
  });

  test('a bad retention period is E_STORE_OPTIONS', async () => {
    expect(await codeOf(openStore({ dir, retentionDays: 0 }))).toBe('E_STORE_OPTIONS');
  });
});

describe('damage and foreign data', () => {
  test('a corrupt or foreign value is skipped and counted, never thrown', async () => {
    const store = await open();
    await store.addHandshakes([hs(1), hs(3)]);
    await store.close();
    const db = new ClassicLevel<string, string>(dir);
    await db.put(recordKey('h', T0 + 2000, 900), '{not json');
    await db.put(recordKey('h', T0 + 2500, 901), JSON.stringify({ hello: 'world' }));
    await db.put(recordKey('p', T0, 902), JSON.stringify({ ...page(1), bytes: 'many' }));
    await db.close();
    const again = await open();
    expect((await all(again.handshakes())).map((r) => r.connectionId)).toEqual([1, 3]);
    expect(await all(again.pageSummaries())).toEqual([]);
    expect(again.stats().skipped).toBe(3);
    expect(await again.forget()).toBe(5);
  });

  test('a store whose CURRENT file is damaged is repaired on open, records intact', async () => {
    const store = await open();
    await store.addHandshakes([hs(1), hs(2)]);
    await store.close();
    writeFileSync(path.join(dir, 'CURRENT'), 'MANIFEST-999999\n');
    const again = await open();
    expect(again.stats().repaired).toBe(true);
    expect((await all(again.handshakes())).map((r) => r.connectionId)).toEqual([1, 2]);
  });

  test('a LevelDB database that is not a getlist store is refused (E_STORE_VERSION), not written to', async () => {
    const db = new ClassicLevel<string, string>(dir);
    await db.put('someone', 'else');
    await db.close();
    expect(await codeOf(open())).toBe('E_STORE_VERSION');
    const check = new ClassicLevel<string, string>(dir);
    expect(await check.keys().all()).toEqual(['someone']);
    await check.close();
  });
});

describe('files and locks', () => {
  test('folders are 0700 and every file 0600, even with umask 0', async () => {
    const umask = process.umask(0);
    try {
      const store = await open();
      await store.addHandshakes(Array.from({ length: 200 }, (_, i) => hs(i)));
      await store.flush();
      await store.forget('https://a.test'); // Compaction writes new table files.
      await store.addHandshakes([hs(1)]);
      await store.close();
    } finally {
      process.umask(umask);
    }
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = readdirSync(dir);
    expect(files).toEqual(expect.arrayContaining(['CURRENT', 'LOCK']));
    for (const f of files) expect([f, statSync(path.join(dir, f)).mode & 0o777]).toEqual([f, 0o600]);
  });

  test('a second open in this process is E_STORE_LOCKED and leaves the first handle locked', async () => {
    const store = await open();
    const child = buildStoreChild(tmp);
    expect(await codeOf(openStore({ dir }))).toBe('E_STORE_LOCKED');
    // LevelDB's fcntl lock is per process; had the second open reached LevelDB, closing its
    // descriptor would have released the first handle's lock and another process could open.
    const r = spawnSync(process.execPath, [child, 'try-open', dir], { env: storeChildEnv, encoding: 'utf8' });
    expect(r.stdout.trim()).toBe('E_STORE_LOCKED');
    await store.close();
    const after = spawnSync(process.execPath, [child, 'try-open', dir], { env: storeChildEnv, encoding: 'utf8' });
    expect(after.stdout.trim()).toBe('opened');
  });

  test('a store held by a live process is E_STORE_LOCKED naming the folder; once that process is killed it opens', async () => {
    const child = buildStoreChild(tmp);
    const holder = spawn(process.execPath, [child, 'hold', dir], { env: storeChildEnv, stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    let caught: unknown;
    try {
      await openStore({ dir });
    } catch (err) {
      caught = err;
    }
    expect(caught).toMatchObject({ code: 'E_STORE_LOCKED', message: expect.stringContaining(dir) });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    // The LOCK file is still there; the kernel dropped the dead process's lock on it.
    expect(readdirSync(dir)).toContain('LOCK');
    const store = await open();
    expect(await all(store.handshakes())).toEqual([]);
  });
});
