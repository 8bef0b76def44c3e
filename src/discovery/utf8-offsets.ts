import { DiscoveryError } from './errors';

/**
 * UTF-8 byte length of `text.slice(start, end)`, counted the way `TextEncoder` encodes: a
 * surrogate pair is 4 bytes, a lone surrogate becomes U+FFFD (3 bytes).
 */
export function utf8Length(text: string, start = 0, end = text.length): number {
  let bytes = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end && isLowSurrogate(text.charCodeAt(i + 1))) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * Maps UTF-16 indexes in the decoded document (what htmlparser2 reports) back to byte offsets in
 * the UTF-8 input.
 *
 * Invariant: lookups come in non-decreasing index order (the scanner asks in document order), so
 * only the text from the last looked-up index onward is kept (memory: the text since the last
 * reported tag) and total work is linear in the document. Exact for well-formed UTF-8; after malformed bytes (each decoded as one U+FFFD, counted
 * as 3 bytes) offsets may drift by the difference.
 */
export class Utf8OffsetMap {
  /** Decoded text from `cursorIndex` to the end of what has been appended. */
  private pending = '';
  private cursorIndex = 0;
  private cursorBytes = 0;

  append(text: string): void {
    this.pending += text;
  }

  /** Byte offset of the UTF-16 `index`. `index` must not precede an earlier lookup. */
  byteOffsetOf(index: number): number {
    const advance = index - this.cursorIndex;
    if (advance < 0 || advance > this.pending.length) {
      throw new DiscoveryError(
        'E_OFFSET_ORDER',
        `byte offset of index ${index} asked for out of order (cursor ${this.cursorIndex}, ${this.pending.length} chars buffered)`,
      );
    }
    if (advance > 0) {
      this.cursorBytes += utf8Length(this.pending, 0, advance);
      this.pending = this.pending.slice(advance);
      this.cursorIndex = index;
    }
    return this.cursorBytes;
  }
}
