import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { cliCommandLine } from '../../native-host/install/cli-command-line';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_MESSAGE_BYTES, MAX_REQUESTS_PER_SCHEDULE, MAX_URL_LENGTH, PROTOCOL_VERSION, type HostMessage } from '../../src/protocol';
import { frame, SpawnedHost } from './host-harness';
import { startTestOrigin, type TestOrigin } from './test-origin';

// The built CLI is what a browser runs: `npm test` builds before Jest; run `npm run build` first
// when running these alone.

let host: SpawnedHost;
afterEach(async () => {
  await host.dispose();
  expect(host.reader.violations).toEqual([]);
});

describe('hello and ping', () => {
  test('hello reports the version, protocol and capabilities, echoing a string or numeric id', async () => {
    host = new SpawnedHost();
    const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    const reply = await host.ask({ type: 'hello', id: 'h-1', protocolVersion: PROTOCOL_VERSION });
    expect(reply).toEqual({
      type: 'hello',
      id: 'h-1',
      hostVersion: pkg.version,
      protocolVersion: 3,
      capabilities: {
        strategies: ['http10', 'serial', 'browser', 'pipelined', 'getlist', 'h2'],
        http2: true,
        store: path.join(host.dataDir, 'handshakes'),
        storeHealth: { state: 'ok', pending: 0, dropped: 0 },
        maxRequestsPerSchedule: MAX_REQUESTS_PER_SCHEDULE,
        maxMessageBytes: MAX_MESSAGE_BYTES,
      },
      cliCommand: cliCommandLine(process.execPath, path.resolve(__dirname, '..', '..', 'bin', 'getlist.js'), process.platform),
    });
    expect(await host.ask({ type: 'hello', id: 7, protocolVersion: PROTOCOL_VERSION })).toMatchObject({ type: 'hello', id: 7 });
    expect(await host.ask({ type: 'ping', id: 0 })).toEqual({ type: 'pong', id: 0 });
    expect(await host.ask({ type: 'ping', id: 'p' })).toEqual({ type: 'pong', id: 'p' });
  });

  test('the cliCommand hello reports runs this CLI from any directory: `<cliCommand> doctor --help` prints doctor’s help', async () => {
    host = new SpawnedHost();
    const reply = (await host.ask({ type: 'hello', id: 1, protocolVersion: PROTOCOL_VERSION })) as { cliCommand?: string };
    expect(reply.cliCommand).toBeDefined();
    const out = execFileSync('/bin/sh', ['-c', `${reply.cliCommand as string} doctor --help`], { cwd: tmpdir(), encoding: 'utf8' });
    expect(out).toMatch(/^usage:\s+getlist doctor/m);
  });

  test.each([
    ['Chrome on Windows', ['chrome-extension://abcdefghijklmnopabcdefghijklmnop/', '--parent-window=0']],
    ['Firefox', ['/home/u/.mozilla/native-messaging-hosts/getlist.json', 'getlist@example.org']],
    ['no arguments', []],
  ])('ignores the arguments %s passes', async (_name, args) => {
    host = new SpawnedHost({ args });
    expect(await host.ask({ type: 'ping', id: 'a' })).toEqual({ type: 'pong', id: 'a' });
  });

  test('without a usable data dir the host still serves; the store requests answer E_NO_STORE', async () => {
    host = new SpawnedHost({
      env: (dir) => {
        const notADir = path.join(dir, 'a-file');
        writeFileSync(notADir, 'x');
        return { GETLIST_DATA_DIR: notADir };
      },
    });
    expect(await host.ask({ type: 'hello', id: 1, protocolVersion: PROTOCOL_VERSION })).toMatchObject({ capabilities: { store: null } });
    for (const [i, req] of [{ type: 'stats' }, { type: 'export', format: 'csv' }, { type: 'forget', all: true }].entries()) {
      expect(await host.ask({ ...req, id: `s${i}` })).toMatchObject({ type: 'error', id: `s${i}`, code: 'E_NO_STORE' });
    }
    await host.expectAlive('after');
    expect(host.stderr).toMatch(/running without a store|no data dir/);
  });
});

describe('bad input gets its error code and the host keeps answering', () => {
  let origin: TestOrigin;
  beforeAll(async () => {
    origin = await startTestOrigin();
  });
  afterAll(async () => {
    await origin.close();
  });

  const page = (requests: unknown[], extra: Record<string, unknown> = {}) => ({ type: 'schedule', pageId: 'p', documentUrl: `${origin.origin}/`, requests, ...extra });
  const item = (extra: Record<string, unknown> = {}) => ({ url: `${origin.origin}/a.png`, priority: 'image', ...extra });

  type Case = [name: string, input: () => Buffer, code: string, id: string | null, message?: RegExp];
  const json = (o: unknown) => () => frame(JSON.stringify(o));
  const cases: Case[] = [
    ['invalid JSON', () => frame('{"type": "ping", "id": '), 'E_INVALID_JSON', null],
    ['an empty frame', () => frame(''), 'E_INVALID_JSON', null],
    ['invalid UTF-8', () => frame(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])), 'E_INVALID_UTF8', null],
    ['an overlong UTF-8 encoding', () => frame(Buffer.from([0x22, 0xc0, 0xaf, 0x22])), 'E_INVALID_UTF8', null],
    ['an array', json([{ type: 'ping', id: 1 }]), 'E_NOT_OBJECT', null],
    ['a string', json('ping'), 'E_NOT_OBJECT', null],
    ['null', json(null), 'E_NOT_OBJECT', null],
    ['an unknown type', json({ type: 'frobnicate', id: 'u1' }), 'E_UNKNOWN_TYPE', 'u1', /frobnicate.*hello, ping, schedule/],
    ['no type', json({ id: 'm1' }), 'E_MISSING_FIELD', 'm1', /^type: /],
    ['no id', json({ type: 'ping' }), 'E_MISSING_FIELD', null, /^id: /],
    ['an object as id', json({ type: 'ping', id: { a: 1 } }), 'E_INVALID_FIELD', null, /^id: expected .*, got an object$/],
    ['a schedule without pageId', () => frame(JSON.stringify({ ...page([item()]), pageId: undefined, id: 'm2' })), 'E_MISSING_FIELD', 'm2', /^pageId: required/],
    ['a request without priority', () => frame(JSON.stringify({ ...page([{ url: `${origin.origin}/x` }]), id: 'm3' })), 'E_MISSING_FIELD', 'm3', /^requests\[0\]\.priority: /],
    ['an unknown priority', () => frame(JSON.stringify({ ...page([item(), item({ priority: 'urgent' })]), id: 'f1' })), 'E_INVALID_FIELD', 'f1', /^requests\[1\]\.priority: expected one of document, blocking, .*prefetch, got "urgent"$/],
    ['requests not an array', () => frame(JSON.stringify({ ...page([]), requests: 'all', id: 'f2' })), 'E_INVALID_FIELD', 'f2', /^requests: expected an array, got "all"$/],
    ['a negative discoveredAt', () => frame(JSON.stringify({ ...page([item({ discoveredAt: -5 })]), id: 'f3' })), 'E_INVALID_FIELD', 'f3', /^requests\[0\]\.discoveredAt: expected a finite number ≥ 0, got the number -5$/],
    ['an unknown mode', () => frame(JSON.stringify({ ...page([item()], { mode: 'turbo' }), id: 'f4' })), 'E_INVALID_FIELD', 'f4', /^mode: expected one of measure, replay/],
    ['strategies with measure', () => frame(JSON.stringify({ ...page([item()], { strategies: ['getlist'] }), id: 'f5' })), 'E_INVALID_FIELD', 'f5', /^strategies: /],
    ['an unknown strategy', () => frame(JSON.stringify({ ...page([item()], { mode: 'replay', strategies: ['fastest'] }), id: 'f6' })), 'E_INVALID_FIELD', 'f6', /^strategies\[0\]: expected one of http10/],
    ['stats for a URL, not an origin', json({ type: 'stats', id: 'f7', origin: 'https://example.com/page' }), 'E_INVALID_FIELD', 'f7', /^origin: expected an origin/],
    ['stats with since after until', json({ type: 'stats', id: 'f8', since: 10, until: 5 }), 'E_INVALID_FIELD', 'f8', /^until: /],
    ['export to xml', json({ type: 'export', id: 'f9', format: 'xml' }), 'E_INVALID_FIELD', 'f9', /^format: expected one of csv, json, prom, got "xml"$/],
    ['export without format', json({ type: 'export', id: 'm4' }), 'E_MISSING_FIELD', 'm4', /^format: /],
    ['a forget naming nothing', json({ type: 'forget', id: 'm5' }), 'E_MISSING_FIELD', 'm5', /^origin: a forget names what it forgets: an origin, or all: true/],
    ['a repeated top-level key', () => frame('{"type":"ping","id":"d1","type":"forget"}'), 'E_DUPLICATE_KEY', null, /^key "type" appears twice in the top-level object;/],
    ['a repeated key written with an escape', () => frame('{"type":"ping","id":"d2","\\u0069d":"d3"}'), 'E_DUPLICATE_KEY', null, /^key "id" appears twice/],
    ['a repeated key in a request', () => frame(`{"type":"schedule","id":"d4","pageId":"p","documentUrl":"${origin.origin}/","requests":[{"url":"${origin.origin}/a","priority":"image","url":"${origin.origin}/b"}]}`), 'E_DUPLICATE_KEY', null, /in the object at requests\[0\];/],
    ['hello for protocol 4', json({ type: 'hello', id: 'v1', protocolVersion: 4 }), 'E_UNSUPPORTED_VERSION', 'v1', /speaks 3\b.*update the getlist host/],
    ['hello for protocol 2 (a bare forget meant everything)', json({ type: 'hello', id: 'v0', protocolVersion: 2 }), 'E_UNSUPPORTED_VERSION', 'v0', /speaks 3\b.*update the extension/],
    ['hello without a version', json({ type: 'hello', id: 'v2' }), 'E_MISSING_FIELD', 'v2', /^protocolVersion: /],
    ['2001 requests', () => frame(JSON.stringify({ ...page(Array.from({ length: MAX_REQUESTS_PER_SCHEDULE + 1 }, () => item())), id: 't1' })), 'E_TOO_MANY_REQUESTS', 't1', /at most 2000 requests, got 2001/],
    ['an ftp: request', () => frame(JSON.stringify({ ...page([item({ url: 'ftp://example.com/a' })]), id: 's1' })), 'E_UNSUPPORTED_SCHEME', 's1', /^requests\[0\]\.url: .*got ftp:$/],
    ['a file: document', () => frame(JSON.stringify({ ...page([item()]), documentUrl: 'file:///etc/passwd', id: 's2' })), 'E_UNSUPPORTED_SCHEME', 's2', /^documentUrl: /],
    ['a POST', () => frame(JSON.stringify({ ...page([item({ method: 'POST' })]), id: 'x1' })), 'E_INVALID_METHOD', 'x1', /^requests\[0\]\.method: .*GET and HEAD.*got "POST"$/],
    ['a lower-case get', () => frame(JSON.stringify({ ...page([item({ method: 'get' })]), id: 'x2' })), 'E_INVALID_METHOD', 'x2'],
    ['credentials in a URL', () => frame(JSON.stringify({ ...page([item({ url: `http://user:secret@127.0.0.1:${origin.port}/` })]), id: 'i1' })), 'E_INVALID_URL', 'i1', /user name or password/],
    ['a relative URL', () => frame(JSON.stringify({ ...page([item({ url: '/a.png' })]), id: 'i2' })), 'E_INVALID_URL', 'i2', /^requests\[0\]\.url: expected an absolute URL, got "\/a\.png"$/],
    ['a URL over 8192 characters', () => frame(JSON.stringify({ ...page([item({ url: `${origin.origin}/?q=${'a'.repeat(MAX_URL_LENGTH)}` })]), id: 'i3' })), 'E_INVALID_URL', 'i3', /at most 8192 characters/],
  ];

  test('every case, one after another on one host', async () => {
    host = new SpawnedHost();
    for (const [i, [name, input, code, id, message]] of cases.entries()) {
      const before = host.reader.messages.length;
      host.sendRaw(input());
      await host.expectAlive(`alive-${i}`);
      const replies = host.reader.messages.slice(before).filter((m) => m.id !== `alive-${i}`);
      expect({ name, replies }).toEqual({ name, replies: [expect.objectContaining({ type: 'error', id, code })] });
      const reply = replies[0] as Extract<HostMessage, { type: 'error' }>;
      if (message) expect({ name, message: reply.message }).toEqual({ name, message: expect.stringMatching(message) });
    }
    expect(origin.accepted()).toBe(0);
  });

  test('a schedule of 100,000 requests is refused whole and nothing is fetched', async () => {
    host = new SpawnedHost();
    const requests = Array.from({ length: 100_000 }, (_, i) => ({ url: `${origin.origin}/r/${i}`, priority: 'image' }));
    for (const mode of ['measure', 'replay']) {
      const reply = await host.ask({ type: 'schedule', id: `big-${mode}`, pageId: 'hostile', documentUrl: `${origin.origin}/`, requests, mode });
      expect(reply).toMatchObject({ type: 'error', code: 'E_TOO_MANY_REQUESTS', message: expect.stringContaining('got 100000') });
    }
    await host.expectAlive('after');
    expect(origin.accepted()).toBe(0);
  });
});

describe('concurrency', () => {
  let origin: TestOrigin;
  beforeAll(async () => {
    origin = await startTestOrigin();
  });
  afterAll(async () => {
    await origin.close();
  });

  test('a 9th running schedule gets E_BUSY; once they finish, schedules are accepted again', async () => {
    host = new SpawnedHost();
    origin.hold();
    const ids = Array.from({ length: 8 }, (_, i) => `run-${i}`);
    for (const id of ids) {
      host.send({ type: 'schedule', id, pageId: id, documentUrl: `${origin.origin}/`, mode: 'replay', strategies: ['getlist'], requests: [{ url: `${origin.origin}/${id}?size=10`, priority: 'document' }] });
    }
    const busy = await host.ask({ type: 'schedule', id: 'ninth', pageId: 'ninth', documentUrl: `${origin.origin}/`, requests: [] });
    expect(busy).toMatchObject({ type: 'error', id: 'ninth', code: 'E_BUSY', message: expect.stringContaining('at most 8') });
    await host.expectAlive('while-busy');
    origin.release();
    for (const id of ids) {
      const summary = await host.reader.waitFor((m) => m.id === id && m.type === 'replay-summary', `${id}'s summary`);
      expect(summary).toMatchObject({ summaries: [{ strategy: 'getlist', errors: 0, bytes: 10 }] });
    }
    const again = await host.ask({ type: 'schedule', id: 'tenth', pageId: 'tenth', documentUrl: `${origin.origin}/`, requests: [] });
    expect(again).toMatchObject({ type: 'measured', id: 'tenth' });
  });
});
