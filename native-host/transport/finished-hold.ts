/**
 * Sends a TLS 1.3 client's Finished together with the connection's first application bytes.
 *
 * A server that reads the client's Finished alone answers it before the request is there: nginx
 * sends its HTTP/2 SETTINGS in a segment of their own, after the two session tickets OpenSSL sends
 * at the handshake's end, and a first response that would just fit the first flight of a fresh
 * window then needs a second round trip (bench/README.md, "Real-shaped pages"; bench/model/MODEL.md,
 * "A TLS connection's first flight"). When the Finished, the h2 preface and the request arrive in
 * one segment, the SETTINGS share the response's first packet. Node writes a TLS socket's
 * handshake records the moment OpenSSL makes them, and its HTTP/2 frames a turn of the event loop
 * later, so the TLS runs over this stream instead of over the TCP socket. It passes every byte
 * through, except that once TLS 1.3 was negotiated the client's first write with an
 * application_data record (TLS 1.3 encrypts the Finished as one) is held, with whatever the
 * application writes next in the same turn of the event loop, and they leave in one `write`.
 *
 * A hold never outlasts `maxHoldMs` (a connection opened ahead of its request): then the Finished
 * goes alone, as without this stream. TLS 1.2 is passed through (its client waits for the server's
 * Finished before any application data), as is a HelloRetryRequest's second ClientHello.
 */
import { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** How long held handshake bytes may wait for the application's first write. */
export const FINISHED_MAX_HOLD_MS = 200;

export class FinishedHold extends Duplex {
  private tls: TLSSocket | undefined;
  /** `idle` until the Finished; `holding` it and what follows; `passing` once sent. */
  private state: 'idle' | 'holding' | 'passing' = 'idle';
  private held: Buffer[] = [];
  private flushDue = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly tcp: Socket,
    private readonly maxHoldMs = FINISHED_MAX_HOLD_MS,
  ) {
    super({ allowHalfOpen: false });
    tcp.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) tcp.pause();
    });
    tcp.once('end', () => this.push(null));
    // Every error of the socket is this stream's: a later one must not go unhandled.
    tcp.on('error', (err) => this.destroy(err));
    tcp.once('close', () => this.destroy());
  }

  /** The TLS socket running over this stream: only a TLS 1.3 handshake's Finished is held. */
  attach(tls: TLSSocket): void {
    this.tls = tls;
  }

  override _read(): void {
    this.tcp.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    if (this.state === 'idle' && carriesApplicationData(chunk) && this.tls?.getProtocol() === 'TLSv1.3') {
      // TLS 1.3 encrypts the client's Finished as application data: the first such write is it.
      this.state = 'holding';
      this.held.push(chunk);
      this.timer = setTimeout(() => this.flush(), this.maxHoldMs);
      this.timer.unref();
      done();
      return;
    }
    if (this.state === 'holding') {
      // The application's first bytes: what it writes in this turn of the event loop (an h2
      // preface, SETTINGS and the first requests' frames) goes with the Finished.
      this.held.push(chunk);
      if (!this.flushDue) {
        this.flushDue = true;
        setImmediate(() => this.flush());
      }
      done();
      return;
    }
    this.tcp.write(chunk, (err) => done(err));
  }

  override _final(done: (err?: Error | null) => void): void {
    this.flush();
    this.tcp.end(() => done());
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    // A connection closed unused still completes its handshake, as without the hold: the server
    // sees a client that finished and left, not one that stopped halfway.
    if (err === null) this.flush();
    else this.stop();
    this.tcp.destroy();
    done(err);
  }

  /** Sends what is held in one write, and passes everything through from then on. */
  private flush(): void {
    const out = this.held.length > 0 ? Buffer.concat(this.held) : undefined;
    this.stop();
    if (out !== undefined && !this.tcp.destroyed) this.tcp.write(out);
  }

  private stop(): void {
    this.state = 'passing';
    this.held = [];
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** TLS record content type application_data (RFC 8446 §5.1). */
const APPLICATION_DATA = 23;

/** Whether any TLS record that starts in `chunk` is application data. */
function carriesApplicationData(chunk: Buffer): boolean {
  for (let i = 0; i + 5 <= chunk.length; i += 5 + chunk.readUInt16BE(i + 3)) {
    if (chunk[i] === APPLICATION_DATA) return true;
  }
  return false;
}
