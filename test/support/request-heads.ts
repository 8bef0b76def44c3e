/** One HTTP/1.1 request head as a test server read it off the wire (no bodies: GET and HEAD only). */
export interface RequestHead {
  method: string;
  path: string;
  /** Field names lower-cased; the last of a repeated field wins. */
  headers: Record<string, string>;
}

/**
 * Splits a connection's bytes into request heads as they arrive, pipelined or split across reads:
 * `push` each chunk, get back the heads it completed, in order.
 */
export class RequestHeads {
  private buf = Buffer.alloc(0);

  push(chunk: Buffer): RequestHead[] {
    this.buf = Buffer.concat([this.buf, chunk]);
    const heads: RequestHead[] = [];
    for (;;) {
      const end = this.buf.indexOf('\r\n\r\n');
      if (end < 0) return heads;
      const [line = '', ...rest] = this.buf.subarray(0, end).toString('latin1').split('\r\n');
      this.buf = this.buf.subarray(end + 4);
      const [method = '', path = ''] = line.split(' ');
      const headers: Record<string, string> = {};
      for (const h of rest) {
        const i = h.indexOf(':');
        if (i > 0) headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim();
      }
      heads.push({ method, path, headers });
    }
  }
}
