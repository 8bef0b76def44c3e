import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HOST_LOG_CAP_BYTES } from '../../native-host/host/host-log';
import type { HostMessage, MeasuredReply } from '../../src/protocol';
import { SpawnedHost, type Exit } from './host-harness';
import { startStalledTlsOrigin, type StalledTlsOrigin } from './stalled-tls-origin';
import { startTestOrigin, type TestOrigin } from './test-origin';

// The browser's end of a pipe going away is a race with what the host is doing, so each case runs
// several times, each with the moment the pipe goes chosen by the test.
const ITERATIONS = 10;
/** The bound the host promises (docs/native-host.md "Exit"): the exit is checked against it. */
const EXIT_BOUND_MS = 1000;

let a: TestOrigin;
let b: TestOrigin;
let stalled: StalledTlsOrigin;
const hosts: SpawnedHost[] = [];
/** Each run's ms from the pipe closing to the exit, printed per test. */
let exitMs: number[] = [];
beforeEach(async () => {
  [a, b, stalled] = await Promise.all([startTestOrigin(), startTestOrigin(), startStalledTlsOrigin()]);
  exitMs = [];
});
afterEach(async () => {
  for (const h of hosts.splice(0)) await h.dispose();
  await Promise.all([a.close(), b.close(), stalled.close()]);
  if (exitMs.length > 0) console.log(`${expect.getState().currentTestName}\n  exits after ${exitMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
});

function spawnHost(): SpawnedHost {
  const host = new SpawnedHost();
  hosts.push(host);
  return host;
}

function measured(m: HostMessage): MeasuredReply {
  if (m.type !== 'measured') throw new Error(`expected a measured reply, got ${JSON.stringify(m)}`);
  return m;
}

/** Measures `origin` (cold): its handshake record is then accepted by the store and still waits to be written. */
async function measureAndLeavePending(host: SpawnedHost, id: string, origin = a): Promise<void> {
  const reply = measured(await host.ask({ type: 'schedule', id, pageId: id, documentUrl: `${origin.origin}/${id}`, requests: [] }));
  expect(reply.handshakes.map((h) => h.origin)).toEqual([origin.origin]);
  expect(reply.storeHealth?.pending).toBeGreaterThanOrEqual(1);
}

/** Sends a measure that stays in flight: its TLS handshake never completes. */
async function measureInFlight(host: SpawnedHost, id: string): Promise<void> {
  const connected = stalled.nextConnection();
  host.send({ type: 'schedule', id, pageId: id, documentUrl: `${a.origin}/${id}`, requests: [{ url: `${stalled.origin}/x.js`, priority: 'blocking' }] });
  await connected;
}

/** What every case checks once the host has gone: a prompt clean exit, a small log, the pending records on disk. */
async function expectQuietEnd(host: SpawnedHost, exit: Exit & { ms: number }, pendingPage: string, why: RegExp): Promise<void> {
  exitMs.push(exit.ms);
  expect(exit).toMatchObject({ code: 0, signal: null });
  expect(exit.ms).toBeLessThan(EXIT_BOUND_MS);
  const log = host.logFiles();
  for (const size of log.sizes) expect(size).toBeLessThanOrEqual(HOST_LOG_CAP_BYTES);
  // A host's life is a handful of lines; a loop would be thousands.
  expect(log.text.split('\n').length).toBeLessThan(20);
  expect(log.text).toMatch(why);
  expect(log.text).toMatch(/info: exit 0\n/);
  expect(log.text).not.toMatch(/uncaught|unhandled/);
  expect(await host.storedPages()).toContain(pendingPage);
}

test(`the browser's end of stdout closed, then a request: the host meets EPIPE and exits 0 within 1 s, its pending records written (${ITERATIONS} runs)`, async () => {
  for (let i = 0; i < ITERATIONS; i++) {
    const host = spawnHost();
    await measureAndLeavePending(host, `p${i}`);
    host.closeStdoutReader();
    const t0 = performance.now();
    host.send({ type: 'ping', id: 'after' });
    await expectQuietEnd(host, await host.exitSince(t0), `${a.origin}/p${i}`, /stopping: stdout failed \(EPIPE\)/);
    await host.dispose();
  }
}, 120_000);

test(`the end of stderr closed, then a request that logs: the host exits 0 within 1 s, the failure noted once in host.log and nothing more written to stderr, its pending records written (${ITERATIONS} runs)`, async () => {
  for (let i = 0; i < ITERATIONS; i++) {
    const host = spawnHost();
    await measureAndLeavePending(host, `p${i}`);
    host.closeStderrReader();
    const t0 = performance.now();
    // `forget` of an origin nothing is stored for logs a line (and removes nothing).
    host.send({ type: 'forget', id: 'f', origin: 'https://nothing-stored.test' });
    await expectQuietEnd(host, await host.exitSince(t0), `${a.origin}/p${i}`, /stopping: stderr failed \(EPIPE\)/);
    expect(host.logFiles().text.match(/stderr failed/g)).toHaveLength(2); // the log's note, then the stop
    await host.dispose();
  }
}, 120_000);

test.each([
  ['a measure whose TLS handshake never completes', 'measure'],
  ['a replay whose response is held', 'replay'],
] as const)(`stdin closed with %s in flight: exit 0 within 1 s, the request's sockets closed, the records pending before it written (${ITERATIONS} runs)`, async (_what, kind) => {
  for (let i = 0; i < ITERATIONS; i++) {
    const host = spawnHost();
    await measureAndLeavePending(host, `p${i}`);
    if (kind === 'measure') {
      await measureInFlight(host, 'stuck');
    } else {
      a.hold();
      host.send({ type: 'schedule', id: 'stuck', pageId: 'r', documentUrl: `${a.origin}/r`, mode: 'replay', strategies: ['getlist'], requests: [{ url: `${a.origin}/slow?size=5`, priority: 'document' }] });
      await until(() => a.requests.length > 0, 'the replayed request at the origin');
    }
    const exit = await host.endInput();
    await expectQuietEnd(host, exit, `${a.origin}/p${i}`, /stopping: stdin closed/);
    await host.closed;
    expect(host.reader.withId('stuck')).toEqual([]);
    await Promise.all([stalled.drained(), a.drained()]);
    a.release();
    a.requests.length = 0;
    await host.dispose();
  }
}, 120_000);

test.each([
  ['right after the measure reply is read', 'after-reply'],
  ['while a measure is in flight', 'in-flight'],
] as const)(`the browser quits %s (stdin, stdout and stderr all close at once): exit 0 within 1 s, no loop, the records written (${ITERATIONS} runs)`, async (_when, when) => {
  for (let i = 0; i < ITERATIONS; i++) {
    const host = spawnHost();
    await measureAndLeavePending(host, `p${i}`);
    if (when === 'in-flight') await measureInFlight(host, 'stuck');
    const t0 = performance.now();
    host.closeStdoutReader();
    host.closeStderrReader();
    host.child.stdin.end();
    await expectQuietEnd(host, await host.exitSince(t0), `${a.origin}/p${i}`, /stopping: (stdin closed|stdout failed)/);
    await host.dispose();
  }
}, 120_000);

test('a host.log an older host left far past the cap: the running host rotates it and keeps both files within the cap', async () => {
  const host = spawnHost();
  const old = path.join(host.dataDir, 'host.log');
  writeFileSync(old, 'the old log begins\n' + 'flood\n'.repeat(600_000), { mode: 0o600 });
  await host.expectAlive('alive');
  const exit = await host.endInput();
  expect(exit.code).toBe(0);
  expect(statSync(`${old}.1`).size).toBe(HOST_LOG_CAP_BYTES);
  expect(readFileSync(`${old}.1`, 'utf8').startsWith('the old log begins\n')).toBe(true);
  expect(statSync(old).size).toBeLessThan(HOST_LOG_CAP_BYTES);
  expect(readFileSync(old, 'utf8')).toMatch(/host started by[\s\S]*exit 0\n$/);
});

/** Waits for a condition the host makes true by itself (a file it writes), failing after 5 s. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`waited 5 s for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
