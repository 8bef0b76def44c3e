import type http from 'node:http';
import { strategy, type RequestResult, type Strategy } from '../../src/scheduler';
import { startLoad } from '../support/live-load';
import { startHttpServer } from '../support/tls-servers';

const MiB = 1024 * 1024;
const FIRST = 1 * MiB;
const REST = 15 * MiB;
const CSS = Buffer.from('body { color: #123456 }\n'.repeat(40));
/**
 * Long enough that a client reading without pause has all 15 MiB before the stylesheet's answer
 * even on a loaded machine (loopback moves that in tens of ms when idle).
 */
const CSS_DELAY_MS = 1_500;
const STALL_MS = 12_000;

/**
 * `/big.bin` sends 1 MiB at once, then waits until `/style.css` reaches the server and sends 15 MiB
 * more; `/style.css` is answered CSS_DELAY_MS after it arrives. Whether the big body or the stylesheet
 * finishes first therefore depends only on whether the client keeps reading the big body while
 * the stylesheet is outstanding.
 */
async function startPauseServer() {
  let cssArrived!: () => void;
  const cssSeen = new Promise<void>((resolve) => (cssArrived = resolve));
  const finished: string[] = [];
  const server = await startHttpServer((req, res) => {
    const r = res as http.ServerResponse;
    r.on('finish', () => finished.push(req.url ?? '?'));
    if (req.url === '/big.bin') {
      r.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(FIRST + REST) });
      r.write(Buffer.alloc(FIRST, 1));
      void cssSeen.then(() => r.end(Buffer.alloc(REST, 2)));
    } else if (req.url === '/style.css') {
      cssArrived();
      setTimeout(() => {
        r.writeHead(200, { 'content-type': 'text/css', 'content-length': String(CSS.length) });
        r.end(CSS);
      }, CSS_DELAY_MS);
    } else {
      r.writeHead(404).end();
    }
  });
  return { ...server, finished };
}

/** Loads `/big.bin` as an image, and `/style.css` as render-blocking once the big response has started. */
async function load(s: Strategy) {
  const server = await startPauseServer();
  try {
    const origin = `http://localhost:${server.port}`;
    let cssEnqueued!: () => void;
    const cssQueued = new Promise<void>((resolve) => (cssEnqueued = resolve));
    const live = startLoad(s, {
      onResponseHead: (d) => {
        if (d.request.url !== `${origin}/big.bin`) return;
        // After the scheduler has heard of the response head (it is told right after this hook).
        setImmediate(() => {
          live.enqueue({ url: `${origin}/style.css`, priority: 'blocking' });
          cssEnqueued();
        });
      },
    });
    const bigId = live.enqueue({ url: `${origin}/big.bin`, priority: 'image' });
    // A deadlock guard, not a timing assertion: if a paused body is never resumed the load never
    // goes idle, and this names the stalled response instead of leaving only Jest's timeout.
    let guard: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      guard = setTimeout(() => reject(new Error(`${s.name}: load still busy after ${STALL_MS} ms; /big.bin has ${live.bytesSeen(bigId)} of ${FIRST + REST} bytes (a paused body never resumed?)`)), STALL_MS);
    });
    const run = await Promise.race([cssQueued.then(() => live.finish()), stalled]).finally(() => clearTimeout(guard)).catch(async (err: unknown) => {
      live.scheduler.close();
      await live.transport.close();
      throw err;
    });
    const byPath = (p: string) => run.results.find((r) => new URL(r.url).pathname === p) as RequestResult;
    return { run, big: byPath('/big.bin'), css: byPath('/style.css'), serverFinished: server.finished, connections: server.connections() };
  } finally {
    await server.close();
  }
}

describe('low-latency-first pausing, observed on the wire', () => {
  test('getlist pauses the big body while the stylesheet is outstanding; browser does not', async () => {
    // Loopback is never the bottleneck, so getlist's rate gate (pauseOnlyWhenLinkBusy, tested on a
    // fake clock in src/scheduler) would never pause here; this test is about the pause on the wire.
    const paused = await load(strategy('getlist', { pausing: { maxFlowing: 0, onlyWhenLinkBusy: false } }));
    const flowing = await load(strategy('browser'));
    for (const x of [paused, flowing]) {
      // Both complete, with every byte.
      expect([x.big.error, x.big.status, x.big.bytes]).toEqual([undefined, 200, FIRST + REST]);
      expect([x.css.error, x.css.status, x.css.bytes]).toEqual([undefined, 200, CSS.length]);
      // The stylesheet did not wait behind the big body on its connection.
      expect(x.css.connectionId).not.toBe(x.big.connectionId);
      expect(x.css.pipelined).toBe(false);
    }

    // getlist: the big body is held while the stylesheet is outstanding, so it finishes last.
    expect(paused.run.stats.pauses).toBeGreaterThanOrEqual(1);
    expect(paused.big.doneAt).toBeGreaterThan(paused.css.doneAt);
    // The server could not even finish writing it: the client stopped reading (its window closed).
    expect(paused.serverFinished).toEqual(['/style.css', '/big.bin']);

    // browser: nothing is paused; the 15 MiB arrive long before the stylesheet's delay ends.
    expect(flowing.run.stats.pauses).toBe(0);
    expect(flowing.big.doneAt).toBeLessThan(flowing.css.doneAt);
    expect(flowing.serverFinished).toEqual(['/big.bin', '/style.css']);
  });
});
