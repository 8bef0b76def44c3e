import { getBenchPage } from '../../bench/corpus/bench-corpus';
import { startZoo, type ZooOrigins } from '../../bench/origins/zoo/start-zoo';
import { ZOO_MEMBERS, ZOO_INFO, type ZooMember } from '../../bench/origins/zoo/zoo-members';
import { ZOO_CORS_HEADER } from '../../bench/origins/zoo/zoo-types';
import { pipeliningEarned } from '../../bench/run/pipelining-earned';
import { loadPage } from '../../native-host/run/page-loader';
import type { Run } from '../../src/run';
import { strategy, type StrategyName } from '../../src/scheduler';
import { eventually } from '../bench-origins/nginx-gate';
import { lastBodies, zooFileOf } from './zoo-bodies';
import { describeZoo, missingMember } from './zoo-gate';

/**
 * Every zoo member serves McManus's 159-resource page on loopback; getlist loads it under the
 * strategies that matter there, and the member's own access log is the independent witness: the
 * requests it logged are the run's (plus the order probes' HEADs), on the connections the run
 * used, over the protocol the run negotiated; every body is the file on disk, byte for byte. What
 * pipelining getlist earned on each member is printed at the end (the bench measures its worth).
 */
const PAGE = 'mcmanus-159';
const ORIGIN = 'www.example.test';
const CASES: ReadonlyArray<readonly [StrategyName, 'http' | 'https']> = [['browser', 'http'], ['getlist', 'http'], ['getlist', 'https'], ['h2', 'https']];

const earned: string[] = [];
afterAll(() => {
  if (earned.length > 0) console.log(`what getlist earned on ${PAGE} (loopback):\n${earned.join('\n')}`);
});

describeZoo('the server zoo serves McManus-159 to getlist, and its access log agrees', () => {
  describe.each(ZOO_MEMBERS.map((m) => [m] as const))('%s', (member: ZooMember) => {
    let zoo: ZooOrigins | undefined;
    const missing = missingMember(member);
    beforeAll(async () => {
      if (missing === undefined) zoo = await startZoo({ member, bindings: [{ origin: ORIGIN, address: '127.0.0.1' }], pages: [PAGE] });
    }, 60_000);
    afterAll(async () => {
      await zoo?.stop();
    }, 30_000);

    const cases = CASES.filter(([, scheme]) => scheme === 'http' || ZOO_INFO[member].tls);
    test.each(cases)('%s over %s: every body is the file on disk; the log has the run\'s requests and connections', async (name, scheme) => {
      if (missing !== undefined) throw new Error(missing);
      const z = zoo as ZooOrigins;
      const fontCors: Array<string | string[] | undefined> = [];
      const { observe, bodyOf } = lastBodies((d, _status, headers) => {
        if (d.request.resourceType === 'font') fontCors.push(headers['access-control-allow-origin']);
      });
      const before = z.accessLog().length;
      const run: Run = await loadPage({ url: z.pageUrl(PAGE, scheme), strategy: strategy(name), transport: { ca: z.caPem }, timeoutMs: 30_000, observe });
      expect(run.errors).toBe(0);
      const page = getBenchPage(PAGE);
      expect(run.requests).toHaveLength(1 + page.resources.filter((r) => r.discoveredBy !== 'script').length);
      expect(run.requests.every((r) => r.status === 200)).toBe(true);
      const wrong = run.requests.filter((r) => !bodyOf(r.url).equals(zooFileOf(z, scheme, ORIGIN, r.url)));
      expect(wrong.map((r) => r.url)).toEqual([]);
      // A browser uses a font from another origin only when its answer allows it (ZOO_CORS_HEADER);
      // the plain origin sends no optional header by design.
      expect(fontCors.length).toBeGreaterThan(0);
      if (member !== 'plain') expect(new Set(fontCors)).toEqual(new Set([ZOO_CORS_HEADER.value]));
      // The member's own log: the run's GETs, the probes' HEADs, the connections the run used.
      const log = await eventually(() => z.accessLog().slice(before), (l) => l.length >= run.requests.length + run.orderProbes, 10_000);
      const gets = log.filter((e) => e.method === 'GET');
      // Every path the run fetched, and no other. A request sent again (the queue behind a stalled
      // response moved, unanswered requests past a request budget) may be logged once per send.
      const logged = new Map<string, number>();
      for (const e of gets) logged.set(e.path, (logged.get(e.path) ?? 0) + 1);
      expect([...logged.keys()].sort()).toEqual(run.requests.map((r) => new URL(r.url).pathname).sort());
      const overSent = run.requests.filter((r) => (logged.get(new URL(r.url).pathname) ?? 0) > r.attempts);
      expect(overSent.map((r) => [r.url, logged.get(new URL(r.url).pathname), r.attempts])).toEqual([]);
      expect(log.filter((e) => e.method === 'HEAD')).toHaveLength(run.orderProbes);
      expect(log.filter((e) => e.method !== 'GET' && e.method !== 'HEAD')).toEqual([]);
      // The connections the member logged: at least those the run's answers came on, at most those it opened.
      const logConnections = new Set(log.map((e) => e.connection)).size;
      expect(logConnections).toBeGreaterThanOrEqual(new Set(run.requests.map((r) => r.connectionId)).size);
      expect(logConnections).toBeLessThanOrEqual(run.connectionsOpened);
      // The protocol the run negotiated is the one the member logged.
      expect(new Set(log.map((e) => e.protocol))).toEqual(new Set(run.requests.map((r) => (r.protocol === 'h2' ? 'HTTP/2.0' : 'HTTP/1.1'))));
      if (scheme === 'http' || !ZOO_INFO[member].h2) expect(new Set(run.requests.map((r) => r.protocol))).toEqual(new Set(['http/1.1']));
      // Over TLS h2 is offered first, as browsers offer it, so a member that takes the client's
      // first protocol (lighttpd) speaks h2 as one that prefers its own does (RFC 7301 §3.2).
      else expect(new Set(run.requests.map((r) => r.protocol))).toEqual(new Set(['h2']));
      // Persistent connections everywhere: some connection carried more than one request.
      expect(Math.max(...log.map((e) => e.connectionRequests))).toBeGreaterThan(1);
      if (name === 'browser') expect(run.requests.filter((r) => r.pipelined)).toEqual([]);
      if (name === 'getlist') {
        const p = pipeliningEarned(run);
        const protocols = [...new Set(run.requests.map((r) => r.protocol))].join('+');
        earned.push(`  ${member.padEnd(13)} ${scheme.padEnd(5)} ${protocols.padEnd(8)} ${p.pipelined} of ${run.requests.length} pipelined, depth ${p.maxDepth}, ${p.orderProbes} order probe(s), ${new Set(run.requests.map((r) => r.connectionId)).size} connection(s), ${Math.round(run.totalMs)} ms`);
      }
    }, 60_000);
  });
});
