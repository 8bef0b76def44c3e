import { ProtocolError } from './errors';
import { parseRequest } from './validate-request';
import { MAX_URL_LENGTH } from './version';

function failure(value: unknown): { code: string; id: unknown; message: string } {
  try {
    parseRequest(value);
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    return { code: err.code, id: err.id, message: err.message };
  }
  throw new Error(`expected ${JSON.stringify(value)} to be refused`);
}

const doc = 'https://example.com/';

describe('parseRequest', () => {
  test('a schedule comes back typed, with defaults applied and unknown fields dropped', () => {
    expect(parseRequest({ type: 'schedule', id: 3, pageId: 'p', documentUrl: doc, requests: [{ url: `${doc}a.png`, priority: 'image', extra: 1 }], future: true })).toEqual({
      type: 'schedule',
      id: 3,
      pageId: 'p',
      documentUrl: doc,
      mode: 'measure',
      requests: [{ url: `${doc}a.png`, priority: 'image' }],
    });
    expect(parseRequest({ type: 'schedule', id: 'r', pageId: 'p', documentUrl: doc, mode: 'replay', requests: [] })).toMatchObject({ strategies: ['browser', 'getlist'] });
    const full = { url: `${doc}b.js`, method: 'HEAD', priority: 'script', discoveredAt: 0, inViewport: false, resourceType: 'script' };
    expect(parseRequest({ type: 'schedule', id: 1, pageId: 'p', documentUrl: doc, requests: [full] })).toMatchObject({ requests: [full] });
  });

  test('a URL of exactly 8192 characters is accepted; one more is E_INVALID_URL', () => {
    const url = (n: number) => `${doc}?q=${'a'.repeat(n - doc.length - 3)}`;
    expect(url(MAX_URL_LENGTH)).toHaveLength(MAX_URL_LENGTH);
    expect(() => parseRequest({ type: 'schedule', id: 1, pageId: 'p', documentUrl: url(MAX_URL_LENGTH), requests: [] })).not.toThrow();
    expect(failure({ type: 'schedule', id: 1, pageId: 'p', documentUrl: url(MAX_URL_LENGTH + 1), requests: [] })).toMatchObject({ code: 'E_INVALID_URL' });
  });

  test('caFile: an absolute path, on replays only', () => {
    const replay = { type: 'schedule', id: 1, pageId: 'p', documentUrl: doc, requests: [], mode: 'replay' };
    expect(parseRequest({ ...replay, caFile: '/etc/ca.pem' })).toMatchObject({ caFile: '/etc/ca.pem' });
    expect(failure({ ...replay, caFile: 'ca.pem' })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^caFile: expected an absolute path/) });
    expect(failure({ ...replay, mode: 'measure', caFile: '/etc/ca.pem' })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^caFile: expected no caFile unless/) });
    expect(failure({ ...replay, caFile: `/${'a'.repeat(5000)}` })).toMatchObject({ code: 'E_INVALID_FIELD' });
  });

  test('hostMappings: HOST:PORT:ADDRESS lines, on replays only; discoveredAt stays optional', () => {
    const replay = { type: 'schedule', id: 1, pageId: 'p', documentUrl: doc, requests: [{ url: doc, priority: 'document' }], mode: 'replay' };
    const lines = ['dev.example:443:127.0.0.1', '*:80:[::1]'];
    expect(parseRequest({ ...replay, hostMappings: lines })).toMatchObject({ hostMappings: lines, requests: [{ url: doc, priority: 'document' }] });
    expect(parseRequest(replay)).not.toHaveProperty('hostMappings');
    expect(failure({ ...replay, hostMappings: ['dev.example:443:localhost'] })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^hostMappings\[0\]: expected HOST:PORT:ADDRESS/) });
    expect(failure({ ...replay, hostMappings: ['ok.example:80:127.0.0.1', 'dev.example:0:127.0.0.1'] })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^hostMappings\[1\]/) });
    expect(failure({ ...replay, hostMappings: 'dev.example:443:127.0.0.1' })).toMatchObject({ code: 'E_INVALID_FIELD' });
    expect(failure({ ...replay, hostMappings: Array.from({ length: 65 }, () => 'a:1:127.0.0.1') })).toMatchObject({ code: 'E_INVALID_FIELD' });
    expect(failure({ ...replay, mode: 'measure', hostMappings: lines })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^hostMappings: expected no hostMappings unless/) });
  });

  test('origins are normalised; URLs with a path are refused', () => {
    expect(parseRequest({ type: 'stats', id: 1, origin: 'HTTPS://Example.COM:443' })).toEqual({ type: 'stats', id: 1, origin: 'https://example.com' });
    expect(parseRequest({ type: 'forget', id: 1, origin: 'http://127.0.0.1:8080/' })).toEqual({ type: 'forget', id: 1, origin: 'http://127.0.0.1:8080' });
    expect(failure({ type: 'forget', id: 1, origin: 'http://a.test/x' })).toMatchObject({ code: 'E_INVALID_FIELD' });
    expect(failure({ type: 'forget', id: 1, origin: 'ws://a.test' })).toMatchObject({ code: 'E_UNSUPPORTED_SCHEME' });
  });

  test('discover: an http(s) page URL, allowPrivateNetwork optional; unknown fields dropped', () => {
    expect(parseRequest({ type: 'discover', id: 1, url: 'https://a.test/p', extra: 1 })).toEqual({ type: 'discover', id: 1, url: 'https://a.test/p' });
    expect(parseRequest({ type: 'discover', id: 1, url: 'http://a.test/', allowPrivateNetwork: true })).toEqual({ type: 'discover', id: 1, url: 'http://a.test/', allowPrivateNetwork: true });
    expect(failure({ type: 'discover', id: 1 })).toMatchObject({ code: 'E_MISSING_FIELD' });
    expect(failure({ type: 'discover', id: 1, url: 'file:///etc/passwd' })).toMatchObject({ code: 'E_UNSUPPORTED_SCHEME' });
    expect(failure({ type: 'discover', id: 1, url: 'https://a.test/', allowPrivateNetwork: 'yes' })).toMatchObject({ code: 'E_INVALID_FIELD' });
  });

  test('forget names what it forgets: an origin, or all: true; a bare forget is refused', () => {
    expect(parseRequest({ type: 'forget', id: 1, all: true })).toEqual({ type: 'forget', id: 1, all: true });
    expect(failure({ type: 'forget', id: 'f' })).toEqual({ code: 'E_MISSING_FIELD', id: 'f', message: 'origin: a forget names what it forgets: an origin, or all: true for everything' });
    expect(failure({ type: 'forget', id: 'f', all: false })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^all: expected true/) });
    expect(failure({ type: 'forget', id: 'f', all: 'yes' })).toMatchObject({ code: 'E_INVALID_FIELD' });
    expect(failure({ type: 'forget', id: 'f', all: true, origin: 'https://a.test' })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringContaining('either origin or all: true, not both') });
  });

  test('the id is echoed on errors when it could be read, and null otherwise', () => {
    expect(failure({ type: 'nope', id: 'k' })).toMatchObject({ code: 'E_UNKNOWN_TYPE', id: 'k' });
    expect(failure({ type: 'nope', id: 'k'.repeat(300) })).toMatchObject({ id: null });
    expect(failure({ type: 'ping', id: Number.NaN })).toMatchObject({ code: 'E_INVALID_FIELD', id: null });
    expect(failure([])).toMatchObject({ code: 'E_NOT_OBJECT', id: null, message: expect.stringContaining('an array of 0 items') });
  });

  test('a huge string in an error message is described, not echoed', () => {
    const f = failure({ type: 'schedule', id: 1, pageId: 'x'.repeat(100_000), documentUrl: doc, requests: [] });
    expect(f).toMatchObject({ code: 'E_INVALID_FIELD' });
    expect(f.message.length).toBeLessThan(200);
    expect(f.message).toMatch(/^pageId: expected a string of at most 256 characters, got a string of 100000 characters/);
  });

  test('an oversized list is refused before any item is looked at', () => {
    const items = new Array(2001);
    // Holes would fail item validation; E_TOO_MANY_REQUESTS proves no item was read.
    expect(failure({ type: 'schedule', id: 1, pageId: 'p', documentUrl: doc, requests: items })).toMatchObject({ code: 'E_TOO_MANY_REQUESTS' });
  });

  test('duplicate or empty strategy lists are refused', () => {
    const base = { type: 'schedule', id: 1, pageId: 'p', documentUrl: doc, mode: 'replay', requests: [] };
    expect(failure({ ...base, strategies: [] })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringMatching(/^strategies: /) });
    expect(failure({ ...base, strategies: ['getlist', 'getlist'] })).toMatchObject({ code: 'E_INVALID_FIELD', message: expect.stringContaining('each strategy at most once') });
  });
});
