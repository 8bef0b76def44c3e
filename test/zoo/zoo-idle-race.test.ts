import { getBenchPage } from '../../bench/corpus/bench-corpus';
import { startZoo, type ZooOrigins } from '../../bench/origins/zoo/start-zoo';
import type { ZooMember } from '../../bench/origins/zoo/zoo-members';
import { loadPage } from '../../native-host/run/page-loader';
import { strategy, type StrategyName } from '../../src/scheduler';
import { eventually } from '../bench-origins/nginx-gate';
import { lastBodies, zooFileOf } from './zoo-bodies';
import { describeZoo, missingMember } from './zoo-gate';

/**
 * Real servers with a keep-alive timeout of a few milliseconds (nginx, Apache, Caddy, and HAProxy
 * in front of nginx): the idle close races the client's
 * next request on many reuses (RFC 9112 §9.3.1). Each load of McManus's 159-resource page must
 * still bring every body, byte for byte the file on disk, with no request written more than four
 * times; the member's own access log witnesses the sends that reached it. The faulty origin's long run (bench/README.md, "Keep-alive timeouts racing
 * requests, the long run") counts the same race hundreds of times.
 */
const PAGE = 'mcmanus-159';
const ORIGIN = 'www.example.test';
const LOADS = 3;
const STRATEGIES: StrategyName[] = ['getlist', 'pipelined', 'browser', 'serial'];

/**
 * The members whose keep-alive timeout takes milliseconds. lighttpd, h2o and Traffic Server take
 * whole seconds; Varnish's `timeout_idle` also bounds a new connection's wait for its first
 * request, so at a few ms it closes connections before a client's first request arrives, which is
 * not this race.
 */
const MEMBERS: ZooMember[] = ['nginx', 'apache', 'caddy', 'haproxy'];

describeZoo('servers closing idle connections after 2 ms', () => {
  describe.each(MEMBERS.map((m) => [m] as const))('%s', (member: ZooMember) => {
    let zoo: ZooOrigins | undefined;
    const missing = missingMember(member);
    beforeAll(async () => {
      if (missing === undefined) zoo = await startZoo({ member, bindings: [{ origin: ORIGIN, address: '127.0.0.1' }], pages: [PAGE], keepaliveTimeoutMs: 2 });
    }, 60_000);
    afterAll(async () => {
      await zoo?.stop();
    }, 30_000);

    test.each(STRATEGIES)('%s: every body the file on disk, no request lost, none sent more than four times', async (name) => {
      if (missing !== undefined) throw new Error(missing);
      const z = zoo as ZooOrigins;
      const expected = 1 + getBenchPage(PAGE).resources.filter((r) => r.discoveredBy !== 'script').length;
      let resends = 0;
      for (let i = 0; i < LOADS; i++) {
        const { observe, bodyOf } = lastBodies();
        const before = z.accessLog().length;
        const run = await loadPage({ url: z.pageUrl(PAGE, 'http'), strategy: strategy(name), timeoutMs: 30_000, observe });
        expect(run.requests.filter((r) => r.error).map((r) => [r.url, r.error?.code, r.error?.message])).toEqual([]);
        expect(run.requests).toHaveLength(expected);
        const wrong = run.requests.filter((r) => !bodyOf(r.url).equals(zooFileOf(z, 'http', ORIGIN, r.url)));
        expect(wrong.map((r) => r.url)).toEqual([]);
        expect(Math.max(...run.requests.map((r) => r.attempts))).toBeLessThanOrEqual(4);
        resends += run.requests.reduce((n, r) => n + r.attempts - 1, 0);
        // The member logged each path no more often than the run says it was written.
        const log = await eventually(() => z.accessLog().slice(before), (l) => l.length >= run.requests.length, 10_000);
        const logged = new Map<string, number>();
        for (const e of log) if (e.method === 'GET') logged.set(e.path, (logged.get(e.path) ?? 0) + 1);
        const overSent = run.requests.filter((r) => (logged.get(new URL(r.url).pathname) ?? 0) > r.attempts);
        expect(overSent.map((r) => [r.url, logged.get(new URL(r.url).pathname), r.attempts])).toEqual([]);
      }
      // How often the close raced a request: printed, since which reuses it races depends on the machine's timing.
      console.log(`${member} / ${name}: ${resends} resend(s) over ${LOADS} loads`);
    }, 120_000);
  });
});
