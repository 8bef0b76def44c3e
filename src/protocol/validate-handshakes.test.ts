import { ProtocolError } from './errors';
import { parseRequest } from './validate-request';
import { MAX_BROWSER_HANDSHAKES } from './version';

function failure(value: unknown): { code: string; message: string } {
  try {
    parseRequest(value);
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    return { code: err.code, message: err.message };
  }
  throw new Error(`expected ${JSON.stringify(value)} to be refused`);
}

const one = { origin: 'HTTPS://Example.com:443', startedAt: 1_800_000_000_000, dnsMs: 1, tcpMs: 20, tlsMs: 21, totalMs: 42, protocol: 'h2' };
const request = (handshakes: unknown[], extra: Record<string, unknown> = {}) => ({ type: 'handshakes', id: 7, pageUrl: 'https://example.com/', handshakes, ...extra });

describe('handshakes request', () => {
  test("the browser's connections come back typed, origins normalised, unknown fields dropped", () => {
    expect(parseRequest(request([{ ...one, resumed: true }]))).toEqual({ type: 'handshakes', id: 7, pageUrl: 'https://example.com/', handshakes: [{ ...one, origin: 'https://example.com' }] });
  });

  test.each([
    ['a negative phase', { tcpMs: -1 }, 'E_INVALID_FIELD', /tcpMs/],
    ['a total shorter than its phases', { totalMs: 10 }, 'E_INVALID_FIELD', /totalMs: expected at least/],
    ['TLS on http:', { origin: 'http://example.com' }, 'E_INVALID_FIELD', /tlsMs: expected 0 on an http: origin/],
    ['HTTP/3 (no TCP phase to record)', { protocol: 'h3' }, 'E_INVALID_FIELD', /protocol/],
    ['a missing start', { startedAt: undefined }, 'E_MISSING_FIELD', /startedAt/],
    ['an origin with a path', { origin: 'https://example.com/x' }, 'E_INVALID_FIELD', /origin/],
    ['a ws: origin', { origin: 'ws://example.com' }, 'E_UNSUPPORTED_SCHEME', /origin/],
    ['an unended connect with a TCP time', { connect: 'unended' }, 'E_INVALID_FIELD', /tcpMs: expected 0 on an unended connect/],
    ['a connect mark other than unended', { connect: 'whole' }, 'E_INVALID_FIELD', /connect/],
  ])('%s is refused with a stable code naming the field', (_name, change, code, message) => {
    const f = failure(request([{ ...one, ...change }]));
    expect(f.code).toBe(code);
    expect(f.message).toMatch(/^handshakes\[0\]\./);
    expect(f.message).toMatch(message);
  });

  test("a connect the browser showed begin but not end comes back marked, its TCP time 0", () => {
    const unended = { ...one, tcpMs: 0, totalMs: 22, connect: 'unended' };
    expect(parseRequest(request([unended]))).toEqual({ type: 'handshakes', id: 7, pageUrl: 'https://example.com/', handshakes: [{ ...unended, origin: 'https://example.com' }] });
  });

  test('more connections than one message may carry is E_TOO_MANY_REQUESTS, before any is read', () => {
    expect(failure(request(Array.from({ length: MAX_BROWSER_HANDSHAKES + 1 }, () => 0)))).toMatchObject({ code: 'E_TOO_MANY_REQUESTS' });
    expect(failure(request([], { pageUrl: 'https://u:p@example.com/' }))).toMatchObject({ code: 'E_INVALID_URL' });
  });

  test('stats and export take a source: browser, host or cli', () => {
    expect(parseRequest({ type: 'stats', id: 1, source: 'browser' })).toEqual({ type: 'stats', id: 1, source: 'browser' });
    expect(parseRequest({ type: 'export', id: 1, format: 'prom', source: 'cli' })).toEqual({ type: 'export', id: 1, format: 'prom', source: 'cli' });
    expect(failure({ type: 'stats', id: 1, source: 'measure' })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^source: expected one of browser, host, cli/) });
  });
});
