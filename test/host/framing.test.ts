import { Writable } from 'node:stream';
import { FrameWriter } from '../../native-host/host/frame-writer';
import { FrameDecoder, MAX_JSON_DEPTH, decodePayload, encodeFrame, maxNesting, type FrameEvent } from '../../native-host/host/framing';
import { ChunkAssembler, type ChunkMessage, type HostMessage } from '../../src/protocol';
import { mulberry32 } from '../../src/core/prng';

/** A frame of arbitrary bytes (not necessarily UTF-8). */
function rawFrame(body: Buffer, endian: 'LE' | 'BE'): Buffer {
  const head = Buffer.alloc(4);
  if (endian === 'LE') head.writeUInt32LE(body.length, 0);
  else head.writeUInt32BE(body.length, 0);
  return Buffer.concat([head, body]);
}

const payloads = (events: FrameEvent[]) => events.map((e) => (e.kind === 'frame' ? e.payload.toString('latin1') : `fatal:${e.code}`));

describe('FrameDecoder', () => {
  test.each(['LE', 'BE'] as const)('property (%s): frames split at random points come out whole and in order', (endian) => {
    for (let seed = 1; seed <= 200; seed++) {
      const rand = mulberry32(seed);
      const bodies = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => Buffer.from(Array.from({ length: Math.floor(rand() * 300) }, () => Math.floor(rand() * 256))));
      const stream = Buffer.concat(bodies.map((b) => rawFrame(b, endian)));
      const decoder = new FrameDecoder(1000, endian);
      const out: FrameEvent[] = [];
      for (let at = 0; at < stream.length; ) {
        const n = 1 + Math.floor(rand() * 40);
        out.push(...decoder.push(stream.subarray(at, at + n)));
        at += n;
      }
      expect({ seed, got: payloads(out) }).toEqual({ seed, got: bodies.map((b) => b.toString('latin1')) });
      expect(decoder.end()).toBeUndefined();
    }
  });

  test('a length over the limit is fatal as soon as the 4 prefix bytes are in, and nothing after it is read', () => {
    const decoder = new FrameDecoder(100, 'LE');
    expect(payloads(decoder.push(encodeFrame('x'.repeat(100), 'LE')))).toEqual(['x'.repeat(100)]);
    const head = Buffer.alloc(4);
    head.writeUInt32LE(101, 0);
    expect(payloads(decoder.push(head.subarray(0, 3)))).toEqual([]);
    const fatal = decoder.push(Buffer.concat([head.subarray(3), encodeFrame('{}', 'LE')]));
    expect(fatal).toEqual([{ kind: 'fatal', code: 'E_FRAME_TOO_LARGE', message: expect.stringContaining('announced 101 bytes') }]);
    expect(decoder.push(encodeFrame('{}', 'LE'))).toEqual([]);
    expect(decoder.end()).toBeUndefined();
  });

  test('a 100 MiB prefix is refused without buffering: memory does not grow by the announced size', () => {
    const decoder = new FrameDecoder(undefined, 'LE');
    const head = Buffer.alloc(4);
    head.writeUInt32LE(100 * 1024 * 1024, 0);
    const before = process.memoryUsage().arrayBuffers;
    const events = decoder.push(Buffer.concat([head, Buffer.alloc(1024)]));
    expect(events).toMatchObject([{ kind: 'fatal', code: 'E_FRAME_TOO_LARGE' }]);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(10 * 1024 * 1024);
  });

  test.each([
    ['inside the prefix', Buffer.from([5, 0])],
    ['inside the body', encodeFrame('hello', 'LE').subarray(0, 6)],
    ['right after the prefix', encodeFrame('hello', 'LE').subarray(0, 4)],
  ])('EOF %s is E_FRAME_TRUNCATED', (_where, bytes) => {
    const decoder = new FrameDecoder(100, 'LE');
    expect(decoder.push(bytes)).toEqual([]);
    expect(decoder.end()).toMatchObject({ kind: 'fatal', code: 'E_FRAME_TRUNCATED' });
  });

  test('a zero-length frame is a frame (whose empty payload is then not JSON)', () => {
    const decoder = new FrameDecoder(100, 'LE');
    expect(payloads(decoder.push(Buffer.from([0, 0, 0, 0])))).toEqual(['']);
    expect(() => decodePayload(Buffer.alloc(0))).toThrow(expect.objectContaining({ code: 'E_INVALID_JSON' }));
  });
});

describe('decodePayload', () => {
  test('UTF-8 JSON of any shape; invalid UTF-8 and invalid JSON are told apart', () => {
    expect(decodePayload(Buffer.from('{"a":"é🖼"}'))).toEqual({ a: 'é🖼' });
    expect(decodePayload(Buffer.from('[1]'))).toEqual([1]);
    expect(() => decodePayload(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toThrow(expect.objectContaining({ code: 'E_INVALID_UTF8' })); // an encoded surrogate
    expect(() => decodePayload(Buffer.from('{"a":"é'))).toThrow(expect.objectContaining({ code: 'E_INVALID_JSON' }));
    expect(() => decodePayload(Buffer.from('{"a":"é"').subarray(0, 7))).toThrow(expect.objectContaining({ code: 'E_INVALID_UTF8' })); // cut inside é
  });
});

/** A slow stream: each write completes a tick later; records whether a write ignored backpressure. */
function slowStream(highWaterMark: number) {
  const written: Buffer[] = [];
  let ignoredBackpressure = 0;
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _enc, cb) {
      written.push(chunk);
      setImmediate(cb);
    },
  });
  const write = stream.write.bind(stream);
  stream.write = ((chunk: Buffer, cb?: (err?: Error | null) => void) => {
    if (stream.writableNeedDrain) ignoredBackpressure += 1;
    return write(chunk, cb);
  }) as typeof stream.write;
  return { stream, written, ignoredBackpressure: () => ignoredBackpressure };
}

function readFrames(buf: Buffer): HostMessage[] {
  return new FrameDecoder().push(buf).map((e) => {
    if (e.kind !== 'frame') throw new Error(e.message);
    return decodePayload(e.payload) as HostMessage;
  });
}

describe('FrameWriter', () => {
  test('waits for drain when the stream is full, keeps order, and flush resolves once all is written', async () => {
    const s = slowStream(64);
    const writer = new FrameWriter(s.stream);
    for (let i = 0; i < 50; i++) writer.send({ type: 'pong', id: i });
    await writer.flush();
    expect(s.ignoredBackpressure()).toBe(0);
    expect(readFrames(Buffer.concat(s.written)).map((m) => m.id)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  test('a message at or over the limit goes out as chunks under it that reassemble to its JSON', async () => {
    const s = slowStream(1024);
    const writer = new FrameWriter(s.stream, { maxMessageBytes: 300 });
    const big: HostMessage = { type: 'export', id: 'e', format: 'csv', mimeType: 'text/csv', data: 'a,"b"\r\n€🖼\\'.repeat(100) };
    writer.send({ type: 'pong', id: 'before' });
    writer.send(big);
    writer.send({ type: 'pong', id: 'after' });
    await writer.flush();
    const frames = readFrames(Buffer.concat(s.written));
    const sizes = s.written.map((b) => b.length - 4);
    expect(Math.max(...sizes)).toBeLessThan(300);
    expect(frames[0]).toEqual({ type: 'pong', id: 'before' });
    expect(frames.at(-1)).toEqual({ type: 'pong', id: 'after' });
    const chunks = frames.slice(1, -1) as ChunkMessage[];
    expect(chunks.length).toBeGreaterThan(5);
    const asm = new ChunkAssembler();
    const texts = chunks.map((c) => asm.accept(c)).filter((t) => t !== undefined);
    expect(texts).toEqual([JSON.stringify(big)]);
  });

  test('a failed stream (EPIPE: the browser has gone) is reported once; later sends are dropped and flush resolves', async () => {
    const errors: Error[] = [];
    const stream = new Writable({ write: (_c, _e, cb) => cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })) });
    const writer = new FrameWriter(stream, { onError: (e) => errors.push(e) });
    writer.send({ type: 'pong', id: 1 });
    await writer.flush();
    writer.send({ type: 'pong', id: 2 });
    await writer.flush();
    expect(writer.broken).toBe(true);
    expect(errors.map((e) => (e as NodeJS.ErrnoException).code)).toEqual(['EPIPE']);
  });
});

describe('nesting bound before JSON.parse', () => {
  test('64 MiB of nested brackets is refused with E_TOO_DEEP in well under a second, before parsing', () => {
    const deep = Buffer.alloc(64 * 1024 * 1024, 0x5b);
    const t0 = performance.now();
    expect(() => decodePayload(deep)).toThrow(expect.objectContaining({ code: 'E_TOO_DEEP' }));
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  test('depth is counted outside strings only; real messages pass', () => {
    expect(maxNesting(Buffer.from('{"a":"[[[[{{{{\\"[[[","b":[{"c":[1]}]}'), 32)).toBe(4);
    const nested = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);
    expect(decodePayload(nested(MAX_JSON_DEPTH))).toBeDefined();
    expect(() => decodePayload(nested(MAX_JSON_DEPTH + 1))).toThrow(expect.objectContaining({ code: 'E_TOO_DEEP' }));
    const schedule = { type: 'schedule', id: 1, pageId: 'p', documentUrl: 'http://a.test/', requests: Array.from({ length: 2000 }, (_, i) => ({ url: `http://a.test/${i}`, priority: 'image' })) };
    expect(decodePayload(Buffer.from(JSON.stringify(schedule)))).toEqual(schedule);
  });
});
