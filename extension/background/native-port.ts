import { CodedError, isCodedError } from '../../src/core/coded-error';
import { ChunkAssembler, ProtocolError, parseHostMessage, PROTOCOL_VERSION, type HostMessage, type RequestId } from '../../src/protocol';
import type { HelloReply } from '../../src/protocol/replies';
import { replyRole, settlingReplyType, type ProgressOf, type ReplyOf } from '../../src/protocol/reply-of';
import type { HostRequest } from '../../src/protocol/requests';
import type { HostStatus } from '../../src/page/messages/messages';
import { doctorCommand, HOST_NAME, statusFromConnectFailure } from './host-status';

/**
 * The one connection to the native host (`runtime.connectNative`), opened lazily on the first
 * request and again on the first request after the host exited.
 *
 * Invariants (uBlock's rule for ports): `hello` is the first message on every connection; at most
 * `maxPending` requests wait at once (one more is refused with `E_BUSY`); every pending request
 * settles — by its reply, its timeout, or `E_HOST_DISCONNECTED` when the port closes — so no
 * caller waits for ever. Every host message is reassembled from `chunk`s if needed and validated
 * with `parseHostMessage` before anyone sees it, and a request resolves only with the reply type
 * that answers it (`ReplyOf` in src/protocol/reply-of.ts); any other type is `E_UNEXPECTED_REPLY`.
 */

/** The parts of a `runtime.Port` this module uses (both browsers' native ports have them). */
export interface NativePortLike {
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: (port: NativePortLike) => void): void };
  /** Firefox: why the port closed. */
  error?: { message?: string } | null;
}

export interface NativePortDeps {
  connectNative: (application: string) => NativePortLike;
  /** Chrome reports why a port closed in `runtime.lastError`, read inside onDisconnect. */
  lastErrorMessage?: () => string | undefined;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  /** Told whenever the host status changes. */
  onStatus?: (status: HostStatus) => void;
  /** Host messages that match no pending request, and other oddities. @default console.warn */
  warn?: (message: string) => void;
}

export interface NativePortOptions {
  /** Requests waiting for replies at most. @default 64 */
  maxPending?: number;
  /** How long `hello` may take. @default 10000 */
  helloTimeoutMs?: number;
  /** Close the port after this long with nothing pending, so an idle service worker may stop. @default 300000 */
  idleMs?: number;
}

/** `P`: the messages that may come before the settling reply (`ProgressOf` the request). */
export interface RequestOptions<P extends HostMessage = HostMessage> {
  /** Reject with `E_TIMEOUT` after this long; 0 = never. @default 60000 */
  timeoutMs?: number;
  /** Called with every message before the settling reply: a replay's `replay-result`s. */
  onProgress?: (message: P) => void;
}

/**
 * A request that failed: a host `error` reply, a reply of the wrong type (`E_UNEXPECTED_REPLY`), or
 * a failure on this side (`E_BUSY`, `E_TIMEOUT`, `E_HOST_DISCONNECTED`).
 */
export class HostRequestError extends CodedError {
  override readonly name = 'HostRequestError';
}

/** What the rest of the background uses of the port (page actions, UI handlers); tests pass a fake. */
export type HostPort = Pick<NativePort, 'request' | 'checkStatus' | 'status'>;

/** A request without its id: the port numbers requests itself. */
export type HostRequestBody = HostRequest extends infer R ? (R extends HostRequest ? Omit<R, 'id'> : never) : never;

interface Pending {
  body: HostRequestBody;
  resolve: (message: HostMessage) => void;
  reject: (error: HostRequestError) => void;
  options: RequestOptions;
  timer?: unknown;
}

interface Connection {
  port: NativePortLike;
  assembler: ChunkAssembler;
  answered: boolean;
  hello: Promise<HelloReply>;
}

export class NativePort {
  private connection: Connection | undefined;
  /** The CLI command line the last `hello` reported; outlives the connection, for the fix shown when it fails. */
  private cliCommand: string | undefined;
  private readonly pending = new Map<RequestId, Pending>();
  private nextId = 1;
  private idleTimer: unknown;
  private currentStatus: HostStatus = { state: 'unknown' };
  private readonly maxPending: number;
  private readonly helloTimeoutMs: number;
  private readonly idleMs: number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly warn: (message: string) => void;

  constructor(
    private readonly deps: NativePortDeps,
    options: NativePortOptions = {},
  ) {
    this.maxPending = options.maxPending ?? 64;
    this.helloTimeoutMs = options.helloTimeoutMs ?? 10_000;
    this.idleMs = options.idleMs ?? 300_000;
    this.setTimer = deps.setTimeout ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = deps.clearTimeout ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.warn = deps.warn ?? ((m) => console.warn(`getlist: ${m}`));
  }

  get status(): HostStatus {
    return this.currentStatus;
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  get connected(): boolean {
    return this.connection !== undefined;
  }

  /** The host status, asking `hello` first when it is not known yet. Never rejects. */
  async checkStatus(): Promise<HostStatus> {
    // `ok` stays true across idle closes; `missing` and `error` are retried (the user may just have fixed it).
    if (this.currentStatus.state === 'ok') return this.currentStatus;
    try {
      await this.connect().hello;
    } catch {
      // the status says why
    }
    return this.currentStatus;
  }

  /** Sends a request; resolves with the reply that answers it, rejects with a `HostRequestError`. */
  request<R extends HostRequestBody>(body: R, options: RequestOptions<ProgressOf<R>> = {}): Promise<ReplyOf<R>> {
    if (this.pending.size >= this.maxPending) {
      return Promise.reject(new HostRequestError('E_BUSY', `${this.pending.size} requests to the native host are already waiting; try again when they finish.`));
    }
    let connection: Connection;
    try {
      connection = this.connect();
    } catch (err) {
      return Promise.reject(err instanceof HostRequestError ? err : new HostRequestError('E_HOST_DISCONNECTED', String(err)));
    }
    return this.send(connection, body, options);
  }

  /** Closes the port; pending requests reject with `E_HOST_DISCONNECTED`. */
  disconnect(reason = 'the extension closed the connection'): void {
    const c = this.connection;
    if (!c) return;
    c.port.disconnect();
    this.closed(c, reason);
  }

  private send<R extends HostRequestBody>(connection: Connection, body: R, options: RequestOptions<ProgressOf<R>>): Promise<ReplyOf<R>> {
    const id = this.nextId++;
    return new Promise<ReplyOf<R>>((resolve, reject) => {
      // `received` resolves an entry only with a message `replyRole` found to be the settling
      // reply to `body`, and calls onProgress only with its progress messages: these are the types.
      const entry: Pending = { body, resolve: resolve as (m: HostMessage) => void, reject, options: options as RequestOptions };
      const timeoutMs = options.timeoutMs ?? 60_000;
      if (timeoutMs > 0) {
        entry.timer = this.setTimer(() => {
          if (this.pending.get(id) !== entry) return;
          this.pending.delete(id);
          reject(new HostRequestError('E_TIMEOUT', `the native host did not answer ${body.type} within ${timeoutMs / 1000} s`));
          this.armIdle();
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      this.disarmIdle();
      try {
        connection.port.postMessage({ ...body, id });
      } catch (err) {
        // The port died under us; onDisconnect settles this request with the others.
        this.closed(connection, errorText(err));
      }
    });
  }

  private connect(): Connection {
    if (this.connection) return this.connection;
    let port: NativePortLike;
    try {
      port = this.deps.connectNative(HOST_NAME);
    } catch (err) {
      this.setStatus(statusFromConnectFailure(errorText(err), false, this.cliCommand));
      throw new HostRequestError('E_HOST_DISCONNECTED', errorText(err));
    }
    const connection: Connection = { port, assembler: new ChunkAssembler(), answered: false, hello: Promise.resolve() as unknown as Promise<HelloReply> };
    this.connection = connection;
    port.onMessage.addListener((raw) => this.received(connection, raw));
    port.onDisconnect.addListener((p) => this.closed(connection, p.error?.message ?? port.error?.message ?? this.deps.lastErrorMessage?.() ?? ''));
    connection.hello = this.send(connection, { type: 'hello', protocolVersion: PROTOCOL_VERSION }, { timeoutMs: this.helloTimeoutMs }).then(
      (hello) => {
        // The port may have closed between the reply and this callback; then its close has the last word.
        if (hello.cliCommand) this.cliCommand = hello.cliCommand;
        if (this.connection === connection) {
          this.setStatus({
            state: 'ok',
            hostVersion: hello.hostVersion,
            ...(hello.capabilities.storeHealth ? { store: hello.capabilities.storeHealth } : {}),
            ...(hello.cliCommand ? { cliCommand: hello.cliCommand } : {}),
          });
        }
        return hello;
      },
      (err: HostRequestError) => {
        // Disconnects set the status themselves (they know whether it is `missing`).
        if (err.code !== 'E_HOST_DISCONNECTED' && this.connection === connection) this.setStatus({ state: 'error', message: `The native host did not accept hello: ${err.message}`, fix: doctorCommand(this.cliCommand) });
        throw err;
      },
    );
    // Nobody may be awaiting hello; its failure is reported through the status.
    connection.hello.catch(() => undefined);
    return connection;
  }

  private received(connection: Connection, raw: unknown): void {
    if (this.connection !== connection) return;
    connection.answered = true;
    let message: HostMessage;
    try {
      message = parseHostMessage(raw);
      if (message.type === 'chunk') {
        const text = connection.assembler.accept(message);
        if (text === undefined) return;
        message = parseHostMessage(JSON.parse(text));
      }
    } catch (err) {
      const id = err instanceof ProtocolError ? err.id : null;
      const code = isCodedError(err) ? err.code : 'E_INVALID_JSON';
      const entry = id === null ? undefined : this.pending.get(id);
      if (entry && id !== null) this.settle(id, entry, undefined, new HostRequestError(code, `the native host sent an invalid message: ${errorText(err)}`));
      else this.warn(`ignored an invalid host message: ${errorText(err)}`);
      return;
    }
    this.noteStoreHealth(message);
    const id = message.id;
    const entry = id === null ? undefined : this.pending.get(id);
    if (!entry || id === null) {
      this.warn(`ignored a ${message.type} message for no pending request (id ${JSON.stringify(id)})`);
      return;
    }
    if (message.type === 'error') {
      this.settle(id, entry, undefined, new HostRequestError(message.code, message.message));
      return;
    }
    const role = replyRole(entry.body, message);
    if (role === 'progress') {
      entry.options.onProgress?.(message);
      return;
    }
    if (role === 'unexpected') {
      const error = new HostRequestError('E_UNEXPECTED_REPLY', `the native host answered ${entry.body.type} with ${message.type}; expected ${settlingReplyType(entry.body)}`);
      this.settle(id, entry, undefined, error);
      return;
    }
    this.settle(id, entry, message);
  }

  /** Replies that carry the store's health (measured, stats) keep the status's `store` current. */
  private noteStoreHealth(message: HostMessage): void {
    const health = 'storeHealth' in message ? message.storeHealth : undefined;
    if (!health || this.currentStatus.state !== 'ok' || message.type === 'hello') return;
    const before = this.currentStatus.store;
    if (before && before.state === health.state && before.pending === health.pending && before.dropped === health.dropped) return;
    this.setStatus({ ...this.currentStatus, store: health });
  }

  private settle(id: RequestId, entry: Pending, message: HostMessage | undefined, error?: HostRequestError): void {
    this.pending.delete(id);
    if (entry.timer !== undefined) this.clearTimer(entry.timer);
    if (error) entry.reject(error);
    else if (message) entry.resolve(message);
    this.armIdle();
  }

  private closed(connection: Connection, reason: string): void {
    if (this.connection !== connection) return;
    this.connection = undefined;
    connection.assembler.clear();
    this.disarmIdle();
    this.setStatus(statusFromConnectFailure(reason, connection.answered, this.cliCommand));
    const text = reason.trim() || 'the native host exited';
    for (const [id, entry] of [...this.pending]) this.settle(id, entry, undefined, new HostRequestError('E_HOST_DISCONNECTED', `Lost the native host: ${text}`));
  }

  private armIdle(): void {
    if (this.pending.size > 0 || !this.connection || this.idleMs <= 0) return;
    this.disarmIdle();
    const connection = this.connection;
    this.idleTimer = this.setTimer(() => {
      this.idleTimer = undefined;
      if (this.connection !== connection || this.pending.size > 0) return;
      connection.port.disconnect();
      this.connection = undefined;
      // An idle close is not a failure: the status stays, the next request reconnects and says hello again.
      connection.assembler.clear();
    }, this.idleMs);
  }

  private disarmIdle(): void {
    if (this.idleTimer === undefined) return;
    this.clearTimer(this.idleTimer);
    this.idleTimer = undefined;
  }

  private setStatus(status: HostStatus): void {
    this.currentStatus = status;
    this.deps.onStatus?.(status);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
