import { Client } from 'undici';
import { h2ProbeAfterMs } from '../../native-host/transport/stall-watch';
import { strategy } from '../../src/scheduler';
import { bodyFor } from '../support/raw-http-server';
import { runList, sha256 } from '../support/run-list';
import { startHeldStreamOrigin, type HeldAnswer } from '../support/held-stream-origin';
import { testCert } from '../support/tls-cert';

/**
 * An HTTP/2 connection whose streams go quiet gets a PING (native-host/transport/stall-watch.ts
 * `h2ProbeAfterMs`). The origin here holds a stream until its client speaks, as lighttpd 1.4.69
 * held a script in the zoo; the PINGs are counted where they arrive, at the server.
 */

const { cert } = testCert();
const SIZE = 88_000;
const SENT_FIRST = 65_500;

function expectExact(run: Awaited<ReturnType<typeof runList>>, answers: Record<string, HeldAnswer>) {
  expect(run.results.map((r) => [new URL(r.url).pathname, r.status, r.error?.code]).sort()).toEqual(Object.keys(answers).map((p) => [p, 200, undefined]).sort());
  for (const r of run.results) {
    const path = new URL(r.url).pathname;
    expect(run.sha(r.id)).toBe(sha256(bodyFor(path, (answers[path] as HeldAnswer).size)));
  }
}

describe('a quiet HTTP/2 connection gets a PING', () => {
  const held: Record<string, HeldAnswer> = {
    '/j0.js': { kind: 'held', size: SIZE, sentFirst: SENT_FIRST, releaseOnPing: true },
    '/s1.css': { kind: 'whole', size: 26_000 },
    '/j1.js': { kind: 'whole', size: 61_000 },
  };

  test('the origin holds the stream for good against a client that never speaks (plain undici, its PING a minute away)', async () => {
    const origin = await startHeldStreamOrigin(held);
    const client = new Client(origin.origin, { allowH2: true, connect: { ca: cert } });
    try {
      const answer = client.request({ path: '/j0.js', method: 'GET' }).then(async (r) => (await r.body.arrayBuffer()).byteLength);
      const outcome = await Promise.race([answer, new Promise((r) => setTimeout(() => r('still held'), 1500))]);
      expect(outcome).toBe('still held');
      expect(origin.pings).toEqual([]);
    } finally {
      await client.destroy().catch(() => undefined);
      await origin.close();
    }
  });

  test.each(['getlist', 'h2'])('%s: a held stream is released by a PING a quiet quarter second after it stopped, every body whole', async (name) => {
    const origin = await startHeldStreamOrigin(held);
    try {
      const started = performance.now();
      const run = await runList(strategy(name), Object.keys(held).map((p) => ({ url: `${origin.origin}${p}`, priority: 'blocking' as const, resourceType: 'script' })), { ca: cert });
      expectExact(run, held);
      const heldAt = origin.heldAt.get('/j0.js') as number;
      // One PING, after the quiet wait (max(250 ms, 2 × RTT) on loopback) and within a sweep of it.
      expect(origin.pings).toHaveLength(1);
      expect((origin.pings[0] as number) - heldAt).toBeGreaterThanOrEqual(250);
      expect((origin.pings[0] as number) - heldAt).toBeLessThan(1500);
      // Far inside the idle timeout (30 s) that would otherwise have failed it.
      expect(performance.now() - started).toBeLessThan(5000);
    } finally {
      await origin.close();
    }
  });

  test('a stream that never resumes: PINGs back off (each wait twice the one before) and the stream fails with its own idle timeout, the others whole', async () => {
    const answers: Record<string, HeldAnswer> = { ...held, '/j0.js': { kind: 'held', size: SIZE, sentFirst: SENT_FIRST, releaseOnPing: false } };
    const origin = await startHeldStreamOrigin(answers);
    try {
      const run = await runList(strategy('getlist'), Object.keys(answers).map((p) => ({ url: `${origin.origin}${p}`, priority: 'blocking' as const, resourceType: 'script' })), { ca: cert, requestTimeoutMs: 3000 });
      const byPath = new Map(run.results.map((r) => [new URL(r.url).pathname, r]));
      expect(byPath.get('/j0.js')?.error?.code).toBe('E_RESPONSE_STALLED');
      expect([byPath.get('/s1.css')?.status, byPath.get('/j1.js')?.status]).toEqual([200, 200]);
      // Waits of 250, 500, 1000 ms, each from the PING before: two or three PINGs within the 3 s
      // idle timeout (a sweep every 250 ms, later on a loaded machine), never closer than the wait.
      const offsets = origin.pings.map((t) => t - (origin.heldAt.get('/j0.js') as number));
      expect(offsets.length).toBeGreaterThanOrEqual(2);
      expect(offsets.length).toBeLessThanOrEqual(3);
      expect(offsets[0] as number).toBeGreaterThanOrEqual(250);
      offsets.slice(1).forEach((t, i) => expect(t - (offsets[i] as number)).toBeGreaterThanOrEqual(h2ProbeAfterMs(0, i + 1) - 1));
    } finally {
      await origin.close();
    }
  }, 20_000);

  test('a slow stream that keeps making progress gets no PING', async () => {
    const answers: Record<string, HeldAnswer> = { '/slow.bin': { kind: 'trickle', size: 40_000, chunk: 2000, everyMs: 50 }, '/s1.css': { kind: 'whole', size: 26_000 } };
    const origin = await startHeldStreamOrigin(answers);
    try {
      const run = await runList(strategy('getlist'), Object.keys(answers).map((p) => ({ url: `${origin.origin}${p}` })), { ca: cert });
      expectExact(run, answers);
      expect(origin.pings).toEqual([]);
    } finally {
      await origin.close();
    }
  });
});
