import type { Socket } from 'node:net';
import type { ResponseFraming } from './response-framing';
import { TransportError } from './transport-errors';

export interface GuardEvents {
  /**
   * Responses `[0, completed)` are trusted: the connection was in step after them, or it ended
   * (cleanly or not) without a framing failure. Called with increasing counts.
   */
  onTrusted(completed: number): void;
  /** A framing failure. Called once, before the socket is destroyed with `err`. */
  onFailure(err: TransportError): void;
  /**
   * The connection looks in step, but only through a response glued to its predecessor
   * (`ResponseFraming.lastResponseGlued`): nothing more may be written on it until `onTrusted`
   * (after `quietMs` with no byte, or a clean close) or `onFailure` (the surplus arrived).
   */
  onSuspect(): void;
  /** How long a suspect connection must stay silent before its responses are trusted, ms. */
  quietMs(): number;
}

/**
 * Glued in-step points a connection must come through clean (a quiet period with no surplus)
 * before its glued responses are trusted at once: checked hard until proven, then trusted
 * (Firefox's yellow and green pipeline states; response-framing.ts says what this leaves open).
 * One: each quiet period costs its connection at least 50 ms (writes wait), two cost the loopback
 * benchmark half its throughput, and one catches every smuggling case of the faulty-origin suite.
 */
export const GLUED_PROOFS = 1;

/**
 * Puts `framing` (response-framing.ts) between an HTTP/1.1 socket and undici's parser, so a
 * surplus response is caught before undici can hand it to the wrong request, and interim
 * responses never reach undici. Must be called before the socket is handed to undici, and nothing
 * else may read the socket in flowing mode (`data` listeners).
 *
 * How: undici's HTTP/1.1 client pulls every byte with `socket.read()` (on `readable`, and when a
 * paused body resumes); this replaces `read` on this one socket with a version that frames what
 * the real `read` returns and returns what undici may parse. undici gives back the unparsed rest
 * of a chunk when its parser pauses (`unshift`); those bytes were framed already and pass as they are. The connector owns the socket, so
 * this is the one place every byte passes.
 *
 * Why not a `data` listener beside undici: it sees the bytes but cannot stop undici parsing them.
 * Why not a `Duplex` in front of the socket: it worked, but its second buffer cost a third of the
 * loopback throughput with 64 KiB bodies; intercepting `read` adds no buffer, and backpressure
 * stays the socket's own (a paused body stops `read` calls, the receive window closes).
 * Trust: responses are trusted at in-step points (response-framing.ts), except one reached only
 * through a glued response, which waits for `quietMs` of silence (`onSuspect` first: the
 * transport writes nothing on the connection meanwhile) — until the connection has come through
 * `gluedProofs` such waits clean; from then on glued in-step points are trusted at once (on
 * loopback nearly every burst ends glued, and a wait after each one cost 97% of the throughput).
 *
 * Why not a parser of our own: undici's stays in charge of everything but framing (bodies,
 * pausing, timeouts, keep-alive) and stays the one the loopback benchmark compares against.
 */
export function guardSocket(socket: Socket, framing: ResponseFraming, events: GuardEvents, gluedProofs = GLUED_PROOFS): void {
  let failed = false;
  let trusted = 0;
  /** Glued in-step points this connection came through clean; at `gluedProofs`, it is proven. */
  let proofs = 0;
  /** Set while the connection is suspect: fires `quietMs` after the last byte. */
  let quiet: NodeJS.Timeout | undefined;
  const trust = (completed: number) => {
    if (quiet) clearTimeout(quiet);
    quiet = undefined;
    if (completed <= trusted) return;
    trusted = completed;
    events.onTrusted(completed);
  };
  const inStep = () => {
    if (!framing.lastResponseGlued || framing.completed <= trusted || proofs >= gluedProofs) {
      trust(framing.completed);
      return;
    }
    // Reached only through a response glued to its predecessor: wait for silence. Nothing is
    // written meanwhile, so any byte that arrives now is a surplus (`scan` fails it).
    if (!quiet) events.onSuspect();
    else clearTimeout(quiet);
    quiet = setTimeout(() => {
      quiet = undefined;
      if (failed || socket.destroyed) return;
      proofs += 1;
      trust(framing.completed);
    }, events.quietMs());
  };
  const read = socket.read;
  const unshift = socket.unshift;
  /** Bytes at the front of the socket's buffer that undici gave back (`unshift`): framed already. */
  let framedAhead = 0;
  socket.unshift = function guardedUnshift(this: Socket, chunk: Buffer, encoding?: BufferEncoding): void {
    // undici's parser, paused mid-chunk, returns the unparsed rest to the socket.
    framedAhead += chunk.length;
    unshift.call(this, chunk, encoding);
  };
  socket.read = function guardedRead(this: Socket, size?: number): Buffer | null {
    if (failed) return null;
    const got = read.call(this, size) as Buffer | string | null;
    if (got === null || typeof got === 'string' || got.length === 0) return got as Buffer | null;
    let chunk = got;
    let again: Buffer | undefined;
    if (framedAhead > 0) {
      const k = Math.min(framedAhead, got.length);
      framedAhead -= k;
      if (k === got.length) return got;
      again = got.subarray(0, k);
      chunk = got.subarray(k);
    }
    const scanned = framing.scan(chunk);
    if (scanned instanceof TransportError) {
      failed = true;
      if (quiet) clearTimeout(quiet);
      events.onFailure(scanned);
      this.destroy(scanned);
      return null;
    }
    if (framing.inStep) inStep();
    if (!again && !Array.isArray(scanned)) return scanned;
    const pieces = Array.isArray(scanned) ? scanned : [scanned];
    if (again) pieces.unshift(again);
    if (pieces.length === 1) return pieces[0] as Buffer;
    // An interim response was removed, a head rewritten, or given-back bytes joined: rare.
    return pieces.length === 0 ? Buffer.alloc(0) : Buffer.concat(pieces);
  };
  socket.on('end', () => {
    // undici has read everything before `end`: a close-delimited body is complete now.
    framing.end();
    if (!failed) trust(framing.completed);
  });
  socket.on('close', () => {
    // A reset or a close mid-response is not a desync: what was complete stays trusted.
    if (quiet) clearTimeout(quiet);
    if (!failed) trust(framing.completed);
  });
}
