import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strategy, type Strategy } from '../../src/scheduler';
import { InMemoryOriginMemory, type OriginMemory } from '../../src/origins/origin-memory';
import type { Run } from '../../src/run';
import { loadPage } from '../../native-host/run/page-loader';
import { readActive } from '../../native-host/store/generations';
import { openEnv } from '../../native-host/store/lmdb-env';
import { openStore } from '../../native-host/store/lmdb-store';
import { pageOriginsKey } from '../../native-host/store/record-codec';
import { StoreOriginMemory } from '../../native-host/store/store-origin-memory';
import { bodyFor, startRawServer, type WireRequest } from '../support/raw-http-server';

/**
 * GETLIST on a returning visit (Strategy.speculativeList), read off the servers' own logs: what
 * arrived, when (before the document was answered), and how often.
 */

const SIZE = 700;
const typeOf = (p: string): string => (p === '/' ? 'text/html' : p.endsWith('.css') ? 'text/css' : p.endsWith('.js') ? 'text/javascript' : 'image/gif');

interface Site {
  page: Awaited<ReturnType<typeof startRawServer>>;
  cdn: Awaited<ReturnType<typeof startRawServer>>;
  url: string;
  /** The document's HTML, changeable between loads. */
  html: string;
  /** Delay of the document's answer, ms. */
  documentDelayMs: number;
  /** Answer `/favicon.ico` with this status instead of an image (a site without a favicon: 404). */
  faviconStatus?: number;
  /** performance.now() when the last document answer was written. */
  documentAnsweredAt: number;
  close(): Promise<void>;
}

/** A page on one origin whose stylesheet is on another (so it is complete before the document is answered); the sheet `@import`s a second and sets a background. */
async function startSite(): Promise<Site> {
  const site = { html: '', documentDelayMs: 0, documentAnsweredAt: 0 } as Site;
  site.cdn = await startRawServer((req) => {
    if (req.path === '/s.css') return { body: Buffer.from('@import "/imp.css";\nh1 { background: url(/bg.gif) }\n'), headers: { 'content-type': 'text/css' } };
    if (req.path === '/imp.css') return { body: Buffer.from('p { color: red }\n'), headers: { 'content-type': 'text/css' } };
    return { body: bodyFor(req.path, SIZE), headers: { 'content-type': typeOf(req.path) } };
  });
  site.page = await startRawServer((req) => {
    if (req.path === '/favicon.ico' && site.faviconStatus !== undefined) return { status: site.faviconStatus, body: Buffer.from('no icon'), headers: { 'content-type': 'text/plain' } };
    if (req.path !== '/') return { body: bodyFor(req.path, SIZE), headers: { 'content-type': typeOf(req.path) } };
    const delayMs = site.documentDelayMs;
    setTimeout(() => (site.documentAnsweredAt = performance.now()), delayMs);
    return { body: Buffer.from(site.html), headers: { 'content-type': 'text/html' }, ...(delayMs ? { delayMs } : {}) };
  });
  site.url = `${site.page.origin}/`;
  site.html = page(site.cdn.origin, ['/a.gif', '/b.gif']);
  site.close = async () => {
    await site.page.close();
    await site.cdn.close();
  };
  return site;
}

function page(cdn: string, images: readonly string[]): string {
  return `<!DOCTYPE html><html><head><link rel="stylesheet" href="${cdn}/s.css"><script src="/app.js"></script></head><body><h1>t</h1><p>x</p>${images.map((i) => `<img src="${i}">`).join('')}</body></html>`;
}

/** Both servers' logs since the last call, as `origin + path`. */
function takeLog(site: Site): Array<WireRequest & { url: string }> {
  return [...site.page.requests.splice(0).map((r) => ({ ...r, url: `${site.page.origin}${r.path}` })), ...site.cdn.requests.splice(0).map((r) => ({ ...r, url: `${site.cdn.origin}${r.path}` }))];
}

const count = (log: ReadonlyArray<{ url: string }>, url: string): number => log.filter((r) => r.url === url).length;
const load = (site: Site, memory: OriginMemory, s: Strategy = strategy('getlist')): Promise<Run> => loadPage({ url: site.url, strategy: s, memory });

describe('GETLIST on a revisit: the learned request list sent at once', () => {
  let site: Site;
  beforeEach(async () => {
    site = await startSite();
  });
  afterEach(async () => {
    await site.close();
  });

  test('the revisit sends every learned URL before the document is answered, each exactly once, the document first; sheets that came early still yield their imports and backgrounds', async () => {
    const memory = new InMemoryOriginMemory();
    const first = await load(site, memory);
    expect(first.errors).toBe(0);
    expect(first.speculative).toBe(0);
    const learned = takeLog(site).filter((r) => r.path !== '/').map((r) => r.url);
    // The document's stylesheet, its @import and background, the script, both images, the favicon.
    expect(learned).toEqual(expect.arrayContaining([`${site.cdn.origin}/s.css`, `${site.cdn.origin}/imp.css`, `${site.cdn.origin}/bg.gif`, `${site.page.origin}/app.js`, `${site.page.origin}/a.gif`]));

    site.documentDelayMs = 300;
    const revisit = await load(site, memory);
    const log = takeLog(site);
    expect(revisit.errors).toBe(0);
    for (const url of learned) {
      expect([url, count(log, url)]).toEqual([url, 1]);
      expect([url, (log.find((r) => r.url === url) as WireRequest).at < site.documentAnsweredAt]).toEqual([url, true]);
    }
    expect(count(log, site.url)).toBe(1);
    // The document is the first request to reach its origin, alone on its connection's first place.
    const doc = log.find((r) => r.url === site.url) as WireRequest;
    expect(doc.index).toBe(0);
    expect(log.filter((r) => r.url.startsWith(site.page.origin) && r.at < doc.at)).toEqual([]);
    // Every guess was named by the page after all: the early sheet's @import and background included.
    expect(revisit.speculative).toBe(learned.length);
    expect(revisit.speculativeUnused).toBe(0);
    expect(revisit.speculativeWastedBytes).toBe(0);
    expect(revisit.requests.filter((r) => r.url !== site.url).map((r) => [r.url, r.speculative]).sort()).toEqual(learned.map((u) => [u, 'used']).sort());
  });

  test('a resource removed from the page is fetched once and reported unused, not counted; one added is found by parsing; the next visit asks only for what both loads had', async () => {
    const memory = new InMemoryOriginMemory();
    await load(site, memory);
    takeLog(site);
    const [a, b, c] = ['/a.gif', '/b.gif', '/c.gif'].map((p) => `${site.page.origin}${p}`) as [string, string, string];

    site.html = page(site.cdn.origin, ['/a.gif', '/c.gif']);
    const second = await load(site, memory);
    const log2 = takeLog(site);
    expect(second.errors).toBe(0);
    expect([count(log2, a), count(log2, b), count(log2, c)]).toEqual([1, 1, 1]);
    const rec = (run: Run, url: string) => run.requests.find((r) => r.url === url);
    expect(rec(second, b)?.speculative).toBe('unused');
    expect(rec(second, b)?.bytes).toBe(SIZE);
    expect(second.speculativeUnused).toBe(1);
    expect(second.speculativeWastedBytes).toBe(SIZE);
    // The page's figures are its own resources': the unused guess is in neither bytes nor requests counted.
    const pageBytes = second.requests.filter((r) => r.speculative !== 'unused').reduce((s, r) => s + r.bytes, 0);
    expect(second.bytes).toBe(pageBytes);
    expect(rec(second, a)?.speculative).toBe('used');
    // Added since: not in the list, found by parsing (no speculative mark), asked for once.
    expect(rec(second, c)).toBeDefined();
    expect(rec(second, c)?.speculative).toBeUndefined();

    const third = await load(site, memory);
    const log3 = takeLog(site);
    expect(third.errors).toBe(0);
    // Two loads recorded: b (on the first only) is not asked for; c (on the second only) is left to parsing once more.
    expect([count(log3, a), count(log3, b), count(log3, c)]).toEqual([1, 0, 1]);
    expect(rec(third, a)?.speculative).toBe('used');
    expect(rec(third, c)?.speculative).toBeUndefined();
    expect(third.speculativeUnused).toBe(0);
  });

  test.each([404, 410])('a missing favicon (%s) is asked for with the list, before the document is answered, once; another error status is left to parsing', async (status) => {
    const memory = new InMemoryOriginMemory();
    site.faviconStatus = status;
    const icon = `${site.page.origin}/favicon.ico`;
    const first = await load(site, memory);
    expect(first.requests.find((r) => r.url === icon)?.status).toBe(status);
    takeLog(site);
    site.documentDelayMs = 300;
    const revisit = await load(site, memory);
    const log = takeLog(site);
    expect(count(log, icon)).toBe(1);
    expect((log.find((r) => r.url === icon) as WireRequest).at).toBeLessThan(site.documentAnsweredAt);
    expect(revisit.requests.find((r) => r.url === icon)?.speculative).toBe('used');
    expect(revisit.speculativeUnused).toBe(0);

    // A favicon that failed otherwise (a server error) is not a fact about the page: not learned.
    const other = new InMemoryOriginMemory();
    site.faviconStatus = 503;
    site.documentDelayMs = 0;
    await load(site, other);
    takeLog(site);
    site.documentDelayMs = 300;
    const again = await load(site, other);
    const log2 = takeLog(site);
    expect(count(log2, icon)).toBe(1);
    expect((log2.find((r) => r.url === icon) as WireRequest).at).toBeGreaterThanOrEqual(site.documentAnsweredAt);
    expect(again.requests.find((r) => r.url === icon)?.speculative).toBeUndefined();
  });

  test.each([
    ['browser', strategy('browser')],
    ['h2', strategy('h2')],
    ['getlist with speculativeList off (--no-speculative)', strategy('getlist', { memory: { speculativeList: false } })],
  ])('%s never sends a learned URL before the page names it', async (_name, s) => {
    const memory = new InMemoryOriginMemory();
    await load(site, memory);
    takeLog(site);
    expect(memory.pageList(site.url)?.resources.length).toBeGreaterThan(0);
    site.documentDelayMs = 150;
    const run = await load(site, memory, s);
    const log = takeLog(site);
    expect(run.errors).toBe(0);
    expect(run.speculative).toBe(0);
    expect(run.requests.every((r) => r.speculative === undefined)).toBe(true);
    expect(log.filter((r) => r.url !== site.url && r.at < site.documentAnsweredAt)).toEqual([]);
  });

  test('a learned URL on a bad port is never asked for (safe-target rule), the rest are', async () => {
    const memory = new InMemoryOriginMemory();
    await load(site, memory);
    takeLog(site);
    const learned = memory.pageList(site.url)?.resources ?? [];
    const bad = 'http://127.0.0.1:6667/x.gif';
    // Learned on two loads, so the two-visit rule would let it through.
    const visit = [...learned.map((r) => ({ ...r })), { url: bad, resourceType: 'image', priority: 'image' as const, bytes: 10, order: learned.length }];
    memory.putPageOrigins(site.url, [], visit);
    memory.putPageOrigins(site.url, [], visit);
    expect(memory.pageList(site.url)?.resources.find((r) => r.url === bad)?.seen).toBe(0b11);
    const run = await load(site, memory);
    expect(run.requests.map((r) => r.url)).not.toContain(bad);
    expect(run.speculative).toBe(learned.length);
    expect(run.errors).toBe(0);
  });

  test('a corrupt list in the store is skipped and counted; the page is loaded by parsing alone', async () => {
    const tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'getlist-list-')));
    const dir = path.join(tmp, 'handshakes');
    try {
      const learnt = new InMemoryOriginMemory();
      await load(site, learnt);
      takeLog(site);
      const record = learnt.toJSON().pages[0];
      // Written as a foreign or damaged process might: one entry's class is not a class.
      const store0 = await openStore({ dir });
      await store0.putPageOrigins([record as never]);
      await store0.close();
      const env = openEnv(dir, readActive(dir) as string);
      const resources = record?.resources ?? [];
      env.transactionSync(() => env.putSync(pageOriginsKey(site.url), JSON.stringify({ ...record, resources: [...resources.slice(1), { ...resources[0], priority: 'urgent' }] })));
      await env.close();

      const store = await openStore({ dir });
      try {
        const memory = await StoreOriginMemory.open(store, { pages: [site.url] });
        expect(store.stats().skipped).toBe(1);
        expect(memory.pageList(site.url)).toBeUndefined();
        site.documentDelayMs = 150;
        const run = await load(site, memory);
        expect(run.errors).toBe(0);
        expect(run.speculative).toBe(0);
        expect(takeLog(site).filter((r) => r.url !== site.url && r.at < site.documentAnsweredAt)).toEqual([]);
        await memory.settled();
      } finally {
        await store.close();
      }
      // What this load learned replaced the corrupt record: a well-formed list reads back.
      const again = await openStore({ dir });
      try {
        const memory = await StoreOriginMemory.open(again, { pages: [site.url] });
        expect(again.stats().skipped).toBe(0);
        expect(memory.pageList(site.url)?.resources.map((r) => r.url).sort()).toEqual(resources.map((r) => r.url).sort());
      } finally {
        await again.close();
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
