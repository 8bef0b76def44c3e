/**
 * The lower bound (bench/model/MODEL.md) of a real-shaped page on one link, for a first visit and
 * for a revisit: each origin pays TLS only when the page serves it over https, and an origin
 * named by a `<link rel=preconnect|dns-prefetch>` is known from the document's first byte. On a
 * revisit every origin of the page is known at t = 0 (its handshake may start then), and the
 * resources are still found by parsing (`revisit`), or all known at t = 0 from the page's learned
 * request list (`list`: GETLIST, as `getlist-revisit` asks for them).
 *
 * Pure: no I/O.
 */
import { getBenchPage, type BenchPage } from '../corpus/bench-corpus';
import { realPageHints } from '../corpus/page-real';
import { lowerBound, type LowerBound, type TcpModel } from '../../src/bound/lower-bound';
import { pageStructureOf } from '../model/page-structure';

/** The emulator's rate when a link has no cap (real-bench.ts `NO_CAP`). */
export const NO_CAP_BITS_PER_SEC = 1_000_000_000;

export interface RealBoundLink {
  rttMs: number;
  /** `undefined` = no cap. */
  capBitsPerSec: number | undefined;
}

/** Origins the page loads over https: its own `schemes`, else the document's scheme for all. */
export function httpsOrigins(page: BenchPage): Set<string> {
  const all = [page.document.origin, ...page.resources.map((r) => r.origin)];
  const schemeOf = (o: string): string => page.schemes?.[o] ?? page.documentScheme ?? 'http';
  return new Set(all.filter((o) => schemeOf(o) === 'https'));
}

export type BoundVisit = 'first' | 'revisit' | 'list';

/**
 * Segments of a fresh TLS connection's first flight that the bench's nginx fills before any answer
 * (`BoundOptions.tlsFirstFlightSegments`): OpenSSL's two TLS 1.3 session tickets, each a segment of
 * its own in a packet trace of the link (README, "Real-shaped pages"); test/bench-origins counts them.
 */
export const NGINX_TLS_FIRST_FLIGHT_SEGMENTS = 2;

/** What the server of a page's cells is, as far as the bound needs: the bench's nginx unless said. */
export interface BoundServer {
  tlsFirstFlightSegments: number;
}

export const NGINX_SERVER: BoundServer = { tlsFirstFlightSegments: NGINX_TLS_FIRST_FLIGHT_SEGMENTS };

/** A server whose first flight was not measured: the bound gives it the whole initial window. */
export const UNMEASURED_SERVER: BoundServer = { tlsFirstFlightSegments: 0 };

export function realBound(pageName: string, link: RealBoundLink, visit: BoundVisit, tcp?: Partial<TcpModel>, server: BoundServer = NGINX_SERVER): LowerBound {
  const page = getBenchPage(pageName);
  return lowerBound(pageStructureOf(page, { scriptInserted: false }), { rttMs: link.rttMs, downBitsPerSec: link.capBitsPerSec ?? NO_CAP_BITS_PER_SEC }, {
    tls: httpsOrigins(page),
    hintedOrigins: realPageHints(pageName),
    connectFrom: visit === 'first' ? 'discovery' : 'start',
    listAtStart: visit === 'list',
    tlsFirstFlightSegments: server.tlsFirstFlightSegments,
    ...(tcp ? { tcp } : {}),
  });
}
