import { readFileSync } from 'node:fs';
import path from 'node:path';
import { frame, lengthPrefix, SpawnedHost } from './host-harness';
import { startTestOrigin, type TestOrigin } from './test-origin';

let host: SpawnedHost;
let a: TestOrigin;
let b: TestOrigin;
beforeEach(async () => {
  [a, b] = await Promise.all([startTestOrigin(), startTestOrigin()]);
});
afterEach(async () => {
  await host.dispose();
  await Promise.all([a.close(), b.close()]);
  expect(host.reader.violations).toEqual([]);
});

/**
 * Leaves the host busy: a warm connection to `a` (from a measure) and a replay on `b` whose
 * response is held, so its connection is open with a request in flight.
 */
async function makeBusy(): Promise<void> {
  await host.ask({ type: 'schedule', id: 'warm', pageId: 'p1', documentUrl: `${a.origin}/`, requests: [] });
  b.hold();
  host.send({ type: 'schedule', id: 'slow', pageId: 'p2', documentUrl: `${b.origin}/`, mode: 'replay', strategies: ['getlist'], requests: [{ url: `${b.origin}/slow?size=5`, priority: 'document' }] });
  while (b.requests.length === 0) await new Promise((r) => setTimeout(r, 5));
  expect([a.open(), b.open()]).toEqual([1, 1]);
}

test('stdin EOF (the browser closed the port): exit 0 within 1 s, running replay aborted, every socket closed', async () => {
  host = new SpawnedHost();
  await makeBusy();
  const exit = await host.endInput();
  expect(exit).toMatchObject({ code: 0, signal: null });
  expect(exit.ms).toBeLessThan(1000);
  await Promise.all([a.drained(), b.drained()]);
  // The aborted replay sends nothing more.
  expect(host.reader.withId('slow')).toEqual([]);
  const log = readFileSync(path.join(host.dataDir, 'host.log'), 'utf8');
  expect(log).toMatch(/stopping: stdin closed/);
  expect(log).toMatch(/exit 0\n$/);
});

test('SIGTERM: exit 0 within 1 s, every socket closed', async () => {
  host = new SpawnedHost();
  await makeBusy();
  const exit = await host.terminate();
  expect(exit).toMatchObject({ code: 0, signal: null });
  expect(exit.ms).toBeLessThan(1000);
  await Promise.all([a.drained(), b.drained()]);
  expect(host.stderr).toMatch(/received SIGTERM/);
});

test('a length prefix of 100 MiB: E_FRAME_TOO_LARGE once, then the host exits 1 by itself', async () => {
  host = new SpawnedHost();
  await host.expectAlive('before');
  host.sendRaw(Buffer.concat([lengthPrefix(100 * 1024 * 1024), Buffer.from('{"type":"ping","id":"lost"}')]));
  // stdin stays open: the host ends on its own, since the stream can no longer be delimited.
  expect(await host.exited).toEqual({ code: 1, signal: null });
  await host.closed;
  expect(host.reader.messages.filter((m) => m.type === 'error')).toEqual([
    { type: 'error', id: null, code: 'E_FRAME_TOO_LARGE', message: expect.stringContaining('104857600 bytes; the limit is 67108864') },
  ]);
  expect(host.reader.withId('lost')).toEqual([]);
});

test.each([
  ['inside the body', Buffer.concat([frame('{"type":"ping","id":"whole"}'), frame('{"type":"ping","id":"cut"}').subarray(0, 14)])],
  ['inside the length prefix', Buffer.concat([frame('{"type":"ping","id":"whole"}'), Buffer.from([7, 0])])],
])('stdin ending %s: the whole frame is answered, then E_FRAME_TRUNCATED once and exit 1', async (_where, bytes) => {
  host = new SpawnedHost();
  host.sendRaw(bytes);
  const exit = await host.endInput();
  expect(exit).toMatchObject({ code: 1, signal: null });
  await host.closed;
  expect(host.reader.messages).toEqual([
    { type: 'pong', id: 'whole' },
    { type: 'error', id: null, code: 'E_FRAME_TRUNCATED', message: expect.stringMatching(/^the input ended /) },
  ]);
});
