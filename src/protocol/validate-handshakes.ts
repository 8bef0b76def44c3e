import { HTTP_PROTOCOLS } from '../core/http-protocol';
import { MAX_RECORDABLE_MS } from '../stats/histogram';
import { join, type Checker, type Fields } from './check';
import { checkOrigin, checkUrl } from './check-url';
import type { RequestId } from './errors';
import type { BrowserHandshake, HandshakesRequest } from './requests';
import { MAX_BROWSER_HANDSHAKES } from './version';

/**
 * A `handshakes` request: the connections a page's load opened in the browser. Each phase is a
 * duration the store can record (0 … MAX_RECORDABLE_MS), and the total is no shorter than the
 * phases it holds (a total below DNS + TCP + TLS is a bad record, not a fast one).
 */
export function parseHandshakes(c: Checker, id: RequestId, value: Fields): HandshakesRequest {
  const pageUrl = checkUrl(c, c.required(value, 'pageUrl', ''), 'pageUrl');
  const list = c.array(value, 'handshakes', '');
  if (list.length > MAX_BROWSER_HANDSHAKES) {
    c.fail('E_TOO_MANY_REQUESTS', `handshakes: one message may carry at most ${MAX_BROWSER_HANDSHAKES} connections, got ${list.length}`);
  }
  return { type: 'handshakes', id, pageUrl, handshakes: list.map((h, i) => parseHandshake(c, h, `handshakes[${i}]`)) };
}

function parseHandshake(c: Checker, raw: unknown, path: string): BrowserHandshake {
  const o = c.object(raw, path);
  const origin = checkOrigin(c, c.required(o, 'origin', path), join(path, 'origin'));
  const startedAt = c.required(o, 'startedAt', path);
  if (typeof startedAt !== 'number' || !Number.isFinite(startedAt) || startedAt <= 0) c.invalid(join(path, 'startedAt'), 'epoch ms > 0', startedAt);
  const [dnsMs, tcpMs, tlsMs, totalMs] = (['dnsMs', 'tcpMs', 'tlsMs', 'totalMs'] as const).map((k) => duration(c, o, k, path)) as [number, number, number, number];
  // The phases are rounded to 1 µs each, so their sum may pass the total by the rounding.
  if (totalMs + 0.01 < dnsMs + tcpMs + tlsMs) c.invalid(join(path, 'totalMs'), `at least dnsMs + tcpMs + tlsMs (${dnsMs + tcpMs + tlsMs})`, totalMs);
  if (tlsMs > 0 && !origin.startsWith('https:')) c.invalid(join(path, 'tlsMs'), '0 on an http: origin (no TLS handshake)', tlsMs);
  const protocol = c.oneOf(o, 'protocol', path, HTTP_PROTOCOLS);
  if (o.connect === undefined) return { origin, startedAt, dnsMs, tcpMs, tlsMs, totalMs, protocol };
  const connect = c.oneOf(o, 'connect', path, ['unended'] as const);
  if (tcpMs !== 0) c.invalid(join(path, 'tcpMs'), '0 on an unended connect (its end was not shown)', tcpMs);
  return { origin, startedAt, dnsMs, tcpMs, tlsMs, totalMs, protocol, connect };
}

function duration(c: Checker, o: Fields, key: string, path: string): number {
  const v = c.required(o, key, path);
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_RECORDABLE_MS) c.invalid(join(path, key), `a duration in ms in [0, ${MAX_RECORDABLE_MS}]`, v);
  return v;
}
