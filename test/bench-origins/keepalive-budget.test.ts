import { createHash } from 'node:crypto';
import { benchPageBuild, getBenchPage } from '../../bench/corpus/bench-corpus';
import { startOrigins, type Origins } from '../../bench/origins/start-origins';
import { loadPage } from '../../native-host/run/page-loader';
import { strategy } from '../../src/scheduler';
import { describeWithNginx, eventually, loopback } from './nginx-gate';

/**
 * nginx closes a connection after `keepalive_requests` requests, saying `Connection: close` on the
 * last response (Apache's `MaxKeepAliveRequests` does the same). With requests pipelined behind
 * that response the close is the server's budget, not a pipelining fault (RFC 9112 §9.6): getlist
 * sends what was never answered again, keeps pipelining, and writes no connection past the budget
 * once it has seen it. nginx's own access log is the witness.
 */
const PAGE = 'mcmanus-159';
const ORIGIN = 'www.example.test';
const BUDGET = 5;

describeWithNginx(`nginx with keepalive_requests ${BUDGET}`, () => {
  let origins: Origins;
  beforeAll(async () => {
    origins = await startOrigins({ bindings: loopback([ORIGIN]), pages: [PAGE], keepaliveRequests: BUDGET });
  });
  afterAll(async () => {
    await origins?.stop();
  });

  test(`getlist loads ${PAGE}: every body exact, each request answered at most once per send, no connection past the budget, pipelining kept`, async () => {
    const page = getBenchPage(PAGE);
    const build = benchPageBuild(PAGE);
    const bodies = new Map<number, ReturnType<typeof createHash>>();
    const lastDispatch = new Map<string, number>();
    const run = await loadPage({
      url: origins.pageUrl(PAGE, 'http'), strategy: strategy('getlist'), timeoutMs: 30_000,
      observe: {
        onResponseHead: (d) => {
          bodies.set(d.id, createHash('sha256'));
          lastDispatch.set(d.request.url, d.id);
        },
        onBody: (d, chunk) => { bodies.get(d.id)?.update(chunk); },
      },
    });
    expect(run.errors).toBe(0);
    const want = (url: string): string => createHash('sha256').update(build.bodyOf(ORIGIN, new URL(url).pathname, () => '')?.body ?? Buffer.alloc(0)).digest('hex');
    const wrong = run.requests.filter((r) => bodies.get(lastDispatch.get(r.url) ?? -1)?.digest('hex') !== want(r.url));
    expect(wrong.map((r) => r.url)).toEqual([]);
    expect(run.requests).toHaveLength(1 + page.resources.filter((r) => r.discoveredBy !== 'script').length);
    // The server's view: every request answered, none more often than getlist sent it, and no
    // connection carried more than its budget.
    const log = await eventually(() => origins.accessLog(), (l) => l.filter((e) => e.method === 'GET').length >= run.requests.length);
    const gets = log.filter((e) => e.method === 'GET');
    const logged = new Map<string, number>();
    for (const e of gets) logged.set(e.path, (logged.get(e.path) ?? 0) + 1);
    expect([...new Set(gets.map((e) => e.path))].sort()).toEqual(run.requests.map((r) => new URL(r.url).pathname).sort());
    const overSent = run.requests.filter((r) => (logged.get(new URL(r.url).pathname) ?? 0) > r.attempts);
    expect(overSent.map((r) => r.url)).toEqual([]);
    // An answer logged but sent again was lost with its connection: nginx closing at its budget
    // while later requests were still arriving resets the connection, and the kernel drops the
    // answers the client had not yet read (RFC 9112 §9.6 on closing with requests in flight).
    // Such a connection is one the server closed at its budget.
    const answeredTwice = new Set([...logged].filter(([, n]) => n > 1).map(([path]) => path));
    const closedAtBudget = new Set(log.filter((e) => e.connectionRequests === BUDGET).map((e) => e.connection));
    const firstAnswerConnections = [...answeredTwice].map((path) => gets.find((e) => e.path === path)?.connection);
    expect(firstAnswerConnections.filter((c) => c === undefined || !closedAtBudget.has(c))).toEqual([]);
    expect(Math.max(...log.map((e) => e.connectionRequests))).toBeLessThanOrEqual(BUDGET);
    // nginx closed connections at its budget with requests pipelined behind: no demotion, and
    // requests were still pipelined on the connections opened after the first six.
    expect(run.demotions).toEqual([]);
    const connections = [...new Set(log.map((e) => e.connection))];
    expect(connections.length).toBeGreaterThanOrEqual(Math.ceil(run.requests.length / BUDGET));
    const ids = [...new Set(run.requests.map((r) => r.connectionId ?? 0))].sort((a, b) => a - b);
    const opened = new Set(ids.slice(0, 6));
    expect(run.requests.filter((r) => r.pipelined && !opened.has(r.connectionId ?? 0)).length).toBeGreaterThan(0);
  }, 60_000);
});
