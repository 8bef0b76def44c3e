import { ResponseFraming } from './response-framing';
import { TransportError } from './transport-errors';

const res = (head: string, body = '') => Buffer.from(`${head}\r\n\r\n${body}`, 'latin1');
const ok = (body: string, extra = '') => res(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}${extra}`, body);
const chunked = (parts: string[]) => res('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked', `${parts.map((p) => `${p.length.toString(16)}\r\n${p}\r\n`).join('')}0\r\n\r\n`);

/** Feeds `bytes` split at the given offsets; returns what would reach undici, or the error. */
function feed(f: ResponseFraming, bytes: Buffer, cuts: number[] = []): { passed: Buffer; error?: TransportError } {
  const out: Buffer[] = [];
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    const r = f.scan(bytes.subarray(from, at));
    if (r instanceof TransportError) return { passed: Buffer.concat(out), error: r };
    if (Array.isArray(r)) out.push(...r);
    else out.push(r);
    from = at;
  }
  return { passed: Buffer.concat(out) };
}

function framing(methods: string[]): ResponseFraming {
  const f = new ResponseFraming({ maxHeadBytes: 4096 });
  for (const m of methods) f.expect(m);
  return f;
}

describe('ResponseFraming', () => {
  const stream = Buffer.concat([ok('hello'), chunked(['ab', 'cdefghij', 'k']), res('HTTP/1.1 304 Not Modified\r\nContent-Length: 99'), ok('', '\r\nX: y')]);

  test('three responses, split at every offset: passed through unchanged except the 304 length, in step only at the end', () => {
    const expected = Buffer.concat([ok('hello'), chunked(['ab', 'cdefghij', 'k']), res('HTTP/1.1 304 Not Modified'), ok('', '\r\nX: y')]);
    for (let cut = 0; cut <= stream.length; cut++) {
      const f = framing(['GET', 'GET', 'GET', 'GET']);
      const r = feed(f, stream, [cut]);
      expect(r.error).toBeUndefined();
      expect(r.passed.toString('latin1')).toBe(expected.toString('latin1'));
      expect(f.completed).toBe(4);
      expect(f.inStep).toBe(true);
    }
  });

  test('byte by byte', () => {
    const f = framing(['GET', 'GET', 'GET', 'GET']);
    const r = feed(f, stream, Array.from({ length: stream.length - 1 }, (_, i) => i + 1));
    expect(r.error).toBeUndefined();
    expect(f.completed).toBe(4);
  });

  test('a surplus response after the last one asked for is a desync (a smuggled response)', () => {
    const f = framing(['GET']);
    const r = feed(f, Buffer.concat([ok('abc'), ok('evil')]));
    expect(r.error?.code).toBe('E_DESYNC');
    expect(r.passed.length).toBe(0); // nothing of the chunk reaches undici
  });

  test('a Content-Length too short with garbage behind it: desync where the next status line should be', () => {
    const f = framing(['GET', 'GET']);
    const body = 'x'.repeat(20);
    const r = feed(f, Buffer.concat([res('HTTP/1.1 200 OK\r\nContent-Length: 10', body), ok('y')]));
    expect(r.error?.code).toBe('E_DESYNC');
  });

  test('bytes on an idle connection are a desync; a 408 there is only a close', () => {
    expect(feed(framing([]), Buffer.from('HTTP/1.1 200 OK\r\n')).error?.code).toBe('E_DESYNC');
    expect(feed(framing([]), res('HTTP/1.1 408 Request Timeout\r\nContent-Length: 0')).error?.code).toBe('E_CONNECTION_GONE');
  });

  test('interim responses are removed; 103 Link headers are kept for the response they precede', () => {
    const f = framing(['GET']);
    const r = feed(f, Buffer.concat([res('HTTP/1.1 100 Continue'), res('HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload; as=style'), ok('body')]), [5, 30]);
    expect(r.passed.toString('latin1')).toBe(ok('body').toString('latin1'));
    expect(f.takeEarlyHints(0)).toEqual(['</a.css>; rel=preload; as=style']);
    expect(f.takeVersion(0)).toBe('1.1');
  });

  test('unsolicited 101, TE with CL, bad lengths, huge heads: E_BAD_RESPONSE for that response', () => {
    for (const head of [
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3',
      'HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4',
      'HTTP/1.1 200 OK\r\nContent-Length: -1',
      `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(5000)}`,
    ]) {
      const r = feed(framing(['GET', 'GET']), Buffer.concat([ok('a'), res(head, 'abc')]));
      expect(r.error).toMatchObject({ code: 'E_BAD_RESPONSE', responseIndex: 1 });
    }
    // Too large is noticed before the head ends.
    const f = framing(['GET']);
    expect(feed(f, Buffer.from(`HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(5000)}`), [100]).error?.code).toBe('E_BAD_RESPONSE');
  });

  test('framing headers are found in any case and among others; a line without a name is malformed whatever it starts with', () => {
    for (const [head, body] of [
      ['HTTP/1.1 200 OK\r\nDate: x\r\nCONTENT-LENGTH: 3\r\nServer: y', 'abc'],
      ['HTTP/1.1 200 OK\r\ncontent-type: a/b\r\ncontent-length: 3', 'abc'],
      ['HTTP/1.1 200 OK\r\nX: 1\r\ntransfer-encoding: chunked', '3\r\nabc\r\n0\r\n\r\n'],
    ] as const) {
      const f = framing(['GET', 'GET']);
      expect({ head, error: feed(f, Buffer.concat([res(head, body), ok('z')])).error }).toEqual({ head, error: undefined });
      expect({ head, inStep: f.inStep }).toEqual({ head, inStep: true });
    }
    for (const line of ['Server nginx', ': empty name', 'content-length 3', 'Link']) {
      const r = feed(framing(['GET']), res(`HTTP/1.1 200 OK\r\n${line}\r\nContent-Length: 0`));
      expect({ line, error: r.error?.code }).toEqual({ line, error: 'E_BAD_RESPONSE' });
    }
  });

  test('garbage where a status line must start is noticed from its first bytes', () => {
    const r = feed(framing(['GET']), Buffer.from('GIF8'));
    expect(r.error?.code).toBe('E_DESYNC');
  });

  test('HEAD, 204 and 304 have no body whatever they declare; a 304 with a body is a desync', () => {
    const f = framing(['HEAD', 'GET']);
    expect(feed(f, Buffer.concat([res('HTTP/1.1 200 OK\r\nContent-Length: 500'), res('HTTP/1.1 204 No Content')])).error).toBeUndefined();
    expect(f.inStep).toBe(true);
    const g = framing(['GET']);
    expect(feed(g, res('HTTP/1.1 304 Not Modified\r\nContent-Length: 5', 'abcde')).error?.code).toBe('E_DESYNC');
  });

  test('a body delimited by the close completes at the end; HTTP/1.0 is reported', () => {
    const f = framing(['GET']);
    expect(feed(f, res('HTTP/1.0 200 OK', 'until the end')).error).toBeUndefined();
    expect(f.inStep).toBe(false);
    f.end();
    expect(f.completed).toBe(1);
    expect(f.takeVersion(0)).toBe('1.0');
  });

  test('the smuggling shape: a short body and an extra response in one chunk look in step; the real answer is the surplus', () => {
    const f = framing(['GET', 'GET']);
    const smuggled = Buffer.concat([res('HTTP/1.1 200 OK\r\nContent-Length: 4', 'shor'), res('HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: 7', 'SMUGGLE')]);
    expect(feed(f, smuggled).error).toBeUndefined();
    expect(f.inStep).toBe(true);
    // The second request's own answer, arriving later, is the surplus.
    expect(feed(f, ok('the real one')).error?.code).toBe('E_DESYNC');
  });
});
