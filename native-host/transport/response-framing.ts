import { readResponseHead } from './response-head';
import { TransportError } from './transport-errors';

/**
 * Where each HTTP/1.1 response on one connection begins and ends (RFC 9112 §6.3), read from the
 * bytes before undici's parser sees them. undici cannot do three things getlist needs, so the
 * connection's socket is wrapped (guarded-socket.ts) and every chunk passes through `scan` first:
 *
 * 1. **Desync detection.** undici hands whatever parses as a response to the next request in its
 *    queue. A server that writes one response too many (a response-splitting bug, a
 *    `Content-Length` shorter than the body) shifts every later response onto the wrong request,
 *    silently. Here the count of requests written is known, so bytes that arrive when every request
 *    has its response, or bytes that are not a status line where a response must start, are a
 *    framing failure of the connection (`E_DESYNC`), caught before undici reads them.
 * 2. **Interim responses.** undici 7 destroys the socket on an unsolicited `100 Continue` (and
 *    reports it as a lost connection). Interim 1xx responses other than 101 are removed from the
 *    stream here; `103 Early Hints` keep their `Link` headers for the request's result.
 * 3. **Bodiless responses with a length.** A `304`/`204` carrying `Content-Length` has no body (RFC
 *    9110 §15.4.5), but undici compares the declared length with the bytes read and fails it. The
 *    length is dropped from such heads before undici parses them.
 *
 * Responses are "in step" at a chunk boundary where every request written has its complete
 * response and no byte is left over: up to there the count of responses matched the count of
 * requests. Being in step proves little on its own: an extra response counted as the answer to
 * the next request written keeps the count matched, and the real answer shows as a surplus only
 * later. So the guard (guarded-socket.ts) trusts a response only at a quiet point after it — in
 * step, with no byte arriving and no request written for a quiet period — or at a clean close;
 * docs/scheduler.md ("Desync: never a wrong body") says what that costs and what it leaves open.
 */
export interface ResponseFramingOptions {
  /** A response head (status line and headers) longer than this fails with `E_BAD_RESPONSE`. @default 65536 */
  maxHeadBytes?: number;
}

type State =
  | 'idle' // between responses
  | 'head' // reading a status line and headers
  | 'length' // a Content-Length body
  | 'chunk-size' // a chunk-size line (chunked body)
  | 'chunk-data'
  | 'chunk-end' // the CRLF after a chunk's data
  | 'trailers' // trailer lines after the last chunk
  | 'until-close'; // a body delimited by the connection's end

const CRLF2 = Buffer.from('\r\n\r\n', 'latin1');
const MAX_LINE = 1024;
/** `readHead`: the head is passed on as the chunk's own bytes. */
const SAME = Symbol('same');

export class ResponseFraming {
  private readonly maxHeadBytes: number;
  /** Methods of requests written and not yet answered, oldest first. */
  private readonly methods: string[] = [];
  private methodsHead = 0;
  private state: State = 'idle';
  /** Bytes of a head split across chunks. */
  private headParts: Buffer[] = [];
  private headBytes = 0;
  private remaining = 0;
  private line = '';
  private written = 0;
  /** Responses complete so far (the index of the one being read). */
  completed = 0;
  /** `Link` headers of `103 Early Hints`, by response index (rare: a map only when used). */
  private hints: Map<number, string[]> | undefined;
  /**
   * Indexes of final responses whose status line said HTTP/1.0 and were not yet taken (rare: the
   * common 1.1 is recorded by its absence, so this costs nothing per response).
   */
  private http10: Set<number> | undefined;
  /** `readHead`'s second result. */
  private headOut: Buffer | null | typeof SAME = null;

  constructor(options: ResponseFramingOptions = {}) {
    this.maxHeadBytes = options.maxHeadBytes ?? 64 * 1024;
  }

  /** A request is about to be written; returns its response's index on the connection. */
  expect(method: string): number {
    this.methods.push(method);
    return this.written++;
  }

  /** Every request written has its complete response, and nothing is left over. */
  get inStep(): boolean {
    return this.state === 'idle' && this.completed === this.written;
  }

  /** The `Link` values of the 103 responses that came before response `index`; forgets them. */
  takeEarlyHints(index: number): string[] | undefined {
    const h = this.hints?.get(index);
    if (h) this.hints?.delete(index);
    return h;
  }

  /** `1.0` or `1.1`, as response `index`'s status line said (read before undici sees it); forgets it. */
  takeVersion(index: number): string {
    return this.http10?.delete(index) === true ? '1.0' : '1.1';
  }

  /**
   * Reads one chunk. Returns the bytes undici may parse: the chunk itself (the common case, no
   * allocation), or pieces of it when an interim response was removed or a head rewritten — or
   * the framing failure, after which the connection must be discarded and none of this chunk
   * delivered.
   */
  scan(chunk: Buffer): Buffer | Buffer[] | TransportError {
    const out: Buffer[] = [];
    let passFrom = 0;
    let at = 0;
    const n = chunk.length;
    while (at < n) {
      switch (this.state) {
        case 'idle': {
          if (this.completed === this.written) return this.surplus(chunk.subarray(at));
          this.state = 'head';
          break;
        }
        case 'head': {
          const after = this.readHead(chunk, at);
          if (typeof after !== 'number') return after;
          const head = this.headOut;
          if (head === SAME) {
            // The common case: a whole head inside this chunk, passed on as it is (no copy).
            at = after;
            break;
          }
          // Removed, rewritten, or joined across chunks: what came before it goes first.
          this.flush(out, chunk, passFrom, at);
          if (after < 0) return out; // the head continues in the next chunk; nothing after it here
          if (head !== null) out.push(head);
          at = after;
          passFrom = at;
          break;
        }
        case 'length': {
          const take = Math.min(this.remaining, n - at);
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) this.complete();
          break;
        }
        case 'until-close':
          at = n;
          break;
        case 'chunk-size':
        case 'trailers': {
          const nl = chunk.indexOf(10, at);
          const end = nl < 0 ? n : nl + 1;
          this.line += chunk.toString('latin1', at, end);
          at = end;
          if (this.line.length > MAX_LINE) return new TransportError('E_DESYNC', `a chunked body line is longer than ${MAX_LINE} bytes`);
          if (nl < 0) break;
          const line = this.line.replace(/\r?\n$/, '');
          this.line = '';
          const err = this.state === 'chunk-size' ? this.chunkSize(line) : this.trailer(line);
          if (err) return err;
          break;
        }
        case 'chunk-data': {
          const take = Math.min(this.remaining, n - at);
          at += take;
          this.remaining -= take;
          if (this.remaining === 0) {
            this.state = 'chunk-end';
            this.remaining = 2;
          }
          break;
        }
        case 'chunk-end': {
          const expected = this.remaining === 2 ? 13 : 10;
          if (chunk[at] !== expected) return new TransportError('E_DESYNC', 'a chunk of a chunked body is not followed by CRLF');
          at += 1;
          this.remaining -= 1;
          if (this.remaining === 0) this.state = 'chunk-size';
          break;
        }
      }
    }
    if (passFrom === 0 && out.length === 0) return chunk;
    this.flush(out, chunk, passFrom, n);
    return out;
  }

  /** The connection ended. A body delimited by the close is complete; anything else half-read is not. */
  end(): void {
    if (this.state === 'until-close') this.complete();
  }

  private flush(out: Buffer[], chunk: Buffer, from: number, to: number): number {
    if (to > from) out.push(from === 0 && to === chunk.length ? chunk : chunk.subarray(from, to));
    return to;
  }

  private surplus(rest: Buffer): TransportError {
    const head = rest.toString('latin1', 0, Math.min(rest.length, 16));
    // Some servers say `408 Request Timeout` on an idle connection before closing it (RFC 9110
    // §15.5.9): not a desync, nothing was asked. Chromium ignores it the same way.
    if (this.written === this.completed && /^HTTP\/1\.[01] 408/.test(head)) {
      return new TransportError('E_CONNECTION_GONE', 'the server timed the idle connection out (408)');
    }
    return new TransportError('E_DESYNC', `${rest.length} byte(s) arrived after response ${this.completed} with no request outstanding (${JSON.stringify(head)}…): the server sent more than was asked`);
  }

  /**
   * Reads (the rest of) a head starting at `at`. Returns the index after it (-1 when it continues
   * in the next chunk) — or the failure — and leaves in `headOut` the bytes to pass on for it:
   * `SAME` (the chunk's own bytes, unchanged), a replacement, or null (removed). Fields rather
   * than a returned object: this runs once per response.
   */
  private readHead(chunk: Buffer, at: number): number | TransportError {
    let head: Buffer;
    let after: number;
    let joined = false;
    if (this.headParts.length === 0) {
      const end = chunk.indexOf(CRLF2, at);
      if (end < 0) {
        this.headOut = null;
        return this.keepHeadPart(chunk.subarray(at)) ?? -1;
      }
      after = end + 4;
      head = chunk.subarray(at, after);
    } else {
      joined = true;
      // The head started in an earlier chunk. Its end is either across the seam (the last 3
      // bytes before it and the first 3 of this chunk) or inside this chunk; only head bytes are
      // copied, never the body that follows them.
      const prev = this.headParts.length === 1 ? (this.headParts[0] as Buffer) : Buffer.concat(this.headParts, this.headBytes);
      const tail = prev.subarray(Math.max(0, prev.length - 3));
      const across = Buffer.concat([tail, chunk.subarray(at, Math.min(chunk.length, at + 3))]).indexOf(CRLF2);
      const inside = across >= 0 ? -1 : chunk.indexOf(CRLF2, at);
      if (across < 0 && inside < 0) {
        this.headOut = null;
        return this.keepHeadPart(chunk.subarray(at)) ?? -1;
      }
      after = across >= 0 ? at + across + 4 - tail.length : inside + 4;
      head = Buffer.concat([prev, chunk.subarray(at, after)]);
      this.headParts = [];
      this.headBytes = 0;
    }
    if (head.length > this.maxHeadBytes) return this.tooLarge();
    const r = this.onHead(head);
    if (r instanceof TransportError) return r;
    this.headOut = r === head && !joined ? SAME : r;
    return after;
  }

  private keepHeadPart(part: Buffer): undefined | TransportError {
    this.headParts.push(Buffer.from(part));
    this.headBytes += part.length;
    if (this.headBytes > this.maxHeadBytes) return this.tooLarge();
    // Garbage where a status line must start is a desync now, not after 64 KiB of it.
    if (this.headParts.length === 1 && !couldStartStatusLine(part.toString('latin1', 0, 8))) return this.notAStatusLine(part);
    return undefined;
  }

  private tooLarge(): TransportError {
    return new TransportError('E_BAD_RESPONSE', `response headers are larger than ${this.maxHeadBytes} bytes`, this.completed);
  }

  private notAStatusLine(bytes: Buffer): TransportError {
    return new TransportError('E_DESYNC', `expected the status line of response ${this.completed}, got ${JSON.stringify(bytes.toString('latin1', 0, Math.min(bytes.length, 16)))}: the responses no longer match the requests`);
  }

  /** Decides a head's framing. Returns the bytes to pass on (null: removed), or the failure. */
  private onHead(head: Buffer): Buffer | null | TransportError {
    const h = readResponseHead(head);
    if ('problem' in h) return h.problem === 'status-line' ? this.notAStatusLine(head) : this.malformedLine(h.line);
    const { status, lengths, links } = h;
    const te = h.transferEncoding;
    if (status < 200) {
      if (status === 101) return new TransportError('E_BAD_RESPONSE', `unsolicited 101 Switching Protocols for response ${this.completed}: getlist never asks to upgrade`, this.completed);
      if (links) {
        this.hints ??= new Map();
        this.hints.set(this.completed, [...(this.hints.get(this.completed) ?? []), ...links]);
      }
      this.state = 'head';
      return null;
    }
    if (h.minor === 0) (this.http10 ??= new Set()).add(this.completed);
    const method = this.methods[this.methodsHead];
    if (method === 'HEAD' || status === 204 || status === 304) {
      this.complete();
      // No body whatever the head says; undici would hold a declared length against it.
      const bodiless = lengths || te !== undefined ? stripFraming(head) : head;
      // undici closes a connection after a HEAD unless the server says `Connection: keep-alive`,
      // in case a body follows anyway; here a body after a HEAD's answer is a framing failure
      // before undici sees a byte of it. So an HTTP/1.1 answer silent on `Connection` stays as
      // persistent as HTTP/1.1 is by default (RFC 9112 §9.3), as Go's net/http and Caddy mean it.
      return method === 'HEAD' && h.minor === 1 && !h.connection ? withKeepAlive(bodiless) : bodiless;
    }
    if (te !== undefined) {
      if (lengths) return new TransportError('E_BAD_RESPONSE', `response ${this.completed} has both Transfer-Encoding and Content-Length (RFC 9112 §6.3: a smuggling attempt or a broken server)`, this.completed);
      this.state = /(?:^|,)\s*chunked\s*$/i.test(te) ? 'chunk-size' : 'until-close';
      return head;
    }
    if (lengths) {
      const first = lengths[0] as string;
      if (!/^\d{1,15}$/.test(first) || !allSame(lengths)) {
        return new TransportError('E_BAD_RESPONSE', `response ${this.completed} has an invalid Content-Length ${JSON.stringify(lengths.join(', '))}`, this.completed);
      }
      this.remaining = Number(first);
      if (this.remaining === 0) this.complete();
      else this.state = 'length';
      return head;
    }
    this.state = 'until-close';
    return head;
  }

  private malformedLine(line: string): TransportError {
    return new TransportError('E_BAD_RESPONSE', `response ${this.completed} has a malformed header line ${JSON.stringify(line.slice(0, 40))}`, this.completed);
  }

  private chunkSize(line: string): TransportError | undefined {
    const m = /^([0-9a-fA-F]{1,15})[ \t]*(?:;.*)?$/.exec(line);
    if (!m) return new TransportError('E_DESYNC', `expected a chunk size, got ${JSON.stringify(line.slice(0, 20))}`);
    const size = parseInt(m[1] as string, 16);
    if (size === 0) this.state = 'trailers';
    else {
      this.state = 'chunk-data';
      this.remaining = size;
    }
    return undefined;
  }

  private trailer(line: string): TransportError | undefined {
    if (line === '') this.complete();
    return undefined;
  }

  private complete(): void {
    this.completed += 1;
    this.methodsHead += 1;
    if (this.methodsHead > 64) {
      this.methods.splice(0, this.methodsHead);
      this.methodsHead = 0;
    }
    this.state = 'idle';
  }
}

function allSame(values: readonly string[]): boolean {
  for (let i = 1; i < values.length; i++) if (values[i] !== values[0]) return false;
  return true;
}

function couldStartStatusLine(s: string): boolean {
  return s.length >= 8 ? /^HTTP\/1\.[01]$/.test(s) : 'HTTP/1.1'.startsWith(s) || 'HTTP/1.0'.startsWith(s);
}

/** A head with a `Connection: keep-alive` line added. */
function withKeepAlive(head: Buffer): Buffer {
  return Buffer.concat([head.subarray(0, head.length - 2), KEEP_ALIVE]);
}

const KEEP_ALIVE = Buffer.from('Connection: keep-alive\r\n\r\n', 'latin1');

/** A head without its Content-Length and Transfer-Encoding lines. */
function stripFraming(head: Buffer): Buffer {
  const lines = head.toString('latin1', 0, head.length - 4).split('\r\n');
  const kept = lines.filter((l, i) => i === 0 || !/^(content-length|transfer-encoding)\s*:/i.test(l));
  return Buffer.from(`${kept.join('\r\n')}\r\n\r\n`, 'latin1');
}
