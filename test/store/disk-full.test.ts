import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { storeHealthText, type HostMessage, type StoreHealth } from '../../src/protocol';
import { storeDirIn } from '../../native-host/store/data-dir';
import { openStore } from '../../native-host/store/lmdb-store';
import type { StoredHandshake } from '../../native-host/store/store-types';
import { SpawnedHost } from '../host/host-harness';
import { startTestOrigin, type TestOrigin } from '../host/test-origin';
import { PROTOCOL_VERSION } from '../../src/protocol/version';

/*
 * A full disk, for real: the data dir lives on a 600 KiB tmpfs, a ballast file takes the last
 * byte, and is deleted while the store keeps running. Mounting needs root; elsewhere these tests
 * are skipped and say so.
 */

const isRoot = process.getuid?.() === 0;
let tmp: string;
let mnt: string;
let mounted = false;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'getlist-full-'));
  mnt = path.join(tmp, 'mnt');
  mkdirSync(mnt);
  if (!isRoot) return;
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=600k,mode=0700', 'tmpfs', mnt], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mount tmpfs failed: ${r.stderr}`);
  mounted = true;
});
afterEach(() => {
  if (mounted) spawnSync('umount', ['-l', mnt]);
  mounted = false;
  rmSync(tmp, { recursive: true, force: true });
});

/** Writes a file until the file system refuses even one more byte; returns its path. */
function fillDisk(): string {
  const file = path.join(mnt, 'ballast');
  const fd = openSync(file, 'w');
  try {
    for (const size of [65_536, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x5a);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return file;
}

function hs(n: number): StoredHandshake {
  return {
    connectionId: n, origin: 'https://full.test', startedAt: Date.now(), dnsMs: 1, tcpMs: 2, tlsMs: 3, totalMs: 6, remoteAddress: '192.0.2.9',
    remotePort: 443, localPort: 40000 + n, protocol: 'h2', tlsVersion: 'TLSv1.3', resumed: false, source: 'cli', pageUrl: `https://full.test/page-${n}`,
  };
}

const maybe = isRoot ? test : test.skip;
if (!isRoot) test('disk-full tests are skipped: mounting a 600 KiB tmpfs needs root', () => expect(isRoot).toBe(false));

maybe('store: fill → E_STORE_FULL, records wait in memory up to the bound, the rest are counted as dropped → free → every waiting record is saved, none of the old lost', async () => {
  const dir = storeDirIn(path.join(mnt, 'data'));
  const errors: string[] = [];
  const store = await openStore({ dir, flushIntervalMs: 50, maxPendingRecords: 300, onError: (e) => errors.push(e.code) });
  await store.addHandshakes(Array.from({ length: 20 }, (_, i) => hs(i)));
  await store.flush();
  const ballast = fillDisk();

  // 300 records of about 0.4 KiB cannot fit in what is left (nothing).
  await store.addHandshakes(Array.from({ length: 300 }, (_, i) => hs(100 + i)));
  await expect(store.flush()).rejects.toMatchObject({ code: 'E_STORE_FULL', message: expect.stringMatching(/disk is full/) });
  expect(store.health()).toMatchObject({ state: 'full', pending: 300, dropped: 0, error: { code: 'E_STORE_FULL' } });
  // The bound: more is refused, counted, and said.
  await expect(store.addHandshakes([hs(999), hs(998)])).rejects.toMatchObject({ code: 'E_STORE_FULL' });
  const full: StoreHealth = store.health();
  expect(full).toMatchObject({ state: 'full', pending: 300, dropped: 2 });
  expect(storeHealthText(full)).toBe('store full: 302 records not saved');
  // Readers in this process still count what waits; what was on disk reads back intact.
  let n = 0;
  for await (const _ of store.handshakes()) n++;
  expect(n).toBe(320);

  unlinkSync(ballast);
  while (store.health().pending > 0) await new Promise((r) => setTimeout(r, 20)); // The timer retries on its own.
  expect(store.health()).toMatchObject({ state: 'ok', pending: 0, dropped: 2 });
  expect(errors.filter((c) => c !== 'E_STORE_FULL')).toEqual([]);
  await store.close();

  const again = await openStore({ dir, readOnly: true });
  const ids: number[] = [];
  for await (const r of again.handshakes()) ids.push(r.connectionId);
  await again.close();
  expect(ids.sort((a, b) => a - b)).toEqual([...Array.from({ length: 20 }, (_, i) => i), ...Array.from({ length: 300 }, (_, i) => 100 + i)]);
});

maybe('host: fill → its replies say "full" with what waits → free → everything measured is saved, and it exits 0', async () => {
  const dataDir = path.join(mnt, 'data');
  const origins: TestOrigin[] = await Promise.all(Array.from({ length: 10 }, () => startTestOrigin()));
  const host = new SpawnedHost({ env: () => ({ GETLIST_DATA_DIR: dataDir }) });
  try {
    const measure = async (i: number) => {
      const m = await host.ask({ type: 'schedule', id: `m${i}`, pageId: `p${i}`, documentUrl: `${(origins[i] as TestOrigin).origin}/`, requests: [] });
      if (m.type !== 'measured') throw new Error(JSON.stringify(m));
      return m;
    };
    const stats = async (id: string) => (await host.ask({ type: 'stats', id })) as Extract<HostMessage, { type: 'stats' }>;
    await measure(0);
    while ((await stats('s0')).storeHealth?.pending !== 0) await new Promise((r) => setTimeout(r, 50));
    const ballast = fillDisk();

    for (let i = 1; i < 10; i++) await measure(i);
    // After a failed flush (every 250 ms) the host's replies say so.
    let during = await stats('s1');
    while (during.storeHealth?.state !== 'full') {
      await new Promise((r) => setTimeout(r, 50));
      during = await stats('s1');
    }
    expect(during.storeHealth).toMatchObject({ state: 'full', pending: 9, dropped: 0, error: { code: 'E_STORE_FULL' } });
    expect(storeHealthText(during.storeHealth)).toBe('store full: 9 records not saved');
    expect(during.count).toBe(10); // The host still counts what waits in its memory.
    const hello = await host.ask({ type: 'hello', id: 'h', protocolVersion: PROTOCOL_VERSION });
    expect(hello.type === 'hello' && hello.capabilities.storeHealth).toMatchObject({ state: 'full', pending: 9 });

    unlinkSync(ballast);
    let after = await stats('s2');
    while (after.storeHealth?.state !== 'ok') {
      await new Promise((r) => setTimeout(r, 50));
      after = await stats('s2');
    }
    expect(after.storeHealth).toEqual({ state: 'ok', pending: 0, dropped: 0 });
    expect((await host.endInput()).code).toBe(0);
    expect(host.stderr).toMatch(/E_STORE_FULL/);

    const store = await openStore({ dir: storeDirIn(dataDir), readOnly: true });
    const seen = new Map<string, number>();
    for await (const r of store.handshakes()) seen.set(r.origin, (seen.get(r.origin) ?? 0) + 1);
    await store.close();
    for (const o of origins) expect([o.origin, seen.get(o.origin)]).toEqual([o.origin, o.accepted()]);
  } finally {
    await host.dispose();
    await Promise.all(origins.map((o) => o.close()));
  }
});
