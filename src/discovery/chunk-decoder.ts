/**
 * Turns a mix of UTF-8 byte chunks and string chunks into one stream of text.
 *
 * Bytes go through one streaming `TextDecoder`, so a character split across chunks comes out
 * whole, in the later chunk. `ignoreBOM` keeps a leading BOM in the text (as U+FEFF) so that byte
 * offsets computed from the text still count its 3 bytes.
 */
export class ChunkDecoder {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });

  decode(chunk: Uint8Array | string): string {
    if (typeof chunk !== 'string') return this.decoder.decode(chunk, { stream: true });
    // A string after bytes: bytes of an unfinished character can never be completed now.
    return this.flush() + chunk;
  }

  /** Text still held back (an incomplete trailing character becomes U+FFFD). */
  flush(): string {
    return this.decoder.decode();
  }
}
