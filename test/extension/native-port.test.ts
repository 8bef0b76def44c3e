import { INSTALL_FROM_CHECKOUT } from '../../src/page/messages/install-hint';
import { PROTOCOL_VERSION, splitIntoChunks } from '../../src/protocol';
import type { ExportReply, HostMessage, MeasuredReply, PongReply, ReplayResultMessage, ReplaySummaryMessage, StatsReply } from '../../src/protocol';
import { NativePort, type NativePortLike } from '../../extension/background/native-port';
import type { HostStatus } from '../../src/page/messages/messages';

/** A native port as the browser hands it out, driven by the test. */
class FakePort implements NativePortLike {
  sent: Array<Record<string, unknown>> = [];
  error: { message: string } | null = null;
  disconnected = false;
  private messageListeners: Array<(m: unknown) => void> = [];
  private disconnectListeners: Array<(p: NativePortLike) => void> = [];
  onMessage = { addListener: (l: (m: unknown) => void) => void this.messageListeners.push(l) };
  onDisconnect = { addListener: (l: (p: NativePortLike) => void) => void this.disconnectListeners.push(l) };
  postMessage(m: unknown): void {
    if (this.disconnected) throw new Error('Attempt to postMessage on disconnected port');
    this.sent.push(m as Record<string, unknown>);
  }
  disconnect(): void {
    this.disconnected = true;
  }
  /** The host writes a message. */
  reply(m: unknown): void {
    for (const l of this.messageListeners) l(m);
  }
  /** The host exits (or was never there). */
  exit(message: string): void {
    this.error = { message };
    this.disconnected = true;
    for (const l of this.disconnectListeners) l(this);
  }
  helloReply(extra: { cliCommand?: string } = {}): void {
    const hello = this.sent.find((m) => m.type === 'hello');
    this.reply({ type: 'hello', id: hello?.id, hostVersion: '0.1.0', protocolVersion: PROTOCOL_VERSION, capabilities: { strategies: ['browser', 'getlist'], http2: true, store: null, maxRequestsPerSchedule: 2000, maxMessageBytes: 1048576 }, ...extra });
  }
}

/** Timers the test fires by hand. */
class FakeTimers {
  private next = 1;
  readonly due = new Map<number, { fn: () => void; ms: number }>();
  setTimeout = (fn: () => void, ms: number) => {
    const h = this.next++;
    this.due.set(h, { fn, ms });
    return h;
  };
  clearTimeout = (h: unknown) => void this.due.delete(h as number);
  /** Fires every timer of exactly `ms`. */
  fire(ms: number): void {
    for (const [h, t] of [...this.due]) if (t.ms === ms) {
      this.due.delete(h);
      t.fn();
    }
  }
}

function setup(options: { maxPending?: number; idleMs?: number } = {}) {
  const ports: FakePort[] = [];
  const statuses: HostStatus[] = [];
  const timers = new FakeTimers();
  const warnings: string[] = [];
  const port = new NativePort(
    {
      connectNative: (name) => {
        expect(name).toBe('dev.getlist.host');
        const p = new FakePort();
        ports.push(p);
        return p;
      },
      onStatus: (s) => statuses.push(s),
      setTimeout: timers.setTimeout,
      clearTimeout: timers.clearTimeout,
      warn: (m) => warnings.push(m),
    },
    { helloTimeoutMs: 10_000, ...options },
  );
  const last = () => ports[ports.length - 1] as FakePort;
  return { port, ports, last, statuses, timers, warnings };
}

const flush = () => new Promise((r) => setImmediate(r));

describe('NativePort', () => {
  test('connects lazily, says hello first, and matches replies by id', async () => {
    const { port, ports, last, statuses } = setup();
    expect(ports).toHaveLength(0);
    const pong = port.request({ type: 'ping' });
    expect(last().sent.map((m) => m.type)).toEqual(['hello', 'ping']);
    expect(last().sent[0]).toMatchObject({ protocolVersion: 3 });
    last().helloReply();
    last().reply({ type: 'pong', id: last().sent[1]?.id });
    await expect(pong).resolves.toMatchObject({ type: 'pong' });
    expect(statuses.at(-1)).toEqual({ state: 'ok', hostVersion: '0.1.0' });
  });

  test('reassembles chunked replies and validates every message', async () => {
    const { port, last } = setup();
    const stats = port.request({ type: 'export', format: 'csv' });
    const id = last().sent[1]?.id as number;
    const json = JSON.stringify({ type: 'export', id, format: 'csv', mimeType: 'text/csv', data: 'x'.repeat(5000) });
    for (const c of splitIntoChunks(id, json, 1000).reverse()) last().reply(c);
    await expect(stats).resolves.toMatchObject({ type: 'export', data: 'x'.repeat(5000) });

    const bad = port.request({ type: 'ping' });
    last().reply({ type: 'pong' }); // no id: cannot be matched, only warned about
    last().reply({ type: 'measured', id: last().sent[2]?.id, pageId: 3 });
    await expect(bad).rejects.toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringContaining('pageId') });
  });

  test('a host error reply rejects with its code', async () => {
    const { port, last } = setup();
    const p = port.request({ type: 'stats' });
    last().reply({ type: 'error', id: last().sent[1]?.id, code: 'E_NO_STORE', message: 'no store' });
    await expect(p).rejects.toMatchObject({ code: 'E_NO_STORE', message: 'no store' });
  });

  test('pending requests are bounded: one more is refused with E_BUSY', async () => {
    const { port } = setup({ maxPending: 3 });
    const waiting = [port.request({ type: 'ping' }), port.request({ type: 'ping' })]; // + hello = 3
    await expect(port.request({ type: 'ping' })).rejects.toMatchObject({ code: 'E_BUSY' });
    expect(port.pendingCount).toBe(3);
    waiting.forEach((w) => w.catch(() => undefined));
  });

  test('every pending request settles when the port disconnects; the next request reconnects', async () => {
    const { port, ports, last, statuses } = setup();
    const a = port.request({ type: 'ping' });
    const b = port.request({ type: 'stats' });
    last().helloReply();
    last().exit('Native host has exited.');
    await expect(a).rejects.toMatchObject({ code: 'E_HOST_DISCONNECTED', message: expect.stringContaining('Native host has exited.') });
    await expect(b).rejects.toMatchObject({ code: 'E_HOST_DISCONNECTED' });
    expect(port.pendingCount).toBe(0);
    expect(statuses.at(-1)).toMatchObject({ state: 'error', fix: 'getlist doctor' });

    const c = port.request({ type: 'ping' });
    expect(ports).toHaveLength(2);
    expect(last().sent.map((m) => m.type)).toEqual(['hello', 'ping']);
    last().reply({ type: 'pong', id: last().sent[1]?.id });
    await expect(c).resolves.toMatchObject({ type: 'pong' });
  });

  test('after a hello that reported its CLI, a failing host’s fix is that exact `… doctor` command', async () => {
    const { port, last, statuses } = setup();
    const cli = "/usr/bin/node '/home/me/get list/bin/getlist.js'";
    const ping = port.request({ type: 'ping' });
    last().helloReply({ cliCommand: cli });
    last().reply({ type: 'pong', id: last().sent[1]?.id });
    await ping;
    expect(statuses.at(-1)).toEqual({ state: 'ok', hostVersion: '0.1.0', cliCommand: cli });
    last().exit('Native host has exited.');
    expect(statuses.at(-1)).toMatchObject({ state: 'error', fix: `${cli} doctor`, cliCommand: cli });
  });

  test('a host that cannot be started is `missing`, with the install command', async () => {
    const { port, last } = setup();
    const status = port.checkStatus();
    last().exit('Specified native messaging host not found.');
    await expect(status).resolves.toMatchObject({ state: 'missing', fix: INSTALL_FROM_CHECKOUT, message: expect.stringContaining('not installed') });
    expect(INSTALL_FROM_CHECKOUT).not.toMatch(/npx/);
    // Firefox words it differently
    const again = port.checkStatus();
    last().exit('No such native application dev.getlist.host');
    await expect(again).resolves.toMatchObject({ state: 'missing' });
  });

  test('connectNative throwing is a missing host, and the request rejects', async () => {
    const port = new NativePort({ connectNative: () => { throw new Error('Specified native messaging host not found.'); }, warn: () => undefined });
    await expect(port.request({ type: 'ping' })).rejects.toMatchObject({ code: 'E_HOST_DISCONNECTED' });
    expect(port.status.state).toBe('missing');
  });

  test('replay: every replay-result reaches the callback, the summary settles the request', async () => {
    const { port, last } = setup();
    const seen: HostMessage['type'][] = [];
    const done = port.request(
      { type: 'schedule', pageId: 'p', documentUrl: 'https://a.test/', requests: [{ url: 'https://a.test/', priority: 'document' }], mode: 'replay', strategies: ['browser', 'getlist'] },
      { onProgress: (m) => seen.push(m.type) },
    );
    const id = last().sent[1]?.id;
    for (const strategy of ['browser', 'getlist']) last().reply({ type: 'replay-result', id, pageId: 'p', strategy, requests: [] });
    await flush();
    expect(seen).toEqual(['replay-result', 'replay-result']);
    last().reply({ type: 'replay-summary', id, pageId: 'p', summaries: [] });
    await expect(done).resolves.toMatchObject({ type: 'replay-summary' });
  });

  test('each request resolves with its own reply type, typed without a cast', async () => {
    const { port, last } = setup();
    const pong: Promise<PongReply> = port.request({ type: 'ping' });
    const stats: Promise<StatsReply> = port.request({ type: 'stats', origin: 'https://a.test' });
    const measured: Promise<MeasuredReply> = port.request({ type: 'schedule', pageId: 'p', documentUrl: 'https://a.test/', requests: [], mode: 'measure' });
    // @ts-expect-error a ping is answered by a pong, never by an export
    const wrong: Promise<ExportReply> = port.request({ type: 'ping' });
    wrong.catch(() => undefined);
    const [, pingId, statsId, measureId, wrongId] = last().sent.map((m) => m.id);
    last().reply({ type: 'pong', id: pingId });
    last().reply({ type: 'stats', id: statsId, count: 0, groups: [] });
    last().reply({ type: 'measured', id: measureId, pageId: 'p', handshakes: [], warm: ['https://a.test'], failed: [] });
    last().reply({ type: 'pong', id: wrongId });
    await expect(pong).resolves.toEqual({ type: 'pong', id: pingId });
    await expect(stats).resolves.toEqual({ type: 'stats', id: statsId, count: 0, groups: [] });
    expect((await measured).warm).toEqual(['https://a.test']);
  });

  test('a valid reply of another type rejects with E_UNEXPECTED_REPLY and reaches no callback', async () => {
    const { port, last } = setup();
    const seen: ReplayResultMessage[] = [];
    const ping = port.request({ type: 'ping' });
    const measure = port.request({ type: 'schedule', pageId: 'p', documentUrl: 'https://a.test/', requests: [] });
    const replay: Promise<ReplaySummaryMessage> = port.request(
      { type: 'schedule', pageId: 'p', documentUrl: 'https://a.test/', requests: [], mode: 'replay', strategies: ['browser'] },
      { onProgress: (m) => seen.push(m) },
    );
    const [, pingId, measureId, replayId] = last().sent.map((m) => m.id);
    last().helloReply();
    last().reply({ type: 'forgotten', id: pingId, removed: 1 });
    // measure mode (the default) is answered by `measured`: a replay result is not a progress message there
    last().reply({ type: 'replay-result', id: measureId, pageId: 'p', strategy: 'browser', requests: [] });
    last().reply({ type: 'measured', id: replayId, pageId: 'p', handshakes: [], warm: [], failed: [] });
    await expect(ping).rejects.toMatchObject({ code: 'E_UNEXPECTED_REPLY', message: 'the native host answered ping with forgotten; expected pong' });
    await expect(measure).rejects.toMatchObject({ code: 'E_UNEXPECTED_REPLY', message: expect.stringContaining('expected measured') });
    await expect(replay).rejects.toMatchObject({ code: 'E_UNEXPECTED_REPLY', message: expect.stringContaining('expected replay-summary') });
    expect(seen).toEqual([]);
    expect(port.pendingCount).toBe(0);
  });

  test('a request that is not answered in time rejects with E_TIMEOUT; its late reply is ignored', async () => {
    const { port, last, timers, warnings } = setup();
    const p = port.request({ type: 'ping' }, { timeoutMs: 5000 });
    timers.fire(5000);
    await expect(p).rejects.toMatchObject({ code: 'E_TIMEOUT' });
    last().reply({ type: 'pong', id: last().sent[1]?.id });
    expect(warnings.join()).toContain('no pending request');
  });

  test('an idle port is closed, and reopened (with hello) by the next request', async () => {
    const { port, ports, last, timers } = setup({ idleMs: 1000 });
    const p = port.request({ type: 'ping' });
    last().helloReply();
    last().reply({ type: 'pong', id: last().sent[1]?.id });
    await p;
    timers.fire(1000);
    expect(ports[0]?.disconnected).toBe(true);
    expect(port.connected).toBe(false);
    expect(port.status.state).toBe('ok');
    void port.request({ type: 'ping' }).catch(() => undefined);
    expect(ports).toHaveLength(2);
    expect(last().sent[0]?.type).toBe('hello');
  });
});

test('the status follows the store health the host reports: hello, then each measured or stats reply', async () => {
  const { port, last, statuses } = setup();
  const first = port.request({ type: 'schedule', pageId: 'p', documentUrl: 'https://a.test/', requests: [] });
  const hello = last().sent.find((m) => m.type === 'hello');
  last().reply({ type: 'hello', id: hello?.id, hostVersion: '0.1.0', protocolVersion: PROTOCOL_VERSION, capabilities: { strategies: ['getlist'], http2: true, store: '/s', storeHealth: { state: 'ok', pending: 0, dropped: 0 }, maxRequestsPerSchedule: 2000, maxMessageBytes: 1048576 } });
  await Promise.resolve();
  await Promise.resolve();
  expect(port.status).toMatchObject({ state: 'ok', store: { state: 'ok', pending: 0 } });
  const full = { state: 'full', pending: 7, dropped: 0, error: { code: 'E_STORE_FULL', message: 'the disk is full' } };
  const schedule = last().sent.find((m) => m.type === 'schedule');
  last().reply({ type: 'measured', id: schedule?.id, pageId: 'p', handshakes: [], warm: [], failed: [], storeHealth: full });
  await first;
  expect(port.status).toEqual({ state: 'ok', hostVersion: '0.1.0', store: full });
  expect(statuses.at(-1)).toEqual(port.status);
  const stats = port.request({ type: 'stats' });
  const s = last().sent.find((m) => m.type === 'stats');
  last().reply({ type: 'stats', id: s?.id, count: 7, groups: [], storeHealth: { state: 'ok', pending: 0, dropped: 0 } });
  await stats;
  expect(port.status.store).toEqual({ state: 'ok', pending: 0, dropped: 0 });
});
