import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ClassicLevel } from 'classic-level';
import { buildStoreChild, storeChildEnv } from '../../test/support/store-child-build';
import { readActive } from './generations';
import { openEnv } from './lmdb-env';
import { openStore, type LmdbStore } from './lmdb-store';
import { LAYOUT_VERSION, META_SEQ, META_VERSION, indexKeysOf, recordKey } from './record-codec';
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
const opened: LmdbStore[] = [];
async function open(options: Partial<Parameters<typeof openStore>[0]> = {}): Promise<LmdbStore> {
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
  let store: LmdbStore;
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
    const env = openEnv(dir, readActive(dir) as string);
    env.transactionSync(() => {
      env.putSync(recordKey('h', T0 + 2000, 900), '{not json');
      env.putSync(recordKey('h', T0 + 2500, 901), JSON.stringify({ hello: 'world' }));
      env.putSync(recordKey('p', T0, 902), JSON.stringify({ ...page(1), bytes: 'many' }));
    });
    await env.close();
    const again = await open();
    expect((await all(again.handshakes())).map((r) => r.connectionId)).toEqual([1, 3]);
    expect(await all(again.pageSummaries())).toEqual([]);
    expect(again.stats().skipped).toBe(3);
    expect(await again.forget()).toBe(5);
  });

  test('a store of a newer layout is refused (E_STORE_VERSION), not written to', async () => {
    const store = await open();
    await store.close();
    const env = openEnv(dir, readActive(dir) as string);
    env.transactionSync(() => env.putSync(META_VERSION, String(LAYOUT_VERSION + 1)));
    await env.close();
    expect(await codeOf(open())).toBe('E_STORE_VERSION');
  });
});

/** A LevelDB store as getlist ≤ 0.1 wrote it (same keys and values as record-codec.ts). */
async function writeLegacyStore(records: StoredHandshake[], pages: PageSummary[]): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const db = new ClassicLevel<string, string>(dir, { keyEncoding: 'utf8', valueEncoding: 'utf8' });
  const ops: Array<{ type: 'put'; key: string; value: string }> = [];
  let seq = 0;
  for (const r of records) {
    const key = recordKey('h', r.startedAt, seq);
    ops.push({ type: 'put', key, value: JSON.stringify(r) }, ...indexKeysOf(r, seq).map((ix) => ({ type: 'put' as const, key: ix, value: key })));
    seq++;
  }
  for (const p of pages) ops.push({ type: 'put', key: recordKey('p', p.at, seq++), value: JSON.stringify(p) });
  ops.push({ type: 'put', key: META_VERSION, value: '1' }, { type: 'put', key: META_SEQ, value: String(seq) });
  await db.batch(ops, { sync: true });
  await db.close();
}

describe('migration from LevelDB (getlist ≤ 0.1)', () => {
  test('the first open copies every record, indexes and counter included, and removes the LevelDB files', async () => {
    const records = [hs(1, { origin: 'https://b.test', pageUrl: 'https://a.test/' }), hs(2), hs(3, { origin: 'http://c.test:8080', tlsMs: 0 })];
    await writeLegacyStore(records, [page(1)]);
    expect(readdirSync(dir)).toEqual(expect.arrayContaining(['CURRENT', 'LOCK']));
    const store = await open();
    expect(store.stats().migrated).toBe(4);
    expect(await all(store.handshakes())).toEqual(records);
    expect((await all(store.handshakes({ origin: 'https://b.test' }))).map((r) => r.connectionId)).toEqual([1]);
    expect(await all(store.pageSummaries())).toEqual([page(1)]);
    // New records continue the old counter: no key collides with a migrated one.
    await store.addHandshakes([hs(4)]);
    expect((await all(store.handshakes())).map((r) => r.connectionId)).toEqual([1, 2, 3, 4]);
    // forget(origin) still finds the CDN connection through the migrated page-origin index.
    expect(await store.forget('https://a.test')).toBe(4);
    expect(readdirSync(dir).filter((f) => !f.startsWith('gen-') && f !== 'ACTIVE')).toEqual([]);
    await store.close();
    const again = await open();
    expect(again.stats().migrated).toBe(0);
    expect((await all(again.handshakes())).map((r) => r.connectionId)).toEqual([3]);
  });

  test('a LevelDB database that is not a getlist store is refused (E_STORE_VERSION) and left as it was', async () => {
    mkdirSync(dir, { recursive: true });
    const db = new ClassicLevel<string, string>(dir);
    await db.put('someone', 'else');
    await db.close();
    expect(await codeOf(open())).toBe('E_STORE_VERSION');
    const check = new ClassicLevel<string, string>(dir);
    expect(await check.keys().all()).toEqual(['someone']);
    await check.close();
    expect(readActive(dir)).toBeUndefined();
  });
});

describe('files and processes', () => {
  test('folders made are 0700 and every file 0600, even with umask 0', async () => {
    const umask = process.umask(0);
    try {
      const store = await open();
      await store.addHandshakes(Array.from({ length: 200 }, (_, i) => hs(i)));
      await store.flush();
      await store.forget('https://a.test'); // A rewrite makes a new generation folder.
      await store.addHandshakes([hs(1)]);
      await store.close();
    } finally {
      process.umask(umask);
    }
    for (const d of [path.join(tmp, 'data'), dir, path.join(dir, readActive(dir) as string)]) expect([d, statSync(d).mode & 0o777]).toEqual([d, 0o700]);
    const gen = readActive(dir) as string;
    expect(readdirSync(dir).sort()).toEqual(['ACTIVE', gen]);
    for (const f of ['ACTIVE', `${gen}/data.mdb`, `${gen}/lock.mdb`]) expect([f, statSync(path.join(dir, f)).mode & 0o777]).toEqual([f, 0o600]);
  });

  test('two opens in one process share the store: each sees what the other wrote, and a forget in one moves the other', async () => {
    const a = await open();
    const b = await open();
    await a.addHandshakes([hs(1)]);
    await b.addHandshakes([hs(2)]);
    await a.flush();
    expect((await all(b.handshakes())).map((r) => r.connectionId)).toEqual([1, 2]);
    expect(await a.forget('https://a.test')).toBe(2);
    await b.addHandshakes([hs(3)]);
    await b.flush(); // Each open writes its own batches; b follows a's rewrite before writing.
    expect((await all(a.handshakes())).map((r) => r.connectionId)).toEqual([3]);
    expect(b.stats().generation).toBe(a.stats().generation);
  });

  test('another process writing at the same time: both open, both write, and each reads the other', async () => {
    const child = buildStoreChild(tmp);
    const writer = spawn(process.execPath, [child, 'burst', dir, '1000'], { env: storeChildEnv, stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: string[] = [];
    const firstLine = new Promise<void>((resolve) => writer.stdout.on('data', (d: Buffer) => { lines.push(...d.toString().trim().split('\n')); resolve(); }));
    await firstLine;
    const store = await open({ now: () => Date.now() });
    await store.addHandshakes([hs(1, { startedAt: Date.now() })]);
    await store.flush();
    // The child writes 100 records every 50 ms, each batch within 250 ms: wait until some are visible here.
    let theirs = 0;
    for (let i = 0; i < 100 && theirs === 0; i++) {
      theirs = (await all(store.handshakes())).filter((r) => r.connectionId >= 1000).length;
      if (theirs === 0) await new Promise((r) => setTimeout(r, 50));
    }
    expect(theirs).toBeGreaterThan(0);
    const check = spawnSync(process.execPath, [child, 'count', dir], { env: storeChildEnv, encoding: 'utf8' });
    expect(Number(check.stdout.trim().split(' ')[0])).toBeGreaterThanOrEqual(1); // The other process sees record 1 too.
    expect(check.stdout).toContain('has 1');
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    writer.kill('SIGKILL');
    await exited;
  });
});

describe('migration of a LevelDB store written by getlist 0.1 (test/fixtures/leveldb-store-v1)', () => {
  const FIXTURE = path.join(__dirname, '..', '..', 'test', 'fixtures', 'leveldb-store-v1');
  const expected = JSON.parse(readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')) as { handshakes: StoredHandshake[]; pages: PageSummary[] };
  /** The fixture's records are from 2026-11-01; pin `now` so retention keeps them. */
  const FIXTURE_NOW = Date.UTC(2026, 10, 2);

  test('every record comes over unchanged, the LevelDB files go, and two processes opening it at once agree', async () => {
    mkdirSync(path.dirname(dir), { recursive: true });
    cpSync(path.join(FIXTURE, 'handshakes'), dir, { recursive: true });
    expect(readdirSync(dir).some((f) => f.endsWith('.ldb') || f.endsWith('.log'))).toBe(true);
    const child = buildStoreChild(tmp);
    // Two other processes race to open (and so to migrate) it, while this one does too.
    const racers = [0, 1].map(() => new Promise<string>((resolve) => {
      const p = spawn(process.execPath, [child, 'count', dir], { env: storeChildEnv, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      p.stdout.on('data', (d: Buffer) => (out += d.toString()));
      p.once('close', () => resolve(out.trim()));
    }));
    const store = await open({ now: () => FIXTURE_NOW });
    const counts = await Promise.all(racers);
    expect(await all(store.handshakes())).toEqual(expected.handshakes);
    expect(await all(store.pageSummaries())).toEqual(expected.pages);
    // The children read with the real clock: the fixture's records are within 90 days of it until 2027-01-30.
    const fresh = Date.now() < Date.UTC(2027, 0, 30);
    expect(counts).toEqual(fresh ? [`${expected.handshakes.length} has 1`, `${expected.handshakes.length} has 1`] : ['0 has no 1', '0 has no 1']);
    expect(readdirSync(dir).sort()).toEqual(['ACTIVE', readActive(dir) as string]);
    const bytes = readdirSync(path.join(dir, readActive(dir) as string)).map((f) => readFileSync(path.join(dir, readActive(dir) as string, f)));
    expect(bytes.some((b) => b.includes('https://a.test'))).toBe(true);
    expect(bytes.some((b) => b.includes('gone.test'))).toBe(false);
    expect((await all(store.handshakes({ origin: 'https://cdn.test' }))).map((r) => r.connectionId)).toEqual([1]);
  });
});
