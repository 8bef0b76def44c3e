import { createHash, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { docrootOf } from '../../bench/origins/docroot';
import { startZoo, type ZooOrigins } from '../../bench/origins/zoo/start-zoo';
import { ZOO_INFO, ZOO_MEMBERS, type ZooMember } from '../../bench/origins/zoo/zoo-members';
import { STREAM_WINDOW } from '../../native-host/transport/h2-flow-windows';
import { InMemoryOriginMemory } from '../../src/origins/origin-memory';
import { PEER_STREAMS_BEFORE_SETTINGS, strategy, type StrategyName } from '../../src/scheduler';
import { eventually } from '../bench-origins/nginx-gate';
import { runList } from '../support/run-list';
import { zooFileOf } from './zoo-bodies';
import { describeZoo, missingMember } from './zoo-gate';

/**
 * Every zoo member that speaks HTTP/2 limits the streams one connection may have open
 * (SETTINGS_MAX_CONCURRENT_STREAMS: lighttpd 8, Apache, h2o, HAProxy and Traffic Server 100, nginx
 * 128, Caddy 250) and refuses streams past it, or defers them. A burst of more requests than any of
 * them allows goes at once to one origin; every answer must be the file on disk, on one
 * connection, and the member's own log must show each request processed once: none lost, none
 * answered twice.
 *
 * A first connection carries 100 streams until the member's SETTINGS arrive (PEER_STREAMS_BEFORE_SETTINGS).
 * lighttpd 1.4.69 leaves a HEADERS frame past its limit of 8 unread, and every frame behind it,
 * until one of its streams ends, so a first burst moves only as far as the windows getlist granted
 * up front (native-host/transport/h2-flow-windows.ts). Two bursts test that: many small files, more
 * bytes in all than a connection's window used to be, and a few files each larger than a stream's
 * window once the SETTINGS arrived, more of them than lighttpd's limit.
 */
const ORIGIN = 'www.example.test';
const BURST = 150;
const FILE = '/real-late/img/p0.gif';
const OTHER_FILE = '/real-late/img/p1.gif';
/** A file larger than a stream's window, written into the member's docroot. */
const LARGE_FILE = '/real-late/large.bin';
const LARGE_BYTES = STREAM_WINDOW + 150_000;
const LARGE_BURST = 12;
const STRATEGIES: StrategyName[] = ['getlist', 'h2'];
const h2Members = ZOO_MEMBERS.filter((m) => ZOO_INFO[m].tls && ZOO_INFO[m].h2);

async function burst(z: ZooOrigins, name: StrategyName, memory?: InMemoryOriginMemory, file = FILE, count = BURST): Promise<void> {
  const url = new URL(file, z.pageUrl('real-late', 'https')).href;
  const want = createHash('sha256').update(zooFileOf(z, 'https', ORIGIN, url)).digest('hex');
  const before = z.accessLog().length;
  const run = await runList(strategy(name), Array.from({ length: count }, (_, i) => ({ url: `${url}?n=${i}` })), { ca: z.caPem }, [], memory);
  expect(run.results.map((r) => [r.status, r.error?.code, run.sha(r.id) === want])).toEqual(Array.from({ length: count }, () => [200, undefined, true]));
  expect(run.stats.connectionsOpened).toBe(1);
  await z.settleLog?.();
  const log = await eventually(() => z.accessLog().slice(before), (l) => l.length >= count, 10_000);
  expect(log.filter((e) => e.method === 'GET' && e.path === file)).toHaveLength(count);
}

describeZoo(`a burst of ${BURST} HTTP/2 requests to one origin of each zoo member`, () => {
  describe.each(h2Members.map((m) => [m] as const))('%s', (member: ZooMember) => {
    let zoo: ZooOrigins | undefined;
    const missing = missingMember(member);
    beforeAll(async () => {
      if (missing !== undefined) return;
      zoo = await startZoo({ member, bindings: [{ origin: ORIGIN, address: '127.0.0.1' }], pages: ['real-late'] });
      writeFileSync(join(docrootOf(join(zoo.dir, 'www'), 'https', ORIGIN), LARGE_FILE), randomBytes(LARGE_BYTES), { mode: 0o644 });
    }, 60_000);
    afterAll(async () => {
      await zoo?.stop();
    }, 30_000);

    test.each(STRATEGIES)(`%s, first contact (${PEER_STREAMS_BEFORE_SETTINGS} streams before the SETTINGS): every answer is the file, on one connection, each request processed once`, async (name) => {
      if (missing !== undefined) throw new Error(missing);
      await burst(zoo as ZooOrigins, name);
    }, 60_000);

    test.each(STRATEGIES)(`%s, first contact: ${LARGE_BURST} files each larger than a stream's window, every answer the file, each processed once`, async (name) => {
      if (missing !== undefined) throw new Error(missing);
      await burst(zoo as ZooOrigins, name, undefined, LARGE_FILE, LARGE_BURST);
    }, 60_000);

    test('getlist, the limit remembered from an earlier load: every answer is the file, on one connection, each request processed once', async () => {
      if (missing !== undefined) throw new Error(missing);
      const z = zoo as ZooOrigins;
      const memory = new InMemoryOriginMemory();
      // Another file: the member's log may write this load's line after the burst began.
      const url = new URL(OTHER_FILE, z.pageUrl('real-late', 'https'));
      await runList(strategy('getlist'), [{ url: url.href }], { ca: z.caPem }, [], memory);
      expect(memory.get(url.origin)?.maxConcurrentStreams).toBeGreaterThan(0);
      await burst(z, 'getlist', memory);
    }, 60_000);
  });
});
