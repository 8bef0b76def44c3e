/**
 * What decides an HTTP/1.1 response's framing, read from its head (RFC 9112 §4, §6.3): the
 * status line's version and code, `Content-Length`, `Transfer-Encoding`, whether it has a
 * `Connection` field (RFC 9112 §9.3), and the `Link` values of a `103 Early Hints`. Every other header is only checked to be a `name: value` line.
 *
 * Byte by byte on the head as received, without turning it into a string, splitting it or
 * running a regular expression: this runs once per response on the transport's hot path
 * (response-framing.ts), and the strings it cuts out are only the values it returns.
 */
export interface ResponseHead {
  /** The status line's HTTP minor version. */
  minor: 0 | 1;
  status: number;
  /** Every `Content-Length` value, a list (`3, 3`) as its elements, white space trimmed. */
  lengths: string[] | undefined;
  /** The `Transfer-Encoding` values, joined with `, `. */
  transferEncoding: string | undefined;
  /** The `Link` values of a 103; undefined for any other status. */
  links: string[] | undefined;
  /** The head has a `Connection` field. */
  connection: boolean;
}

export type HeadProblem = { problem: 'status-line' } | { problem: 'malformed-line'; line: string };

const CR = 13;
const LF = 10;
const COLON = 58;
const codes = (name: string): number[] => [...name].map((c) => c.charCodeAt(0));
const CONTENT_LENGTH = codes('content-length');
const TRANSFER_ENCODING = codes('transfer-encoding');
const LINK = codes('link');
const CONNECTION = codes('connection');

/** `head` runs from the status line to the blank line's CRLF CRLF included. */
export function readResponseHead(head: Buffer): ResponseHead | HeadProblem {
  /** Where the final CRLF CRLF starts: every line ends at a CRLF at or before it. */
  const last = head.length - 4;
  const status = statusOf(head);
  if (status < 0) return { problem: 'status-line' };
  const out: ResponseHead = { minor: head[7] === 0x30 ? 0 : 1, status, lengths: undefined, transferEncoding: undefined, links: undefined, connection: false };
  let eol = lineEnd(head, 0, last);
  for (let at = eol + 2; at < last; at = eol + 2) {
    eol = lineEnd(head, at, last);
    let colon = at;
    while (colon < eol && head[colon] !== COLON) colon++;
    if (colon === at || colon === eol) return { problem: 'malformed-line', line: head.toString('latin1', at, eol) };
    let from = at;
    let to = colon;
    while (from < to && isBlank(head[from] as number)) from++;
    while (to > from && isBlank(head[to - 1] as number)) to--;
    const n = to - from;
    if (n === CONTENT_LENGTH.length && nameIs(head, from, CONTENT_LENGTH)) {
      const v = valueOf(head, colon + 1, eol);
      (out.lengths ??= []).push(...(v.includes(',') ? v.split(',').map((x) => x.trim()) : [v]));
    } else if (n === TRANSFER_ENCODING.length && nameIs(head, from, TRANSFER_ENCODING)) {
      const v = valueOf(head, colon + 1, eol);
      out.transferEncoding = out.transferEncoding === undefined ? v : `${out.transferEncoding}, ${v}`;
    } else if (n === CONNECTION.length && nameIs(head, from, CONNECTION)) {
      out.connection = true;
    } else if (status === 103 && n === LINK.length && nameIs(head, from, LINK)) {
      (out.links ??= []).push(valueOf(head, colon + 1, eol));
    }
  }
  return out;
}

/** The status code of a line `HTTP/1.0` or `HTTP/1.1`, a space, three digits, then a space or the line's end; -1 otherwise. */
function statusOf(b: Buffer): number {
  if (b[0] !== 0x48 || b[1] !== 0x54 || b[2] !== 0x54 || b[3] !== 0x50 || b[4] !== 0x2f || b[5] !== 0x31 || b[6] !== 0x2e) return -1;
  if ((b[7] !== 0x30 && b[7] !== 0x31) || b[8] !== 0x20) return -1;
  let status = 0;
  for (let i = 9; i < 12; i++) {
    const d = (b[i] ?? 0) - 0x30;
    if (d < 0 || d > 9) return -1;
    status = status * 10 + d;
  }
  return b[12] === 0x20 || (b[12] === CR && b[13] === LF) ? status : -1;
}

/** The index of the first CRLF at or after `from`; `last` (the blank line's) when none comes before it. */
function lineEnd(b: Buffer, from: number, last: number): number {
  for (let i = from; i < last; i++) if (b[i] === CR && b[i + 1] === LF) return i;
  return last;
}

/** A space or a horizontal tab (RFC 9110 §5.6.3 OWS). */
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** The name at `from` is `lower` (its length already checked), compared without regard to ASCII case. */
function nameIs(b: Buffer, from: number, lower: readonly number[]): boolean {
  for (let i = 0; i < lower.length; i++) {
    let c = b[from + i] as number;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if (c !== lower[i]) return false;
  }
  return true;
}

/** A field value without the white space around it. */
function valueOf(b: Buffer, from: number, to: number): string {
  while (from < to && isBlank(b[from] as number)) from++;
  while (to > from && isBlank(b[to - 1] as number)) to--;
  return b.toString('latin1', from, to);
}
