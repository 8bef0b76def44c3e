import { parseHostMessage } from './validate-reply';
import { PROTOCOL_VERSION } from './version';

const record = {
  url: 'https://a.test/', method: 'GET', priority: 'document', resourceType: 'main_frame', status: 200, bytes: 5, decodedBytes: 12, connectionId: 1, reused: false, pipelined: false,
  attempts: 1, protocol: 'h2', discoveredMs: 0, sentMs: 1, ttfbMs: 2, doneMs: 4, error: null,
};
const handshake = { connectionId: 1, origin: 'https://a.test', startedAt: 1, dnsMs: 0, tcpMs: 1, tlsMs: 2, totalMs: 3, protocol: 'h2', resumed: false };

describe('parseHostMessage (the extension side)', () => {
  test.each([
    { type: 'pong', id: 1 },
    { type: 'error', id: null, code: 'E_INVALID_JSON', message: 'x' },
    { type: 'hello', id: 'h', hostVersion: '0.1.0', protocolVersion: PROTOCOL_VERSION, capabilities: { strategies: ['getlist'], http2: true, store: null, maxRequestsPerSchedule: 2000, maxMessageBytes: 1048576 } },
    { type: 'measured', id: 2, pageId: 'p', handshakes: [handshake], warm: ['https://b.test'], failed: [{ origin: 'https://c.test', code: 'ECONNREFUSED', message: 'no' }] },
    { type: 'replay-result', id: 3, pageId: 'p', strategy: 'browser', requests: [record] },
    { type: 'replay-result', id: 3, pageId: 'p', strategy: 'browser', requests: [{ ...record, status: null, connectionId: null, protocol: null, sentMs: null, ttfbMs: null, resourceType: null, error: { code: 'E_CONNECT_FAILED', message: 'no' } }] },
    { type: 'replay-summary', id: 3, pageId: 'p', summaries: [{ strategy: 'getlist', totalMs: 1, meanTtfbMs: 1, connectionsOpened: 0, requestsPerConnection: 0, requests: 1, bytes: 0, errors: 1, handshakeP50Ms: null, handshakeP90Ms: null }] },
    { type: 'stats', id: 4, count: 0, groups: [] },
    { type: 'export', id: 5, format: 'csv', mimeType: 'text/csv', data: '' },
    { type: 'forgotten', id: 6, removed: 0 },
    { type: 'discovered', id: 8, url: 'https://a.test/', resources: [{ url: 'https://f.test/f.woff2', as: 'font', via: 'css' }, { url: 'https://a.test/s.css', as: 'style', via: 'html' }] },
    { type: 'chunk', id: 7, seq: 0, total: 1, data: '{}' },
  ])('accepts a valid $type', (message) => {
    expect(parseHostMessage(message)).toBe(message);
  });

  test.each([
    [{ type: 'pong' }, 'E_MISSING_FIELD', /^id: /],
    [{ type: 'mystery', id: 1 }, 'E_INVALID_FIELD', /^type: expected one of hello, pong/],
    [{ type: 'error', id: 1, code: 'E_WHATEVER', message: 'x' }, 'E_INVALID_FIELD', /^code: /],
    [{ type: 'measured', id: 1, pageId: 'p', handshakes: [{ ...handshake, totalMs: 'slow' }], warm: [], failed: [] }, 'E_INVALID_FIELD', /^handshakes\[0\]\.totalMs: expected a finite number, got "slow"$/],
    [{ type: 'replay-result', id: 1, pageId: 'p', strategy: 'browser', requests: [{ url: 'u', priority: 'urgent' }] }, 'E_INVALID_FIELD', /^requests\[0\]\.priority: /],
    // "Not measured" is null; an absent field is a host that does not speak this version.
    [{ type: 'replay-result', id: 1, pageId: 'p', strategy: 'browser', requests: [{ ...record, ttfbMs: undefined }] }, 'E_MISSING_FIELD', /^requests\[0\]\.ttfbMs: /],
    [{ type: 'replay-result', id: 1, pageId: 'p', strategy: 'browser', requests: [{ ...record, kind: 'image', resourceType: undefined }] }, 'E_MISSING_FIELD', /^requests\[0\]\.resourceType: /],
    [{ type: 'replay-result', id: 1, pageId: 'p', strategy: 'browser', requests: [{ ...record, status: '200' }] }, 'E_INVALID_FIELD', /^requests\[0\]\.status: expected a finite number/],
    [{ type: 'replay-result', id: 1, pageId: 'p', strategy: 'browser', requests: [{ ...record, decodedBytes: undefined }] }, 'E_MISSING_FIELD', /^requests\[0\]\.decodedBytes: /],
    [{ type: 'replay-result', id: 1, pageId: 'p', strategy: 'browser', requests: [{ ...record, decodedBytes: null }] }, 'E_INVALID_FIELD', /^requests\[0\]\.decodedBytes: expected a finite number/],
    [{ type: 'replay-result', id: 1, pageId: 'p', strategy: 'browser', requests: [{ ...record, error: undefined }] }, 'E_MISSING_FIELD', /^requests\[0\]\.error: /],
    [{ type: 'replay-summary', id: 1, pageId: 'p', summaries: [{ strategy: 'getlist', totalMs: 1, meanTtfbMs: 1, connectionsOpened: 0, requestsPerConnection: 0, requests: 1, bytes: 0, errors: 0, handshakeP50Ms: null }] }, 'E_MISSING_FIELD', /^summaries\[0\]\.handshakeP90Ms: /],
    [{ type: 'chunk', id: 1, seq: -1, total: 1, data: '' }, 'E_INVALID_FIELD', /^seq: /],
    [{ type: 'discovered', id: 1, url: 'https://a.test/', resources: [{ url: 'https://a.test/x', as: 'movie', via: 'css' }] }, 'E_INVALID_FIELD', /^resources\[0\]\.as: /],
    [{ type: 'discovered', id: 1, url: 'https://a.test/', resources: [{ url: 'https://a.test/x', as: 'image' }] }, 'E_MISSING_FIELD', /^resources\[0\]\.via: /],
    [7, 'E_NOT_OBJECT', /the number 7/],
  ])('refuses %j with %s', (message, code, text) => {
    expect(() => parseHostMessage(message)).toThrow(expect.objectContaining({ code, message: expect.stringMatching(text) }));
  });
});
