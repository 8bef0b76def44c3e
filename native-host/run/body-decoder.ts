import zlib from 'node:zlib';
import type { Transform } from 'node:stream';
import { createZstdDecompress, hasZstd } from '../transport/zstd';

/** `Content-Encoding` values undone here (`zstd` only where this Node has it). */
const DECODABLE = new Set(['gzip', 'x-gzip', 'deflate', 'br', ...(hasZstd ? ['zstd'] : [])]);

/**
 * Undoes a response's `Content-Encoding` as the body streams in, so the scanner reads text and
 * the run can report decoded bytes beside wire bytes. Unknown encodings (and `identity`) pass
 * through unchanged. A body that fails to decode stops being decoded (`failed`); the request is
 * not failed for it — its bytes did arrive.
 */
export class BodyDecoder {
  decodedBytes = 0;
  failed = false;
  private stream: Transform | undefined;
  private ended: Promise<void> | undefined;

  constructor(
    private readonly encoding: string,
    private readonly onData: (chunk: Buffer) => void,
  ) {}

  static decodes(encoding: string): boolean {
    return DECODABLE.has(encoding);
  }

  write(chunk: Buffer): void {
    if (!DECODABLE.has(this.encoding)) {
      this.emit(chunk);
      return;
    }
    if (this.failed || chunk.length === 0) return;
    (this.stream ??= this.open(chunk)).write(chunk);
  }

  /** Resolves once every decoded byte has been handed to `onData`. */
  end(): Promise<void> {
    const stream = this.stream;
    if (!stream || this.failed) return Promise.resolve();
    this.ended ??= new Promise<void>((resolve) => {
      stream.once('end', resolve);
      stream.once('error', resolve);
      stream.end();
    });
    return this.ended;
  }

  private open(first: Buffer): Transform {
    const stream = create(this.encoding, first);
    stream.on('data', (chunk: Buffer) => this.emit(chunk));
    stream.on('error', () => {
      this.failed = true;
    });
    return stream;
  }

  private emit(chunk: Buffer): void {
    this.decodedBytes += chunk.length;
    this.onData(chunk);
  }
}

function create(encoding: string, first: Buffer): Transform {
  switch (encoding) {
    case 'deflate': {
      // "deflate" is meant to be zlib-wrapped, but some servers send raw DEFLATE; browsers take both.
      const b0 = first[0] ?? 0;
      const b1 = first[1] ?? 0;
      const zlibWrapped = (b0 & 0x0f) === 8 && ((b0 << 8) | b1) % 31 === 0;
      return zlibWrapped ? zlib.createInflate() : zlib.createInflateRaw();
    }
    case 'br':
      return zlib.createBrotliDecompress();
    case 'zstd':
      return createZstdDecompress();
    default:
      return zlib.createGunzip();
  }
}
