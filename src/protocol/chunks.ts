import { ProtocolError, type RequestId } from './errors';
import type { ChunkMessage } from './replies';
import { MAX_CHUNKS, MAX_MESSAGE_BYTES } from './version';

/**
 * Chunking of host → browser messages whose JSON reaches `MAX_MESSAGE_BYTES`.
 *
 * The sender cuts the message's JSON text into slices and sends each as
 * `{type: "chunk", id, seq, total, data}`, every frame strictly under the limit. Slices are cut
 * between UTF-16 code units, never inside a surrogate pair, so `data` is always well-formed; the
 * receiver joins the slices in `seq` order and gets the original text exactly.
 */

/**
 * Bytes of the code unit at `i` inside a JSON string, or 0 for a valid surrogate pair starting
 * at `i` (4 bytes for both units; the caller skips the second).
 */
function unitBytes(s: string, i: number, end: number): number {
  const c = s.charCodeAt(i);
  if (c === 0x22 || c === 0x5c) return 2; // \" and \\
  if (c < 0x20) return c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
  if (c < 0x80) return 1;
  if (c < 0x800) return 2;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 0;
  }
  if (c >= 0xd800 && c <= 0xdfff) return 6; // a lone surrogate is escaped as \uXXXX
  return 3;
}

/** Largest `seq`/`total` digits an envelope is budgeted for (MAX_CHUNKS has fewer). */
const COUNTER_DIGITS = 10;

/**
 * Splits a message's JSON text into chunk messages whose JSON each take fewer than `maxBytes`
 * bytes of UTF-8 (at least one chunk; the sender only chunks messages that do not fit whole).
 * @param maxBytes exclusive limit per frame. @default MAX_MESSAGE_BYTES
 * @throws ProtocolError `E_INTERNAL` when the text needs more than `MAX_CHUNKS` chunks.
 */
export function splitIntoChunks(id: RequestId, json: string, maxBytes = MAX_MESSAGE_BYTES): ChunkMessage[] {
  const envelope = JSON.stringify({ type: 'chunk', id, seq: 0, total: 0, data: '' });
  const budget = maxBytes - 1 - (utf8Length(envelope) + 2 * (COUNTER_DIGITS - 1));
  if (budget < 16) throw new RangeError(`maxBytes ${maxBytes} leaves no room for chunk data`);
  const slices: string[] = [];
  let start = 0;
  while (start < json.length) {
    let used = 0;
    let i = start;
    while (i < json.length) {
      const b = unitBytes(json, i, json.length);
      const width = b === 0 ? 2 : 1;
      const bytes = b === 0 ? 4 : b;
      if (used + bytes > budget) break;
      used += bytes;
      i += width;
    }
    slices.push(json.slice(start, i));
    start = i;
  }
  if (slices.length > MAX_CHUNKS) {
    throw new ProtocolError('E_INTERNAL', `a reply of ${utf8Length(json)} bytes needs ${slices.length} chunks, more than the ${MAX_CHUNKS} a receiver accepts`, id);
  }
  return slices.map((data, seq) => ({ type: 'chunk', id, seq, total: slices.length, data }));
}

/** UTF-8 length of a string that is already JSON (so holds no lone surrogates). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

interface Pending {
  total: number;
  parts: Array<string | undefined>;
  received: number;
}

/**
 * Reassembles chunked messages (the extension's side). Chunks of different ids may interleave;
 * within one id a complete message must arrive before that id's next chunked message starts.
 * Inconsistent chunks (a `seq` out of range, a changed `total`, a repeated `seq`) throw
 * `ProtocolError('E_INVALID_FIELD')` and drop that id's partial message.
 */
export class ChunkAssembler {
  private readonly pending = new Map<string, Pending>();

  /** Feeds one chunk; returns the complete JSON text once every part of its message is in. */
  accept(chunk: ChunkMessage): string | undefined {
    const key = `${typeof chunk.id}:${String(chunk.id)}`;
    const { seq, total } = chunk;
    if (!Number.isSafeInteger(total) || total < 1 || total > MAX_CHUNKS) return this.reject(key, chunk, `total: expected an integer from 1 to ${MAX_CHUNKS}, got ${total}`);
    if (!Number.isSafeInteger(seq) || seq < 0 || seq >= total) return this.reject(key, chunk, `seq: expected an integer from 0 to ${total - 1}, got ${seq}`);
    let p = this.pending.get(key);
    if (!p) {
      p = { total, parts: new Array<string | undefined>(total), received: 0 };
      this.pending.set(key, p);
    }
    if (p.total !== total) return this.reject(key, chunk, `total: this message was announced with ${p.total} chunks, now ${total}`);
    if (p.parts[seq] !== undefined) return this.reject(key, chunk, `seq: chunk ${seq} arrived twice`);
    p.parts[seq] = chunk.data;
    p.received += 1;
    if (p.received < p.total) return undefined;
    this.pending.delete(key);
    return p.parts.join('');
  }

  /** Ids with a message partly received. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Drops every partial message (e.g. when the port disconnects). */
  clear(): void {
    this.pending.clear();
  }

  private reject(key: string, chunk: ChunkMessage, why: string): never {
    this.pending.delete(key);
    throw new ProtocolError('E_INVALID_FIELD', `chunk of message ${JSON.stringify(chunk.id)}: ${why}`, chunk.id);
  }
}
