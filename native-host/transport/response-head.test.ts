import { mulberry32 } from '../../src/core/prng';
import { readResponseHead, type HeadProblem, type ResponseHead } from './response-head';

/**
 * The obvious reading of a head — a string, split into lines, a regular expression for the status
 * line — that `readResponseHead` must agree with (it reads bytes for speed, not for another
 * meaning). White space is RFC 9110's OWS (space, tab).
 */
function reference(head: Buffer): ResponseHead | HeadProblem {
  const lines = head.toString('latin1').slice(0, -4).split('\r\n');
  const m = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] as string);
  if (!m) return { problem: 'status-line' };
  const status = Number(m[2]);
  const out: ResponseHead = { minor: m[1] === '0' ? 0 : 1, status, lengths: undefined, transferEncoding: undefined, links: undefined, connection: false };
  const ows = (s: string) => s.replace(/^[ \t]+|[ \t]+$/g, '');
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { problem: 'malformed-line', line };
    const name = ows(line.slice(0, colon)).toLowerCase();
    const value = ows(line.slice(colon + 1));
    if (name === 'content-length') (out.lengths ??= []).push(...(value.includes(',') ? value.split(',').map((x) => x.trim()) : [value]));
    else if (name === 'transfer-encoding') out.transferEncoding = out.transferEncoding === undefined ? value : `${out.transferEncoding}, ${value}`;
    else if (name === 'connection') out.connection = true;
    else if (name === 'link' && status === 103) (out.links ??= []).push(value);
  }
  return out;
}

const head = (text: string) => Buffer.from(`${text}\r\n\r\n`, 'latin1');

describe('readResponseHead', () => {
  test('a typical head: version, status and the framing headers, names in any case', () => {
    expect(readResponseHead(head('HTTP/1.1 200 OK\r\nDate: x\r\nCONTENT-length:  12 \r\nContent-Type: a/b'))).toEqual({
      minor: 1, status: 200, lengths: ['12'], transferEncoding: undefined, links: undefined, connection: false,
    });
    expect(readResponseHead(head('HTTP/1.1 200 OK\r\nconnection: Keep-Alive'))).toMatchObject({ connection: true });
    expect(readResponseHead(head('HTTP/1.0 103\r\nLink: </a.css>; rel=preload\r\nlink:\t</b.js>'))).toEqual({
      minor: 0, status: 103, lengths: undefined, transferEncoding: undefined, links: ['</a.css>; rel=preload', '</b.js>'], connection: false,
    });
    expect(readResponseHead(head('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\ntransfer-encoding: chunked'))).toMatchObject({ transferEncoding: 'gzip, chunked' });
    expect(readResponseHead(head('HTTP/1.1 200 OK\r\nContent-Length: 3, 3'))).toMatchObject({ lengths: ['3', '3'] });
  });

  test('not a status line, or a header line without a name', () => {
    for (const s of ['HTTP/2 200 OK', 'HTTP/1.1 20 OK', 'HTTP/1.1 2000', 'HTTP/1.1  200', 'http/1.1 200 OK', 'HTTP/1.1 200\rX']) {
      expect({ s, r: readResponseHead(head(s)) }).toEqual({ s, r: { problem: 'status-line' } });
    }
    expect(readResponseHead(head('HTTP/1.1 200 OK\r\nServer nginx'))).toEqual({ problem: 'malformed-line', line: 'Server nginx' });
    expect(readResponseHead(head('HTTP/1.1 200 OK\r\n: x'))).toEqual({ problem: 'malformed-line', line: ': x' });
  });

  test('agrees with the string-and-regex reading on 20,000 random heads', () => {
    const rnd = mulberry32(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
    const names = ['Content-Length', 'content-length', 'CONTENT-LENGTH', 'Transfer-Encoding', 'transfer-encoding', 'Link', 'LINK', 'Date', 'Content-Type', 'Connection', 'X-Content-Length', 'Content-Lengths', 'Lin', ''];
    const blanks = ['', ' ', '\t', '  ', ' \t'];
    const values = ['12', '0', ' 7 ', '3, 3', '3,4', 'chunked', 'gzip, chunked', '</a>; rel=preload', '', 'a:b', '\u00a0'];
    const statusLines = ['HTTP/1.1 200 OK', 'HTTP/1.0 304 Not Modified', 'HTTP/1.1 103 Early Hints', 'HTTP/1.1 204', 'HTTP/1.1 100 Continue', 'HTTP/1.2 200 OK', 'HTTP/1.1 2x0 OK', 'HTTP/1.1 200\tOK'];
    for (let i = 0; i < 20_000; i++) {
      const lines = [pick(statusLines)];
      const n = Math.floor(rnd() * 6);
      for (let j = 0; j < n; j++) {
        const colon = rnd() < 0.97 ? ':' : '';
        lines.push(`${pick(blanks.slice(0, 2))}${pick(names)}${rnd() < 0.1 ? pick(blanks) : ''}${colon}${pick(blanks)}${pick(values)}${pick(blanks)}`);
      }
      const h = head(lines.join('\r\n'));
      expect({ head: lines, r: readResponseHead(h) }).toEqual({ head: lines, r: reference(h) });
    }
  });
});
