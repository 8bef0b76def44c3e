/** Where one named origin listens, and how pages link to it. */
import { isIP } from 'node:net';
import { OriginsError } from './origins-errors';

export interface OriginBinding {
  /** Host name of the origin, e.g. `static.example.test`. */
  origin: string;
  /** IPv4 or IPv6 address nginx listens on, e.g. `127.0.0.1` or `198.19.0.3`. */
  address: string;
  /** HTTP/1.1 port; 0 or absent picks a free one (only for addresses of this network namespace). */
  httpPort?: number;
  /** HTTPS port (HTTP/2 and HTTP/1.1 by ALPN); 0 or absent picks a free one. */
  httpsPort?: number;
}

/** A binding with its ports fixed. */
export interface BoundOrigin {
  readonly origin: string;
  readonly address: string;
  readonly httpPort: number;
  readonly httpsPort: number;
  /** Base URLs clients and page links use, e.g. `http://127.0.0.1:40123`, `https://www.example.test`. */
  readonly httpUrl: string;
  readonly httpsUrl: string;
}

/**
 * How pages link to other origins: by `address` (`https://127.0.0.1:40124`, needs no name
 * resolution: loopback tests) or by `name` (`https://static.example.test`, for clients that map
 * names to addresses, such as the link emulator's).
 */
export type LinkHosts = 'address' | 'name';

export function baseUrl(scheme: 'http' | 'https', host: string, port: number): string {
  const defaultPort = scheme === 'http' ? 80 : 443;
  const h = isIP(host) === 6 ? `[${host}]` : host;
  return `${scheme}://${h}${port === defaultPort ? '' : `:${port}`}`;
}

export function bindOrigin(b: OriginBinding & { httpPort: number; httpsPort: number }, linkHosts: LinkHosts): BoundOrigin {
  const host = linkHosts === 'name' ? b.origin : b.address;
  return {
    origin: b.origin,
    address: b.address,
    httpPort: b.httpPort,
    httpsPort: b.httpsPort,
    httpUrl: baseUrl('http', host, b.httpPort),
    httpsUrl: baseUrl('https', host, b.httpsPort),
  };
}

const PORT_MAX = 65_535;

/** Checks bindings at the boundary: names are host names, addresses are IPs, no duplicates. */
export function validateBindings(bindings: readonly OriginBinding[]): void {
  if (bindings.length === 0) throw new OriginsError('E_BAD_BINDING', 'startOrigins needs at least one binding');
  const seen = new Set<string>();
  for (const b of bindings) {
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(b.origin)) {
      throw new OriginsError('E_BAD_BINDING', `origin must be a lower-case host name like static.example.test, got ${JSON.stringify(b.origin)}`);
    }
    if (seen.has(b.origin)) throw new OriginsError('E_BAD_BINDING', `origin ${b.origin} is bound twice`);
    seen.add(b.origin);
    if (isIP(b.address) === 0) throw new OriginsError('E_BAD_BINDING', `${b.origin}: address must be an IPv4 or IPv6 literal, got ${JSON.stringify(b.address)}`);
    for (const port of [b.httpPort, b.httpsPort]) {
      if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= PORT_MAX)) {
        throw new OriginsError('E_BAD_BINDING', `${b.origin}: ports must be integers 0..${PORT_MAX} (0 = pick a free one), got ${port}`);
      }
    }
  }
}
