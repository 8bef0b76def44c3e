import { statSync } from 'node:fs';
import path from 'node:path';
import { HOST_LOG_CAP_BYTES } from '../../native-host/host/host-log';
import { SpawnedHost, type Exit } from './host-harness';
import { startTestOrigin, type TestOrigin } from './test-origin';

/** Preloaded into the spawned host: on SIGUSR2 it fails as GETLIST_TEST_CRASH says. */
const INJECTOR = path.join(__dirname, 'crash-injector.cjs');

let origin: TestOrigin;
let host: SpawnedHost | undefined;
let exitMs: number[] = [];
beforeEach(async () => {
  origin = await startTestOrigin();
  exitMs = [];
});
afterEach(async () => {
  await host?.dispose();
  await origin.close();
  if (exitMs.length > 0) console.log(`${expect.getState().currentTestName}\n  exits after ${exitMs.map((ms) => ms.toFixed(0)).join(', ')} ms`);
});

/**
 * Starts a host with the injector, runs `before` on it, closes the end of its stderr (so the
 * crash report meets EPIPE, which used to raise the next crash), injects the crash and waits for
 * the exit. Returns the exit and the host's log text.
 */
async function crash(kind: string, before: (h: SpawnedHost) => Promise<void>): Promise<{ exit: Exit & { ms: number }; log: string }> {
  const h = new SpawnedHost({ env: () => ({ NODE_OPTIONS: `--require ${INJECTOR}`, GETLIST_TEST_CRASH: kind }) });
  host = h;
  await before(h);
  h.closeStderrReader();
  const t0 = performance.now();
  h.child.kill('SIGUSR2');
  const exit = await h.exitSince(t0);
  exitMs.push(exit.ms);
  expect(statSync(path.join(h.dataDir, 'host.log')).size).toBeLessThanOrEqual(HOST_LOG_CAP_BYTES);
  return { exit, log: h.logFiles().text };
}

test.each([
  ['an uncaught exception', 'exception', /uncaught exception; stopping: Error: injected exception/],
  ['an unhandled rejection', 'rejection', /unhandled rejection; stopping: Error: injected rejection/],
  ['an uncaught exception on every turn of the event loop', 'loop', /uncaught exception; stopping: Error: injected loop/],
] as const)('%s with the end of stderr closed: logged once, the store flushed, exit 70 within 1 s (5 runs)', async (_what, kind, line) => {
  for (let i = 0; i < 5; i++) {
    const page = `${origin.origin}/p${i}`;
    const { exit, log } = await crash(kind, async (h) => {
      const reply = await h.ask({ type: 'schedule', id: 'm', pageId: 'p', documentUrl: page, requests: [] });
      expect(reply).toMatchObject({ type: 'measured', storeHealth: { pending: 1 } });
    });
    expect(exit).toMatchObject({ code: 70, signal: null });
    expect(exit.ms).toBeLessThan(1000);
    expect(log).toMatch(line);
    expect(log.match(/injected/g)).toHaveLength(1);
    expect(log).toMatch(/stopping: asked to stop/);
    expect(await host?.storedPages()).toContain(page);
    await host?.dispose();
    host = undefined;
  }
}, 60_000);

test('a crash on every process tick (timers and I/O starve): logged once, and the process still exits 70 (3 runs)', async () => {
  for (let i = 0; i < 3; i++) {
    const { exit, log } = await crash('tick-loop', (h) => h.expectAlive('alive'));
    expect(exit).toMatchObject({ code: 70, signal: null });
    // No timer fires while the ticks run: the guard's clock, read at each crash, ends it 1 s after the first.
    expect(exit.ms).toBeLessThan(2000);
    expect(log.match(/injected/g)).toHaveLength(1);
    await host?.dispose();
    host = undefined;
  }
}, 60_000);
