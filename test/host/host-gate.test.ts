import type { HostMessage, MeasuredReply, ReplayResultMessage } from '../../src/protocol';
import { startBadPortListener, startCountingListener, type CountingListener } from '../support/counting-listener';
import { SpawnedHost } from './host-harness';

/**
 * What a page can make the host connect to, through each path a browser's frame reaches: the
 * `measure` of a page's origins and the replay of its list. A counting listener is the judge: a
 * bad port, or from a public page a loopback address, must see no connection at all.
 */

let host: SpawnedHost;
let bad: CountingListener;
let local: CountingListener;
beforeEach(async () => {
  [bad, local] = await Promise.all([startBadPortListener(), startCountingListener()]);
  host = new SpawnedHost();
});
afterEach(async () => {
  await host.dispose();
  await Promise.all([bad.close(), local.close()]);
  expect(host.reader.violations).toEqual([]);
});

const PUBLIC_PAGE = 'http://203.0.113.7/page.html';
const settle = () => new Promise((r) => setTimeout(r, 100));

function measured(m: HostMessage): MeasuredReply {
  if (m.type !== 'measured') throw new Error(`expected a measured reply, got ${JSON.stringify(m)}`);
  return m;
}

test('measure: a page naming a bad port (plain and TLS) gets E_UNSAFE_PORT for it, and nothing connects there', async () => {
  const page = `${local.origin('http')}/page.html`;
  const reply = measured(
    await host.ask({
      type: 'schedule', id: 'm-1', pageId: 'm-1', documentUrl: page,
      requests: [
        { url: page, priority: 'document' },
        { url: `${bad.origin('http')}/x.png`, priority: 'image' },
        { url: `${bad.origin('https')}/`, priority: 'image' },
        { url: `http://localhost:${bad.port}/y.png`, priority: 'image' },
      ],
    }),
  );
  expect(reply.failed.map((f) => [f.origin, f.code])).toEqual([
    [bad.origin('http'), 'E_UNSAFE_PORT'],
    [bad.origin('https'), 'E_UNSAFE_PORT'],
    [`http://localhost:${bad.port}`, 'E_UNSAFE_PORT'],
  ]);
  // Only the page's own origin was measured (and so stored).
  expect(reply.handshakes.map((h) => h.origin)).toEqual([local.origin('http')]);
  await settle();
  expect(bad.accepts()).toBe(0);
  expect(local.accepts()).toBe(1);
});

test('measure: a public page naming loopback gets E_PRIVATE_NETWORK, and the loopback listener sees no connection', async () => {
  const reply = measured(
    await host.ask({
      type: 'schedule', id: 'm-2', pageId: 'm-2', documentUrl: PUBLIC_PAGE,
      requests: [
        { url: `${local.origin('http')}/a.png`, priority: 'image' },
        { url: `${local.origin('https')}/b.png`, priority: 'image' },
        { url: `http://localhost:${local.port}/c.png`, priority: 'image' },
      ],
    }),
  );
  const refused = reply.failed.filter((f) => f.origin !== 'http://203.0.113.7');
  expect(refused.map((f) => f.code)).toEqual(['E_PRIVATE_NETWORK', 'E_PRIVATE_NETWORK', 'E_PRIVATE_NETWORK']);
  expect(reply.handshakes.filter((h) => h.remoteAddress === '127.0.0.1' || h.remoteAddress === '::1')).toEqual([]);
  await settle();
  expect(local.accepts()).toBe(0);
});

async function replay(id: string, documentUrl: string, urls: string[], strategies: string[]): Promise<ReplayResultMessage[]> {
  host.send({ type: 'schedule', id, pageId: id, documentUrl, mode: 'replay', strategies, requests: urls.map((url) => ({ url, priority: 'image' })) });
  await host.reader.waitFor((m) => m.id === id && (m.type === 'replay-summary' || m.type === 'error'), `the end of replay ${id}`);
  return host.reader.withId(id).filter((m): m is ReplayResultMessage => m.type === 'replay-result');
}

test('replay: bad ports and, from a public page, loopback are refused with their codes under every strategy; no connection reaches either', async () => {
  const strategies = ['http10', 'browser', 'pipelined', 'getlist', 'h2'];
  const fromLocal = await replay('r-1', `${local.origin('http')}/page.html`, [`${bad.origin('http')}/x.png`, `${bad.origin('https')}/y.png`], strategies);
  expect(fromLocal.map((r) => r.strategy)).toEqual(strategies);
  for (const r of fromLocal) expect(r.requests.map((q) => q.error?.code)).toEqual(['E_UNSAFE_PORT', 'E_UNSAFE_PORT']);
  const fromPublic = await replay('r-2', PUBLIC_PAGE, [`${local.origin('http')}/a.png`, `http://localhost:${local.port}/b.png`], strategies);
  for (const r of fromPublic) expect(r.requests.map((q) => q.error?.code)).toEqual(['E_PRIVATE_NETWORK', 'E_PRIVATE_NETWORK']);
  await settle();
  expect([bad.accepts(), local.accepts()]).toEqual([0, 0]);
});
