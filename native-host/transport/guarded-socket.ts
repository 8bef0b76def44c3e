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
   * The connection came in step with responses not yet trusted: nothing from here on is trusted
   * until a quiet point (`quietMs` in step with no byte and no request written), a clean close,
   * or `onFailure` (a surplus arrived). Requests may still be written on it. Called once per wait.
   */
  onSuspect?(): void;
  /** How long a suspect connection must stay in step and silent before its responses are trusted, ms. */
  quietMs(): number;
}

/**
 * How long a suspect connection must stay in step and silent before its responses are trusted
 * (`GuardEvents.quietMs`). Nothing waits for it on the wire — requests are written meanwhile — but
 * the results of a suspect connection's responses wait for it, so it is kept short. What delays a
 * surplus the server wrote behind the last response is mostly TCP, not the server: with Nagle's
 * algorithm on (the default for a plain socket), the server holds its next small segment until
 * our ACK of the previous one, and Linux delays an ACK by up to 40 ms — so at least 50 ms. On
 * long paths, 3 RTTs (the ACK and the held segment each cross the path). At most 250 ms: it
 * delays the results held on the connection. A server that takes longer than that to send its
 * surplus is beyond what any timing can catch (response-framing.ts).
 */
export function suspectQuietMs(rttMs: number): number {
  return Math.min(250, Math.max(50, 3 * rttMs));
}

/**
 * Puts `framing` (response-framing.ts) between an HTTP/1.1 socket and undici's parser, so a
 * surplus response is caught before undici can hand it to the wrong request, and interim
 * responses never reach undici. Must be called before the socket is handed to undici, and nothing
 * else may read the socket in flowing mode (`data` listeners).
 *
 * How: undici's HTTP/1.1 client pulls every byte with `socket.read()` (on `readable`, and when a
 * paused body resumes); this replaces `read` on this one socket with a version that frames what
 * the real `read` returns and returns what undici may parse. undici gives back the unparsed rest
 * of a chunk when its parser pauses (`unshift`); those bytes were framed already and pass as they
 * are. The connector owns the socket, so this is the one place every byte passes.
 *
 * Why not a `data` listener beside undici: it sees the bytes but cannot stop undici parsing them.
 * Why not a `Duplex` in front of the socket: it worked, but every body byte then crossed a second
 * stream buffer (one more copy and stream hop per chunk, on the path of every response);
 * intercepting `read` adds no buffer, and backpressure stays the socket's own (a paused body
 * stops `read` calls, the receive window closes).
 *
 * Trust (revocable confirmation): a response is trusted only at a quiet point after it — in step,
 * with no byte arriving and no request written for `quietMs` — or when the connection closes
 * without a framing failure. An in-step point alone proves nothing: an extra response the server
 * sent behind a correct one (in the same read or a later one) is counted as the answer to the next
 * request written, keeps the count matched, and shifts every later answer by one for as long as
 * the pipeline is kept full; the surplus shows only once it drains. So everything received since
 * the last trusted point stays held (not delivered), and the quiet point after the drain either
 * sees the surplus (`onFailure`: everything held is fetched again) or trusts everything held.
 * Writing goes on meanwhile. No connection is ever trusted at once for having come through quiet
 * points before: a server that smuggles once can do it on any response.
 *
 * Why not hold writes until the quiet point: the connection would idle for `quietMs` (at least
 * 50 ms, up to 250 ms on a long path) after every response, so the wire would idle far more than
 * it works. Results held instead of writes cost nothing on the wire (a response's arrival time is
 * still when its last byte came, and page discovery reads bodies as they arrive); what it costs
 * is that a connection's results settle one quiet period after its last byte.
 *
 * Why not a parser of our own: undici's stays in charge of everything but framing (bodies,
 * pausing, timeouts, keep-alive) and stays the one the loopback benchmark compares against.
 */
export function guardSocket(socket: Socket, framing: ResponseFraming, events: GuardEvents): void {
  let failed = false;
  let trusted = 0;
  /** In step with responses not trusted yet, waiting for a quiet point. */
  let waiting = false;
  /** Set while waiting and in step: fires `quietMs` after the last in-step point. */
  let quiet: NodeJS.Timeout | undefined;
  const trust = (completed: number) => {
    if (quiet) clearTimeout(quiet);
    quiet = undefined;
    if (completed <= trusted) return;
    trusted = completed;
    events.onTrusted(completed);
  };
  const quietPoint = () => {
    quiet = undefined;
    // A request written since the in-step point: its answer (or a surplus) is still to come, and
    // the next in-step point starts the wait again.
    if (failed || socket.destroyed || !framing.inStep) return;
    waiting = false;
    trust(framing.completed);
  };
  const inStep = () => {
    if (framing.completed <= trusted) return;
    if (!waiting) {
      waiting = true;
      events.onSuspect?.();
    }
    // Any byte that arrives now, with nothing written, is a surplus (`scan` fails it).
    if (quiet) quiet.refresh();
    else quiet = setTimeout(quietPoint, events.quietMs());
  };
  const read = socket.read;
  const unshift = socket.unshift;
  /**
   * Bytes at the front of the socket's buffer that were framed already: given back by undici
   * (`unshift`, its parser paused mid-chunk) or by `guardedRead` below.
   */
  let framedAhead = 0;
  socket.unshift = function guardedUnshift(this: Socket, chunk: Buffer, encoding?: BufferEncoding): void {
    framedAhead += chunk.length;
    unshift.call(this, chunk, encoding);
  };
  socket.read = function guardedRead(this: Socket, size?: number): Buffer | null {
    if (failed) return null;
    const got = read.call(this, size) as Buffer | string | null;
    if (got === null || typeof got === 'string' || got.length === 0) return got as Buffer | null;
    let chunk = got;
    let framed: Buffer | undefined;
    if (framedAhead > 0) {
      const k = Math.min(framedAhead, got.length);
      framedAhead -= k;
      if (k === got.length) return got;
      framed = got.subarray(0, k);
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
    if (!framed && !Array.isArray(scanned)) return scanned;
    // Several pieces (given-back bytes before new ones, an interim response removed, a head joined
    // across reads or rewritten): the first is returned, the others go back to the front of the
    // socket's buffer, framed, for undici's next `read` — it reads until `read` returns null.
    // Joining them instead copied whole 64 KiB reads whenever a head straddled two of them.
    const pieces = Array.isArray(scanned) ? scanned : [scanned];
    if (framed) pieces.unshift(framed);
    for (let i = pieces.length - 1; i >= 1; i--) {
      const piece = pieces[i] as Buffer;
      if (piece.length === 0) continue;
      framedAhead += piece.length;
      unshift.call(this, piece);
    }
    return pieces[0] ?? Buffer.alloc(0);
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
