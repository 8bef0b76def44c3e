import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type SecureContext, type TLSSocket } from 'node:tls';
import buildConnector from 'undici/lib/core/connect';
import type { HandshakeRecord } from '../../src/stats/handshake';
import { connectWithCheck, gatedLookup, gatedLookupAll, refuseTarget, type AddressCheck } from './connection-gate';
import { sharedConnectTimer, type ConnectTimer } from './connect-timer';
import { mapTarget, type HostMapping } from './host-mapping';
import { loopBusyMs, type LoopBusyClock } from './loop-busy';
import { H2_FIRST_ALPN } from './alpn-order';
import { FinishedHold } from './finished-hold';
import { TlsSessions } from './tls-sessions';
import { trustContext } from './trust-context';
import { warmUpTls } from './tls-warm-up';

export interface TimingConnectorOptions {
  /** Offer `h2` by ALPN on https:, before `http/1.1` (alpn-order.ts). @default false */
  allowH2?: boolean;
  /** Extra CA certificates (PEM) to trust besides the system's roots, e.g. a test server's self-signed certificate. */
  ca?: string | string[];
  /** @default true */
  rejectUnauthorized?: boolean;
  /** Connect timeout in ms (DNS + TCP + TLS). @default 10000 */
  timeoutMs?: number;
  /**
   * Test hook: hold the connection this many ms after the socket is up, as a slow handshake
   * would. Counted in `totalMs` only. @default no delay
   */
  handshakeDelayMs?: (origin: string, connectionId: number) => number;
  /**
   * `--resolve` / `--connect-to` mappings: connect to another address or host while the URL's host
   * stays the `Host`, SNI and certificate name. A mapping to an address skips DNS (0 ms). @default none
   */
  hostMappings?: readonly HostMapping[];
  /**
   * Checked against every address before a connection is attempted to it (the literal, or each
   * address DNS gives), and again against the address the socket actually connected to before a
   * byte is sent (TLS included): an error refuses the connection with it (connection-gate.ts).
   * @default allow all
   */
  addressCheck?: AddressCheck;
  /**
   * Also connect to the Fetch standard's bad ports; otherwise such a connection fails with
   * `E_UNSAFE_PORT` before it is attempted. @default false
   */
  allowUnsafePorts?: boolean;
  /**
   * Where TCP connects are made and timed: `timer`, a child process with a quiet event loop that
   * hands each connected socket over (connect-timer.ts), so `tcpMs` carries none of this process's
   * work; `loop`, this process, where a `connect` event waits for the loop (bounded by
   * `loopDelayMs`). @default 'timer'
   */
  connectIn?: 'timer' | 'loop';
  /**
   * Called as a connection's TLS handshake starts, with the round trip its TCP handshake measured:
   * the server's flight is at least that far away. A watcher that has work to do meanwhile
   * schedules it (`setImmediate`), so the ClientHello is written first.
   */
  onTlsStart?: (origin: string, rttMs: number) => void;
  /**
   * Called in the turn a connection's SYN went out (or the timer's child was asked for it), with
   * whether TLS follows. Work scheduled from here (`setImmediate`) runs while the handshake's round
   * trip does, after the SYNs asked for in the same turn.
   */
  afterSyn?: (secure: boolean) => void;
  /**
   * The TLS sessions to resume from and keep new ones in (tls-sessions.ts): shared by connectors
   * that model one browser's later visits. @default this connector's own
   */
  tlsSessions?: TlsSessions;
  /**
   * Send a TLS 1.3 client's Finished with the connection's first application bytes
   * (finished-hold.ts); `false` writes it the moment the handshake makes it. @default true
   */
  finishedHold?: boolean;
}

export interface TimedSocket {
  socket: Socket;
  handshake: HandshakeRecord;
}

export type Now = () => number;

/**
 * Opens sockets and measures their handshakes (docs/architecture.md, "Timing is measured at the socket").
 *
 * Phases: DNS ends when the lookup answers (absent for IP literals → 0 ms); TCP runs from the
 * first connection attempt (the SYN) to the socket's `connect` event; TLS runs from the moment this
 * process starts it on the connected socket to its `secureConnect` event. By default the TCP
 * connect is made and timed in the connect timer's child process (connect-timer.ts), whose loop
 * does nothing else, and the socket is then handed over: the wait for the SYN and the hand-over
 * are local waiting, in `totalMs` and in no phase. Connects asked before that child is up (the
 * first of a process, which starts it: a Node start, tens of milliseconds) are made in this loop.
 * Every record carries `loopDelayMs`, this process's event-loop busy time inside the phases it
 * times itself (DNS and TLS; TCP too with `connectIn: 'loop'`): the most scheduling delay they may
 * include. One connector keeps one TLS session cache, so later connections to the same server can
 * resume; use a new connector for a "fresh pool", or give several one `tlsSessions` to share.
 */
export class TimingConnector {
  /** undici's connector for this connector's in-loop TCP connects, built on first use. */
  private plainConnector: buildConnector.connector | undefined;
  /**
   * The latest TLS session per host:port, what `startTls` resumes from. Kept here, not in undici's
   * connector cache, which holds sessions only through `WeakRef`s (a garbage collection between two
   * connections would silently turn a resumption into a full handshake).
   */
  private readonly sessions: TlsSessions;
  private readonly timer: ConnectTimer | undefined;
  /** The roots and the user's CA, one context for every connection (trust-context.ts); see `trust`. */
  private trustContext: SecureContext | undefined;

  /** An in-loop connect was made because the timer's child was not up: start it after that SYN. */
  private timerDue = false;

  constructor(
    private readonly options: TimingConnectorOptions = {},
    private readonly now: Now = () => performance.now(),
    private readonly loopBusy: LoopBusyClock = loopBusyMs,
    timer: () => ConnectTimer = sharedConnectTimer,
  ) {
    this.timer = options.connectIn === 'loop' ? undefined : timer();
    this.sessions = options.tlsSessions ?? new TlsSessions();
  }

  /**
   * The trust context, built by the first TLS connection that needs it. Building it is Node's
   * first `createSecureContext` in a process, which parses every root certificate unless
   * `NODE_EXTRA_CA_CERTS` made Node do so at its start: tens of milliseconds of this loop
   * (bench/README.md, "What a fresh process pays at a load's start"). A page served over plain
   * HTTP never pays it.
   */
  private trust(): SecureContext {
    this.trustContext ??= trustContext(this.options.ca);
    return this.trustContext;
  }

  /**
   * Builds the trust context in a turn of its own once a TLS connection's SYN is out (or the
   * timer's child was asked for it), and warms the process's TLS client code with it
   * (tls-warm-up.ts): the handshake's round trip covers both, and the connects asked in the same
   * turn send their SYNs first.
   */
  private warmTrustAfterSyn(): void {
    if (this.trustContext !== undefined) return;
    setImmediate(() => {
      const secureContext = this.trust();
      warmUpTls((socket, servername) => tlsConnect({ socket, servername, secureContext, ALPNProtocols: this.alpn() }));
    });
  }

  /** A connection's SYN is out (or the timer's child was asked for it): what its round trip covers. */
  private synSent(secure: boolean): void {
    if (secure) this.warmTrustAfterSyn();
    this.options.afterSyn?.(secure);
  }

  /** undici's connector for an in-loop TCP connect (it sets up the socket as for its own connections); TLS is `startTls`. */
  private tcpConnector(): buildConnector.connector {
    this.plainConnector ??= buildConnector({
      timeout: this.options.timeoutMs ?? 10_000,
      // undici passes this to net.connect: every name resolves through the connection gate.
      lookup: gatedLookup,
    } as buildConnector.BuildOptions);
    return this.plainConnector;
  }

  /**
   * Opens one connection, through the connection gate (connection-gate.ts): a bad port or a refused
   * address fails it before any attempt. Aborting `signal` destroys the socket, so the promise
   * rejects at once instead of waiting for the connect timeout. `addressCheck` overrides the
   * connector's own.
   *
   * Each phase end is timestamped in the socket's own listener for that event, put ahead of
   * every other listener (undici's, the caller's), so no handler's work runs between the event
   * and its timestamp. The promise then settles from `setImmediate`: the connection's users
   * (client set-up, the first requests) run after the poll phase, so the other sockets whose
   * events arrived in the same poll are timestamped before that work instead of behind it.
   */
  open(origin: string, connectionId: number, signal?: AbortSignal, addressCheck: AddressCheck | undefined = this.options.addressCheck): Promise<TimedSocket> {
    if (signal?.aborted) return Promise.reject(abortError(origin));
    const url = new URL(origin);
    const https = url.protocol === 'https:';
    const target = mapTarget(this.options.hostMappings ?? [], url.hostname, Number(url.port || (https ? 443 : 80)));
    const refusedTarget = refuseTarget({ allowUnsafePorts: this.options.allowUnsafePorts ?? false, ...(addressCheck ? { addressCheck } : {}) }, origin, target.host, target.port);
    if (refusedTarget) return Promise.reject(refusedTarget);
    const t: Target = { origin, url, host: target.host, port: target.port, mapped: target.mapped, connectionId };
    if (this.timer?.warm) {
      // A timer that cannot run costs timing fidelity, never the connection: connect in this loop.
      return this.openTimed(this.timer, t, signal, addressCheck).catch((e: unknown) => {
        if ((e as { code?: string }).code !== 'E_CONNECT_TIMER' || signal?.aborted) throw e;
        return this.openInLoop(t, signal, addressCheck);
      });
    }
    // Waiting for the timer's child to come up would put a process start before the SYN: this
    // connect is made in the loop, and the child starts (if it can) once its SYN is out.
    this.timerDue = this.timer !== undefined;
    return this.openInLoop(t, signal, addressCheck);
  }

  /**
   * Starts the timer's child after the turn of the loop in which an in-loop connect sent its SYN:
   * the connects whose lookups ended in the same turn send theirs first, and none waits for the
   * process start (a synchronous spawn, milliseconds long).
   */
  private startTimerAfterSyn(): void {
    if (!this.timerDue) return;
    this.timerDue = false;
    setImmediate(() => void this.timer?.warmUp());
  }

  /**
   * `open` with the TCP connect made in this process: its timestamps may carry this loop's work
   * (`loopDelayMs`). TLS starts on the connected socket as on a timer's socket (`startTls`), so
   * the trust context is built while the SYN is out, not before it (`warmTrustAfterSyn`).
   */
  private openInLoop(t: Target, signal: AbortSignal | undefined, addressCheck: AddressCheck | undefined): Promise<TimedSocket> {
    const { origin, url, connectionId } = t;
    const https = url.protocol === 'https:';
    const startedAt = Date.now();
    const busy0 = this.loopBusy();
    const t0 = this.now();
    let tLookup: number | undefined;
    let busyAtLookup: number | undefined;
    let tAttempt: number | undefined;
    let busyAtAttempt: number | undefined;
    let tConnect: number | undefined;
    return new Promise<TimedSocket>((resolve, reject) => {
      let pending: Socket | undefined = undefined;
      // Destroying the socket makes the connector call back with the error.
      const onAbort = () => pending?.destroy(abortError(origin));
      const socket = connectWithCheck(addressCheck, () => this.tcpConnector()(
        {
          hostname: t.host,
          host: url.host,
          protocol: 'http:',
          port: String(t.port),
        } as buildConnector.Options,
        (err, connected) => {
          signal?.removeEventListener('abort', onAbort);
          if (err || !connected) {
            reject(err ?? new Error('connector returned no socket'));
            return;
          }
          const tcp = connected as Socket;
          const connectAt = tConnect ?? this.now();
          const busyAtConnect = this.loopBusy();
          const lookupAt = tLookup ?? t0;
          const attemptAt = attemptStart(lookupAt, tAttempt, connectAt);
          const busyLookup = busyAtLookup ?? busy0;
          // The loop's busy time inside the phases: the start to the lookup, the attempt to the
          // connect, and TLS. Before the attempt the socket holds no connection, so the loop's
          // work there delays no phase.
          const busyInTcp = busyLookup - busy0 + (busyAtConnect - (busyAtAttempt ?? busyLookup));
          const finish = (s: Socket, tls: { ms: number; busy: number }, tEnd: number) => {
            if (signal?.aborted) {
              s.destroy();
              reject(abortError(origin));
              return;
            }
            const phasesMs = lookupAt - t0 + (connectAt - attemptAt) + tls.ms;
            const loopDelayMs = Math.max(0, Math.min(phasesMs, busyInTcp + tls.busy));
            const phases = { startedAt, dnsMs: lookupAt - t0, tcpMs: connectAt - attemptAt, tlsMs: tls.ms, totalMs: tEnd - t0, loopDelayMs };
            resolve({ socket: s, handshake: handshakeRecord(s, { origin, connectionId }, phases) });
          };
          const settle = (s: Socket, tls: { ms: number; busy: number }, tDone: number) => {
            const delay = this.options.handshakeDelayMs?.(origin, connectionId) ?? 0;
            if (delay > 0) setTimeout(() => finish(s, tls, this.now()), delay);
            else setImmediate(finish, s, tls, tDone);
          };
          // undici calls back in the `connect` event's dispatch, after the listener below stamped it:
          // a refused address is dropped before TLS sends a byte.
          const refused = addressCheck?.(tcp.remoteAddress ?? '');
          if (refused) {
            tcp.destroy();
            reject(refused);
            return;
          }
          if (!https) {
            settle(tcp, { ms: 0, busy: 0 }, connectAt);
            return;
          }
          this.startTls(t, tcp, signal, connectAt - attemptAt).then(
            (secured) => settle(secured.socket, secured, secured.at),
            (e: unknown) => reject(e),
          );
        },
      )) as unknown as Socket;
      pending = socket;
      signal?.addEventListener('abort', onAbort, { once: true });
      socket.prependOnceListener('lookup', () => {
        tLookup = this.now();
        busyAtLookup = this.loopBusy();
      });
      // Node sends the SYN on a later tick than this call (an IP literal: process.nextTick; a name:
      // after its lookup), so the attempt is stamped where it happens. With several addresses
      // (autoSelectFamily) the first attempt starts the phase, failed ones included, as curl counts it.
      socket.prependOnceListener('connectionAttempt', () => {
        tAttempt = this.now();
        busyAtAttempt = this.loopBusy();
        this.startTimerAfterSyn();
        this.synSent(https);
      });
      socket.prependOnceListener('connect', () => {
        tConnect = this.now();
        // Where no `connectionAttempt` was told (a Node without it), the SYN is out by now.
        this.startTimerAfterSyn();
      });
    });
  }

  /**
   * `open` with the TCP connect made and timed by the connect timer. For an IP literal the timer
   * is asked within this call, so the SYN goes out whatever this loop does next.
   */
  private async openTimed(timer: ConnectTimer, t: Target, signal: AbortSignal | undefined, addressCheck: AddressCheck | undefined): Promise<TimedSocket> {
    const https = t.url.protocol === 'https:';
    const startedAt = Date.now();
    const busy0 = this.loopBusy();
    const t0 = this.now();
    const literal = t.host.replace(/^\[|\]$/g, '');
    const family = isIP(literal);
    const addresses = family !== 0 ? [{ address: literal, family }] : await gatedLookupAll(addressCheck, literal);
    const lookupAt = family !== 0 ? t0 : this.now();
    const busyInDns = family !== 0 ? 0 : this.loopBusy() - busy0;
    if (signal?.aborted) throw abortError(t.origin);
    const connecting = timer.connect({ addresses, port: t.port, timeoutMs: this.options.timeoutMs ?? 10_000 }, signal);
    // The child sends the SYN: the trust context is built while the handshake's round trip runs.
    this.synSent(https);
    const tcp = await connecting.catch((e: unknown) => {
      throw (e as Error).name === 'AbortError' ? abortError(t.origin) : e;
    });
    const refused = addressCheck?.(tcp.remoteAddress);
    if (refused || signal?.aborted) {
      tcp.socket.destroy();
      throw refused ?? abortError(t.origin);
    }
    let socket = tcp.socket;
    let tlsMs = 0;
    let busyInTls = 0;
    if (https) {
      const secured = await this.startTls(t, tcp.socket, signal, tcp.tcpMs);
      socket = secured.socket;
      tlsMs = secured.ms;
      busyInTls = secured.busy;
    } else {
      // As undici's connector sets up the sockets it opens.
      socket.setNoDelay(true).setKeepAlive(true, 60_000);
    }
    // As in `open`: the connection's users run after this poll phase, so the other sockets whose
    // events arrived in it are timestamped before that work.
    const delay = this.options.handshakeDelayMs?.(t.origin, t.connectionId) ?? 0;
    await new Promise((r) => (delay > 0 ? setTimeout(r, delay) : setImmediate(r)));
    if (signal?.aborted) {
      socket.destroy();
      throw abortError(t.origin);
    }
    const dnsMs = lookupAt - t0;
    const loopDelayMs = Math.max(0, Math.min(dnsMs + tlsMs, busyInDns + busyInTls));
    return { socket, handshake: handshakeRecord(socket, t, { startedAt, dnsMs, tcpMs: tcp.tcpMs, tlsMs, totalMs: this.now() - t0, loopDelayMs }) };
  }

  /** The protocols a ClientHello offers: `h2` first where h2 is allowed (alpn-order.ts). */
  private alpn(): string[] {
    return this.options.allowH2 === true ? [...H2_FIRST_ALPN] : ['http/1.1'];
  }

  /**
   * TLS on a connected socket, set up as undici's connector sets up its own (server name, the shared
   * trust context, session resumption from this connector's kept sessions, no delay, keep-alive), but offering
   * `h2` first where h2 is allowed (alpn-order.ts): undici fixes `http/1.1` first, and on a socket
   * already connected the ClientHello leaves within `tls.connect`, before its list could be changed.
   * Timed from the ClientHello to `secureConnect` (`ms`, and this loop's busy time in it): a trust
   * context still to build is local work before it, in the total and in no phase. `rttMs`, the TCP
   * round trip, goes to `onTlsStart`.
   */
  private startTls(t: Target, tcp: Socket, signal: AbortSignal | undefined, rttMs: number): Promise<{ socket: Socket; at: number; ms: number; busy: number }> {
    const context = this.trust();
    const tlsAt = this.now();
    const busyAtTls = this.loopBusy();
    return new Promise((resolve, reject) => {
      const servername = !isIpLiteral(t.url.hostname) ? t.url.hostname : undefined;
      const session = this.sessions.get(t.url.host);
      const hold = this.options.finishedHold === false ? undefined : new FinishedHold(tcp);
      const secure = tlsConnect({
        socket: hold ?? tcp,
        ...(servername !== undefined ? { servername } : {}),
        ...(session !== undefined ? { session } : {}),
        secureContext: context,
        rejectUnauthorized: this.options.rejectUnauthorized ?? true,
        ALPNProtocols: this.alpn(),
      });
      if (hold) {
        hold.attach(secure);
        tcpAddresses(secure, tcp);
      }
      const onAbort = () => secure.destroy(abortError(t.origin));
      const done = (err?: Error) => {
        signal?.removeEventListener('abort', onAbort);
        secure.off('error', done);
        if (err) reject(err);
        else {
          const at = this.now();
          tcp.setNoDelay(true).setKeepAlive(true, 60_000);
          resolve({ socket: secure, at, ms: at - tlsAt, busy: this.loopBusy() - busyAtTls });
        }
      };
      secure.prependOnceListener('secureConnect', () => done());
      secure.once('error', done);
      secure.on('session', (s: Buffer) => this.sessions.keep(t.url.host, s));
      signal?.addEventListener('abort', onAbort, { once: true });
      // `tls.connect` on a connected socket has written its ClientHello.
      this.options.onTlsStart?.(t.origin, rttMs);
    });
  }
}

/**
 * Where an in-loop connect's TCP phase starts: its first connection attempt (the SYN), as curl's
 * time_connect − time_namelookup counts it; the lookup's end where no attempt was told, and never
 * after the connect.
 */
function attemptStart(lookupAt: number, attemptAt: number | undefined, connectAt: number): number {
  return Math.min(connectAt, Math.max(lookupAt, attemptAt ?? lookupAt));
}

interface Target {
  origin: string;
  url: URL;
  /** Where the SYN goes (after `--resolve` / `--connect-to`). */
  host: string;
  port: number;
  mapped: boolean;
  connectionId: number;
}

type Phases = Pick<HandshakeRecord, 'startedAt' | 'dnsMs' | 'tcpMs' | 'tlsMs' | 'totalMs' | 'loopDelayMs'>;

function handshakeRecord(s: Socket, t: Pick<Target, 'origin' | 'connectionId'>, phases: Phases): HandshakeRecord {
  const tls = t.origin.startsWith('https:') ? (s as TLSSocket) : undefined;
  return {
    connectionId: t.connectionId,
    origin: t.origin,
    ...phases,
    remoteAddress: s.remoteAddress,
    remotePort: s.remotePort,
    localPort: s.localPort,
    protocol: tls?.alpnProtocol === 'h2' ? 'h2' : 'http/1.1',
    tlsVersion: tls ? tls.getProtocol() ?? undefined : undefined,
    resumed: tls ? tls.isSessionReused() : false,
  };
}

/**
 * A TLS socket over a stream (`FinishedHold`) has no addresses of its own: it reads them from the
 * TCP socket underneath, as a TLS socket on that socket would.
 */
function tcpAddresses(secure: TLSSocket, tcp: Socket): void {
  for (const key of ['remoteAddress', 'remotePort', 'remoteFamily', 'localAddress', 'localPort'] as const) {
    Object.defineProperty(secure, key, { get: () => tcp[key], configurable: true });
  }
}

function abortError(origin: string): Error {
  return Object.assign(new Error(`connecting to ${origin} was aborted`), { name: 'AbortError', code: 'ABORT_ERR' });
}

function isIpLiteral(hostname: string): boolean {
  return /^[\d.]+$/.test(hostname) || hostname.includes(':');
}
