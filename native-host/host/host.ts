import type { Readable, Writable } from 'node:stream';
import { ProtocolError, RUN_TIMEOUT_MS, errorReply, parseRequest, type HostRequest } from '../../src/protocol';
import type { HandshakeStore } from '../store/store-types';
import { TimingConnector } from '../transport/timing-connector';
import { FrameWriter } from './frame-writer';
import { FrameDecoder, decodePayload } from './framing';
import { dispatch } from './handlers';
import type { HostContext } from './host-context';
import { createHostLog, type HostLog } from './host-log';
import type { RunTransportOptions } from '../run/run-session';
import { WarmConnections } from './warm-connections';

export interface HostOptions {
  /** Frames from the browser. */
  stdin: Readable;
  /** Frames to the browser, and nothing else. */
  stdout: Writable;
  /** Log lines. */
  stderr: Writable;
  /** Reported by `hello`. @default '0.0.0' */
  hostVersion?: string;
  /** Reported by `hello` as `cliCommand`: this installation's CLI, e.g. `/usr/bin/node /opt/getlist/bin/getlist.js`. */
  cliCommand?: string;
  /** Where `stats`, `export` and `forget` read, and measure and replay write. The host closes it on exit. */
  store?: HandshakeStore;
  /** Where log lines go (the CLI's writes `<data dir>/host.log` too). @default lines on `stderr` only */
  log?: HostLog;
  /** Monotonic ms clock for request and handshake timings. @default performance.now */
  now?: () => number;
  /** Aborting it shuts the host down as the end of stdin does (the CLI aborts it on SIGTERM). */
  signal?: AbortSignal;
  /** TLS trust and timeouts for measuring and replaying (tests point these at local servers). */
  transport?: RunTransportOptions;
  /** A replayed strategy still running after this long is cut short (tests shorten it). @default RUN_TIMEOUT_MS */
  replayTimeoutMs?: number;
  /** How long a measured connection is kept warm. @default 30000 */
  warmIdleMs?: number;
}

/**
 * Budgets of the shutdown, which must end within 1 s of stdin closing or SIGTERM: running
 * schedules are aborted and get this long to unwind, then warm sockets are closed and stdout
 * flushed, then the store is flushed and closed; the whole is cut short at `SHUTDOWN_MS` whatever
 * still waits, leaving the CLI time to end the process.
 */
const SETTLE_MS = 200;
const FLUSH_MS = 100;
const STORE_CLOSE_MS = 400;
const SHUTDOWN_MS = 750;

/**
 * The native messaging host: reads frames from stdin, answers each request, and exits when stdin
 * ends (the browser closed the port) or `signal` aborts. Bad input never stops it: each bad frame
 * or request gets its error reply. Only a stream that can no longer be delimited (a length over
 * 64 MiB, or EOF inside a frame) ends it early, after saying so.
 * @returns the exit code: 0 after a clean end of input or `signal`, 1 after a broken stream.
 */
export async function runHost(options: HostOptions): Promise<number> {
  const log = options.log ?? createHostLog({ stderr: options.stderr });
  let stopReason: { code: number; why: string } | undefined;
  let onStop: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (onStop = resolve));
  const stop = (code: number, why: string) => {
    if (stopReason) return;
    stopReason = { code, why };
    onStop();
  };
  const writer = new FrameWriter(options.stdout, { onError: (err) => stop(0, `stdout failed (${(err as NodeJS.ErrnoException).code ?? err.message}): the browser has gone`) });
  // A broken stderr ends the host too, quietly (the log notes it once and writes there no more):
  // its reader is the browser's side of the process, and a host that outlives it must not linger.
  options.stderr.once('error', (err: NodeJS.ErrnoException) => stop(0, `stderr failed (${err.code ?? err.message}): its reader is gone`));
  const shutdown = new AbortController();
  const ctx = createContext(options, log, writer, shutdown.signal);
  const inflight = new Set<Promise<void>>();
  const fatal = (code: 'E_FRAME_TOO_LARGE' | 'E_FRAME_TRUNCATED', message: string) => {
    log.error(`${code}: ${message}`);
    writer.send(errorReply(null, code, message));
    stop(1, code);
  };
  const detach = attachInput(options, {
    frame: (payload) => {
      if (stopReason) return;
      const p = handleFrame(payload, ctx);
      if (!p) return;
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    },
    fatal,
    stop,
  });
  log.info(`started (pid ${process.pid}, store ${options.store?.location ?? 'none'})`);

  await stopped;
  const { code, why } = stopReason as { code: number; why: string };
  log.info(`stopping: ${why}`);
  detach();
  shutdown.abort();
  if (await within(closeDown(ctx, inflight, writer, options.store), SHUTDOWN_MS)) log.warn(`the shutdown was cut short after ${SHUTDOWN_MS} ms`);
  log.info(`exit ${code}`);
  return code;
}

function createContext(options: HostOptions, log: HostLog, writer: FrameWriter, signal: AbortSignal): HostContext {
  let nextConnectionId = 1;
  return {
    hostVersion: options.hostVersion ?? '0.0.0',
    ...(options.cliCommand ? { cliCommand: options.cliCommand } : {}),
    send: (m) => writer.send(m),
    store: options.store,
    log,
    signal,
    connector: new TimingConnector({ ...options.transport, allowH2: true }, options.now),
    warm: new WarmConnections(options.warmIdleMs),
    nextConnectionId: () => nextConnectionId++,
    running: 0,
    replay: { ...(options.transport ? { transport: options.transport } : {}), timeoutMs: options.replayTimeoutMs ?? RUN_TIMEOUT_MS },
    now: options.now ?? (() => performance.now()),
  };
}

/**
 * Feeds stdin through the frame decoder until the host stops; returns the function that detaches
 * it. Detaching destroys stdin: nothing more is read, and a process's stdin left open would keep
 * the event loop alive.
 */
function attachInput(
  options: HostOptions,
  on: { frame: (payload: Buffer) => void; fatal: (code: 'E_FRAME_TOO_LARGE' | 'E_FRAME_TRUNCATED', message: string) => void; stop: (code: number, why: string) => void },
): () => void {
  const decoder = new FrameDecoder();
  const onData = (chunk: Buffer) => {
    for (const ev of decoder.push(chunk)) {
      if (ev.kind === 'frame') on.frame(ev.payload);
      else on.fatal(ev.code, ev.message);
    }
  };
  const onEnd = () => {
    const ev = decoder.end();
    if (ev?.kind === 'fatal') on.fatal(ev.code, ev.message);
    else on.stop(0, 'stdin closed: the browser closed the port');
  };
  const onError = (err: Error) => on.stop(0, `stdin failed: ${err.message}`);
  // A stream destroyed without an end (a reset pipe) only closes.
  const onClose = () => on.stop(0, 'stdin closed without an end: the browser has gone');
  const onAbort = () => on.stop(0, 'asked to stop (a signal)');
  const { stdin, signal } = options;
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  stdin.on('error', onError);
  stdin.once('close', onClose);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  return () => {
    stdin.off('data', onData);
    stdin.off('end', onEnd);
    stdin.off('close', onClose);
    signal?.removeEventListener('abort', onAbort);
    stdin.destroy();
  };
}

/** The shutdown after `ctx.signal` has been aborted, within the budgets above. */
async function closeDown(ctx: HostContext, inflight: ReadonlySet<Promise<void>>, writer: FrameWriter, store: HandshakeStore | undefined): Promise<void> {
  if (await within(Promise.allSettled([...inflight]), SETTLE_MS)) {
    ctx.log.warn(`${inflight.size} request(s) still unwinding after ${SETTLE_MS} ms`);
  }
  await Promise.all([ctx.warm.closeAll(), within(writer.flush(), FLUSH_MS)]);
  if (!store) return;
  const closing = store.close().catch((err: unknown) => ctx.log.error('closing the store failed', err));
  if (await within(closing, STORE_CLOSE_MS)) ctx.log.warn(`the store did not close within ${STORE_CLOSE_MS} ms`);
}

/**
 * Decodes, validates and dispatches one frame. Synchronous up to the handler's first await, so
 * frames are answered in order and the running-schedule count is exact.
 * @returns the handler's promise when it has asynchronous work left.
 */
function handleFrame(payload: Buffer, ctx: HostContext): Promise<void> | undefined {
  let req: HostRequest;
  try {
    req = parseRequest(decodePayload(payload));
  } catch (err) {
    reportFailure(err, null, ctx);
    return undefined;
  }
  try {
    const result = dispatch(req, ctx);
    return result ? result.catch((err: unknown) => reportFailure(err, req.id, ctx)) : undefined;
  } catch (err) {
    reportFailure(err, req.id, ctx);
    return undefined;
  }
}

function reportFailure(err: unknown, id: HostRequest['id'] | null, ctx: HostContext): void {
  if (err instanceof ProtocolError) {
    ctx.send(errorReply(err.id ?? id, err.code, err.message));
    return;
  }
  // A request cut short by the shutdown has no one left to answer.
  if (ctx.signal.aborted) return;
  ctx.log.error(`request ${JSON.stringify(id)} failed`, err);
  const why = err instanceof Error ? err.message : String(err);
  ctx.send(errorReply(id, 'E_INTERNAL', `the host failed on this request: ${why} (details in the host log)`));
}

/** Waits for `p` at most `ms`; resolves true when the time ran out first. */
async function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), ms);
  });
  try {
    return await Promise.race([p.then(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

