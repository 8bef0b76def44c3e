import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openStore, type LmdbStore } from './lmdb-store';
import type { PageSummary, StoredHandshake } from './store-types';

const T0 = Date.UTC(2025, 0, 15);

function hs(n: number, startedAt: number): StoredHandshake {
  return {
    connectionId: n, origin: 'https://a.test', startedAt, dnsMs: 1, tcpMs: 10, tlsMs: 20, totalMs: 31, remoteAddress: '192.0.2.1',
    remotePort: 443, localPort: 50000, protocol: 'h2', tlsVersion: 'TLSv1.3', resumed: false, source: 'measure',
  };
}

function page(n: number, at: number): PageSummary {
  return {
    pageId: `p${n}`, url: 'https://a.test/', strategy: 'getlist', mode: 'measure', at, totalMs: 400, meanTtfbMs: 120, connectionsOpened: 6,
    requestsPerConnection: 2.5, requests: 15, bytes: 1, errors: 0, handshakeP50Ms: null, handshakeP90Ms: null,
  };
}

let tmp: string;
let writer: LmdbStore;
let reader: LmdbStore;
beforeEach(async () => {
  tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'getlist-snap-')));
  const dir = path.join(tmp, 'handshakes');
  writer = await openStore({ dir, now: () => T0 });
  reader = await openStore({ dir, now: () => T0, readOnly: true });
});
afterEach(async () => {
  await writer.close();
  await reader.close();
  rmSync(tmp, { recursive: true, force: true });
});

const ids = (xs: Iterable<{ record: StoredHandshake }>) => [...xs].map((x) => x.record.connectionId).sort((a, b) => a - b);

describe('LmdbStore.snapshot', () => {
  test('added() yields exactly the handshakes written since an earlier snapshot, an old-dated one too', async () => {
    await writer.addHandshakes([hs(1, T0 - 5000), hs(2, T0 - 4000)]);
    await writer.addPageSummaries([page(1, T0 - 4500)]);
    await writer.flush();
    const first = await reader.snapshot();
    const from = first.nextSeq;
    expect(from).toBe(3);
    expect(ids(first.added(0, T0))).toEqual([1, 2]); // Both older than the hint: found by the second pass.
    first.done();

    // Later writes: recent ones, one started long before (a record held back), page summaries between.
    await writer.addHandshakes([hs(3, T0 - 1000), hs(4, T0 - 86_400_000)]);
    await writer.addPageSummaries([page(2, T0 - 900)]);
    await writer.addHandshakes([hs(5, T0 - 800)]);
    await writer.flush();
    const second = await reader.snapshot();
    try {
      expect(second.nextSeq).toBe(from + 4);
      expect(ids(second.added(from, T0 - 2000))).toEqual([3, 4, 5]);
      expect([...second.added(second.nextSeq, T0)]).toEqual([]);
      expect(ids(second.between(T0 - 4000, T0 - 800))).toEqual([2, 3]);
      const seqs = [...second.between(0)].map((x) => x.seq);
      expect(new Set(seqs).size).toBe(5);
    } finally {
      second.done();
    }
  });

  test('a snapshot keeps reading what it saw while others write and forget; the next one shows the new generation', async () => {
    await writer.addHandshakes([hs(1, T0 - 3000), hs(2, T0 - 2000)]);
    await writer.flush();
    const snap = await reader.snapshot();
    await writer.addHandshakes([hs(3, T0 - 1000)]);
    await writer.flush();
    await writer.forget('https://a.test');
    try {
      expect(ids(snap.between(0))).toEqual([1, 2]);
    } finally {
      snap.done();
    }
    const after = await reader.snapshot();
    try {
      expect(after.generation).not.toBe(snap.generation);
      expect([...after.between(0)]).toEqual([]);
    } finally {
      after.done();
    }
  });
});
