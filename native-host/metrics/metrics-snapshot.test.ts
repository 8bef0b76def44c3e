import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportPrometheus } from '../../src/stats/export-formats';
import { aggregateHandshakes } from '../../src/stats/handshake-stats';
import { mulberry32 } from '../../src/core/prng';
import { openStore, type LmdbStore } from '../store/lmdb-store';
import type { StoredHandshake } from '../store/store-types';
import { MetricsSnapshot } from './metrics-snapshot';

const T0 = Date.UTC(2025, 0, 15);
const MIN = 60_000;
const ORIGINS = ['https://a.test', 'https://b.test', 'http://c.test:8080'];

let clock = T0;
let tmp: string;
let dir: string;
const opened: LmdbStore[] = [];
async function open(readOnly: boolean, retentionDays?: number): Promise<LmdbStore> {
  const s = await openStore({ dir, now: () => clock, readOnly, ...(retentionDays ? { retentionDays } : {}) });
  opened.push(s);
  return s;
}
beforeEach(() => {
  clock = T0;
  tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'getlist-msnap-')));
  dir = path.join(tmp, 'handshakes');
});
afterEach(async () => {
  for (const s of opened.splice(0)) await s.close().catch(() => undefined);
  rmSync(tmp, { recursive: true, force: true });
});

let next = 0;
function records(rand: () => number, n: number, startedAt: () => number): StoredHandshake[] {
  return Array.from({ length: n }, () => {
    const origin = ORIGINS[Math.floor(rand() * ORIGINS.length)] as string;
    const https = origin.startsWith('https:');
    const tcpMs = 10 ** (rand() * 3);
    const tlsMs = https ? 10 ** (rand() * 3) : 0;
    return {
      connectionId: next++, origin, startedAt: startedAt(), dnsMs: rand() * 5, tcpMs, tlsMs, totalMs: tcpMs + tlsMs + 1, remoteAddress: '192.0.2.1',
      remotePort: 443, localPort: 50000, protocol: rand() < 0.5 ? 'h2' : 'http/1.1', tlsVersion: https ? 'TLSv1.3' : undefined,
      resumed: https && rand() < 0.3, source: 'measure',
    };
  });
}

/** The independent observer: every handshake the store returns for the window, aggregated afresh. */
async function recomputed(store: LmdbStore, since: number | undefined): Promise<string> {
  const all: StoredHandshake[] = [];
  for await (const r of store.handshakes(since === undefined ? {} : { since })) all.push(r);
  return exportPrometheus(aggregateHandshakes(all));
}

describe('MetricsSnapshot', () => {
  test.each([1, 2])('a 30-minute window that moves with the clock matches a full recomputation at every step (seed %i)', async (seed) => {
    const rand = mulberry32(seed);
    const writer = await open(false);
    const reader = await open(true);
    const since = (now: number) => now - 30 * MIN;
    // A small chunk: reads yield to the event loop often, and the writer commits in between.
    const snapshot = new MetricsSnapshot({ store: reader, since, maxAgeMs: 0, now: () => clock, chunk: 7, lateMs: 5 * MIN });
    await writer.addHandshakes(records(rand, 300, () => clock - rand() * 90 * MIN));
    await writer.flush();
    let rebuilds = 0;
    for (let step = 0; step < 25; step++) {
      const view = await snapshot.refresh();
      if (view.rebuilt) rebuilds++;
      expect(view.body.toString()).toBe(await recomputed(reader, since(clock)));
      clock += rand() * 4 * MIN;
      // Mostly fresh records; some started long ago (inside and outside the window), as a host
      // that held records back while its disk was full would write them.
      await writer.addHandshakes([
        ...records(rand, 20, () => clock - rand() * 2000),
        ...records(rand, 3, () => clock - rand() * 60 * MIN),
      ]);
      if (step % 3 === 0) await writer.flush();
    }
    expect(rebuilds).toBe(1);
  });

  test('the store’s retention is a window too: records age out of it without a sweep', async () => {
    const writer = await open(false, 1);
    const reader = await open(true, 1);
    const snapshot = new MetricsSnapshot({ store: reader, maxAgeMs: 0, now: () => clock });
    const rand = mulberry32(5);
    await writer.addHandshakes(records(rand, 200, () => clock - rand() * 86_400_000));
    await writer.flush();
    const before = await snapshot.refresh();
    expect(before.handshakes).toBe(200);
    clock += 6 * 3_600_000;
    const after = await snapshot.refresh();
    expect(after.rebuilt).toBe(false);
    expect(after.handshakes).toBeLessThan(200);
    expect(after.body.toString()).toBe(await recomputed(reader, undefined));
  });

  test('a forget by another store rebuilds it: the forgotten origin’s series are gone', async () => {
    const writer = await open(false);
    const reader = await open(true);
    const snapshot = new MetricsSnapshot({ store: reader, maxAgeMs: 0, now: () => clock });
    await writer.addHandshakes(records(mulberry32(3), 120, () => clock - 1000));
    await writer.flush();
    expect((await snapshot.refresh()).body.toString()).toContain('origin="https://a.test"');
    await writer.forget('https://a.test');
    const view = await snapshot.refresh();
    expect(view.rebuilt).toBe(true);
    expect(view.body.toString()).not.toContain('origin="https://a.test"');
    expect(view.body.toString()).toBe(await recomputed(reader, undefined));
  });

  test('concurrent callers share one refresh, and a fresh view is served without reading the store', async () => {
    const reader = await open(true);
    let snapshots = 0;
    const store = { snapshot: () => (snapshots++, reader.snapshot()) };
    const snapshot = new MetricsSnapshot({ store, maxAgeMs: 1000, now: () => clock });
    const views = await Promise.all(Array.from({ length: 50 }, () => snapshot.current()));
    expect(new Set(views).size).toBe(1);
    expect(snapshots).toBe(1);
    clock += 999;
    await snapshot.current();
    expect(snapshots).toBe(1);
    clock += 1;
    await snapshot.current();
    expect(snapshots).toBe(2);
  });

  test('stop() ends a rebuild at its next turn and refuses later refreshes', async () => {
    const writer = await open(false);
    const reader = await open(true);
    await writer.addHandshakes(records(mulberry32(4), 500, () => clock - 1000));
    await writer.flush();
    const snapshot = new MetricsSnapshot({ store: reader, chunk: 10, now: () => clock });
    const refreshing = snapshot.refresh();
    await new Promise((resolve) => setImmediate(resolve));
    await snapshot.stop();
    await expect(refreshing).rejects.toMatchObject({ code: 'E_METRICS_STOPPED' });
    await expect(snapshot.current()).rejects.toMatchObject({ code: 'E_METRICS_STOPPED' });
  });
});
