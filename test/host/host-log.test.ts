import { EventEmitter } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { createHostLog } from '../../native-host/host/host-log';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'getlist-host-log-'));
  file = path.join(dir, 'host.log');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A stderr whose reader is alive: it keeps what it is given. */
function liveStderr() {
  let text = '';
  return { stream: new Writable({ write: (chunk: Buffer, _enc, cb) => ((text += chunk.toString()), cb()) }), text: () => text };
}

/**
 * A stderr whose reader is gone, as `process.stderr` on a pipe behaves: the stream is never
 * destroyed (its destroy does nothing), so every write reaches the pipe and emits EPIPE anew.
 */
function brokenStderr() {
  let writes = 0;
  const emitter = new EventEmitter();
  const stream = Object.assign(emitter, {
    write: () => {
      writes += 1;
      process.nextTick(() => emitter.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE', errno: -32, syscall: 'write' })));
      return true;
    },
  }) as unknown as Writable;
  return { stream, writes: () => writes };
}

const size = (f: string) => statSync(f).size;

test('a log pushed far past its cap rotates while running: host.log and host.log.1 each stay within the cap, and the newest lines are kept', () => {
  const cap = 4096;
  const log = createHostLog({ stderr: liveStderr().stream, logFile: file, capBytes: cap });
  let largest = 0;
  let rotations = 0;
  let previous = 0;
  for (let i = 0; i < 2000; i++) {
    log.info(`line ${i} ${'x'.repeat(i % 90)}`);
    const now = size(file);
    if (now < previous) rotations += 1;
    previous = now;
    largest = Math.max(largest, now, existsSync(`${file}.1`) ? size(`${file}.1`) : 0);
  }
  expect(largest).toBeLessThanOrEqual(cap);
  expect(rotations).toBeGreaterThan(10);
  const current = readFileSync(file, 'utf8');
  const older = readFileSync(`${file}.1`, 'utf8');
  expect(current).toMatch(/ info: line 1999 x+\n$/);
  // Nothing between the two files is lost or torn: .1 ends where host.log begins.
  const lastOld = Number(/line (\d+) x*\n$/.exec(older)?.[1]);
  const firstNew = Number(/^\S+ host\[\d+\] info: line (\d+)/.exec(current)?.[1]);
  expect(firstNew).toBe(lastOld + 1);
  for (const f of [file, `${file}.1`]) expect(statSync(f).mode & 0o777).toBe(0o600);
});

test('a file past the cap at start (an older host wrote it) is rotated at the first line, keeping its first cap bytes', () => {
  const cap = 2048;
  const head = 'first line of the old log\n';
  writeFileSync(file, head + 'y'.repeat(100_000), { mode: 0o600 });
  const log = createHostLog({ stderr: liveStderr().stream, logFile: file, capBytes: cap });
  log.info('started');
  expect(size(`${file}.1`)).toBe(cap);
  expect(readFileSync(`${file}.1`, 'utf8').startsWith(head)).toBe(true);
  expect(readFileSync(file, 'utf8')).toMatch(/^\S+ host\[\d+\] info: started\n$/);
});

test('one huge message is cut, so a single failure cannot fill the log', () => {
  const log = createHostLog({ stderr: liveStderr().stream, logFile: file, capBytes: 1024 * 1024 });
  log.error('request failed', new Error('z'.repeat(200_000)));
  const text = readFileSync(file, 'utf8');
  expect(text.length).toBeLessThan(17 * 1024);
  expect(text).toMatch(/… \(\d+ more bytes cut\)\n$/);
});

test('stderr failing (EPIPE): it is written to once, never again; the failure is noted once in the file, and logging goes on there', async () => {
  const stderr = brokenStderr();
  const log = createHostLog({ stderr: stderr.stream, logFile: file });
  log.info('one');
  // The failure is reported asynchronously, as a pipe's is.
  await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 100; i++) log.error(`two ${i}`, new Error('boom'));
  await new Promise((r) => setImmediate(r));
  expect(stderr.writes()).toBe(1);
  const lines = readFileSync(file, 'utf8').trimEnd().split('\n').filter((l) => /host\[\d+\]/.test(l));
  expect(lines.filter((l) => l.includes('stderr failed (EPIPE)'))).toHaveLength(1);
  expect(lines.filter((l) => / error: two \d+: Error: boom/.test(l))).toHaveLength(100);
});

test('stderr failing without a log file: nothing throws and nothing more is written to it', async () => {
  const stderr = brokenStderr();
  const log = createHostLog({ stderr: stderr.stream });
  for (let i = 0; i < 10; i++) {
    log.warn(`w ${i}`);
    await new Promise((r) => setImmediate(r));
  }
  expect(stderr.writes()).toBe(1);
});

test('a log file that cannot be written: said once on stderr, lines go on to stderr', () => {
  const stderr = liveStderr();
  const log = createHostLog({ stderr: stderr.stream, logFile: path.join(dir, 'no-such-dir', 'host.log') });
  log.info('a');
  log.info('b');
  expect(stderr.text().match(/cannot write the log file/g)).toHaveLength(1);
  expect(stderr.text()).toMatch(/info: a\n[^\n]*cannot write the log file[^\n]*\n[^\n]* info: b\n$/);
});

test('clear removes both files; logging starts a new file', () => {
  const log = createHostLog({ stderr: liveStderr().stream, logFile: file, capBytes: 200 });
  for (let i = 0; i < 10; i++) log.info(`about https://example.test/${i}`);
  expect(existsSync(`${file}.1`)).toBe(true);
  log.clear?.();
  expect([existsSync(file), existsSync(`${file}.1`)]).toEqual([false, false]);
  log.info('after');
  expect(readFileSync(file, 'utf8')).toMatch(/^\S+ host\[\d+\] info: after\n$/);
});
