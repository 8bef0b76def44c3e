import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { HostMessage, MeasuredReply } from '../../src/protocol';
import { SpawnedHost } from '../host/host-harness';
import { startTestOrigin, type TestOrigin } from '../host/test-origin';
import { PROTOCOL_VERSION } from '../../src/protocol/version';

/*
 * The store beside running browsers: two hosts (Chrome and Firefox open at once) record into one
 * data dir while `getlist stats --json` and `getlist export` run as separate processes. Each test
 * origin counts the TCP connections it accepted: that is the independent count every reader must
 * agree with. Needs `npm run build` (bin/getlist.js runs dist/).
 */

const BIN = path.join(__dirname, '..', '..', 'bin', 'getlist.js');
const run = promisify(execFile);
/** What a reader may lag behind an acknowledged record: the flush interval (250 ms) plus slack. */
const VISIBLE_WITHIN_MS = 1000;

let dataDir: string;
let origins: TestOrigin[] = [];
let hosts: SpawnedHost[] = [];
beforeEach(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'getlist-shared-'));
  origins = await Promise.all(Array.from({ length: 12 }, () => startTestOrigin()));
});
afterEach(async () => {
  await Promise.all(hosts.map((h) => h.dispose()));
  hosts = [];
  await Promise.all(origins.map((o) => o.close()));
  rmSync(dataDir, { recursive: true, force: true });
});

function measured(m: HostMessage): MeasuredReply {
  if (m.type !== 'measured') throw new Error(`expected a measured reply, got ${JSON.stringify(m)}`);
  return m;
}

async function cli(...args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, [BIN, ...args, '--data-dir', dataDir], { env: { PATH: '/usr/bin:/bin', HOME: dataDir } });
  return stdout;
}

async function statsCount(): Promise<{ count: number; perOrigin: Map<string, number> }> {
  const doc = JSON.parse(await cli('stats', '--json')) as { count: number; groups: Array<{ group: string; key: string; count: number }> };
  return { count: doc.count, perOrigin: new Map(doc.groups.filter((g) => g.group === 'origin').map((g) => [g.key, g.count])) };
}

test('two hosts record into one store while stats and export run in other processes; every reader agrees with the origins', async () => {
  const env = () => ({ GETLIST_DATA_DIR: dataDir });
  hosts = [new SpawnedHost({ env }), new SpawnedHost({ env })];
  const [first, second] = hosts as [SpawnedHost, SpawnedHost];
  /** Epoch ms at which each handshake was acknowledged (its measured reply arrived). */
  const acked: number[] = [];
  let readsDuringWrites = 0;
  for (const [i, o] of origins.entries()) {
    // Both hosts measure the same page at once: each opens its own connection.
    const replies = await Promise.all([first, second].map((h, k) => h.ask({ type: 'schedule', id: `m${i}-${k}`, pageId: `p${i}`, documentUrl: `${o.origin}/page-${i}.html`, requests: [{ url: `${o.origin}/a.png`, priority: 'image' }] })));
    for (const r of replies) {
      const m = measured(r);
      expect(m.handshakes.map((h) => h.origin)).toEqual([o.origin]);
      expect(m.storeHealth).toMatchObject({ state: 'ok', dropped: 0 });
      acked.push(Date.now());
    }
    if (i % 3 !== 2) continue;
    // A reader started now sees at least every record acknowledged VISIBLE_WITHIN_MS ago, and both
    // hosts keep answering (nothing waits on a lock).
    const startedAt = Date.now();
    const [stats, exported] = await Promise.all([statsCount(), cli('export', '--format', 'json')]);
    const due = acked.filter((t) => t <= startedAt - VISIBLE_WITHIN_MS).length;
    expect(stats.count).toBeGreaterThanOrEqual(due);
    expect(stats.count).toBeLessThanOrEqual(acked.length);
    expect((JSON.parse(exported) as { count: number }).count).toBeGreaterThanOrEqual(due);
    readsDuringWrites++;
  }
  expect(readsDuringWrites).toBe(4);

  // The newest record becomes visible to another process within the bound.
  const last = acked.at(-1) as number;
  let seen = (await statsCount()).count;
  while (seen < acked.length && Date.now() - last < 5000) seen = (await statsCount()).count;
  expect(seen).toBe(acked.length);
  expect(Date.now() - last).toBeLessThan(5000);

  // Both hosts exit cleanly; afterwards every connection each origin accepted is in the store, once.
  expect((await first.endInput()).code).toBe(0);
  expect((await second.endInput()).code).toBe(0);
  const after = await statsCount();
  expect(after.count).toBe(origins.reduce((n, o) => n + o.accepted(), 0));
  for (const o of origins) expect([o.origin, after.perOrigin.get(o.origin)]).toEqual([o.origin, o.accepted()]);
  expect(origins.every((o) => o.accepted() === 2)).toBe(true);
});

test('a host started while another runs gets the store too, and a host started after the first exits picks it up', async () => {
  const env = () => ({ GETLIST_DATA_DIR: dataDir });
  const a = new SpawnedHost({ env });
  hosts.push(a);
  const helloA = await a.ask({ type: 'hello', id: 'h', protocolVersion: PROTOCOL_VERSION });
  const b = new SpawnedHost({ env });
  hosts.push(b);
  const helloB = await b.ask({ type: 'hello', id: 'h', protocolVersion: PROTOCOL_VERSION });
  const storeOf = (m: HostMessage) => (m.type === 'hello' ? m.capabilities.store : undefined);
  expect(storeOf(helloA)).toBe(path.join(dataDir, 'handshakes'));
  expect(storeOf(helloB)).toBe(storeOf(helloA));
  const [o1, o2] = origins as [TestOrigin, TestOrigin];
  measured(await b.ask({ type: 'schedule', id: 's', pageId: 'p', documentUrl: `${o1.origin}/`, requests: [] }));
  expect((await a.endInput()).code).toBe(0);
  const c = new SpawnedHost({ env });
  hosts.push(c);
  measured(await c.ask({ type: 'schedule', id: 's', pageId: 'p', documentUrl: `${o2.origin}/`, requests: [] }));
  expect((await b.endInput()).code).toBe(0);
  expect((await c.endInput()).code).toBe(0);
  const stats = await statsCount();
  expect([stats.perOrigin.get(o1.origin), stats.perOrigin.get(o2.origin)]).toEqual([o1.accepted(), o2.accepted()]);
  expect(stats.count).toBe(2);
});
