/**
 * A `getlist load` run beside its own lower bound (MODEL.md): the run's dependency structure (each
 * request below the document or style sheet that named it, `foundBy`), on the path the run itself
 * measured (its fastest TCP handshake is one round trip; the rate is unlimited unless given), and
 * the gap between the run's end and the bound, split by cause on the request that finished last
 * (gap-parts.ts).
 *
 * Only what the page loaded counts: the final document (redirect hops and failed requests are left
 * out, as are guesses from a learned list the page did not name). A request named by one left out
 * counts as named by the document. Pure.
 */
import { originOf } from '../core/url-parts';
import { gapPartsOf, type GapParts, type ObservedLast } from './gap-parts';
import { lowerBound, type LinkModel, type LowerBound, type RequestTiming } from './lower-bound';
import { parentedStructure, type ParentedRequest } from './parented-structure';
import type { PageStructure } from './page-structure';

/** What the bound reads of one request record of a run (src/run/request-record.ts). */
export interface RunBoundRequest {
  url: string;
  status: number | null;
  bytes: number;
  connectionId: number | null;
  discoveredMs: number;
  sentMs: number | null;
  ttfbMs: number | null;
  doneMs: number;
  error: unknown;
  speculative?: 'used' | 'unused';
  foundBy?: string | null;
}

/** What the bound reads of one handshake record of a run (src/stats/handshake.ts). */
export interface RunBoundHandshake {
  connectionId: number;
  /** Epoch ms. */
  startedAt: number;
  tcpMs: number;
  totalMs: number;
}

export interface RunBoundInput {
  url: string;
  /** Epoch ms; handshake times are read relative to it. */
  startedAt: number;
  requests: readonly RunBoundRequest[];
  handshakes: readonly RunBoundHandshake[];
}

export interface RunBoundLink {
  /** The path's round trip; default: the run's fastest TCP handshake. */
  rttMs?: number;
  /** Bottleneck rate towards the client; default 0 (unlimited). */
  downBitsPerSec?: number;
}

export interface RunBound {
  totalMs: number;
  rttMs: number;
  downBitsPerSec: number;
  limitedBy: LowerBound['limitedBy'];
  /** The request that finished last, whose timing the gap is read from. */
  lastUrl: string;
  gap: GapParts;
}

/**
 * The page's structure as this run found it: its requests in an order where each follows the one
 * that named it. Undefined when the run has no successful document.
 */
export function runStructure(run: Pick<RunBoundInput, 'url' | 'requests'>): { structure: PageStructure; records: RunBoundRequest[] } | undefined {
  const loaded = run.requests.filter((r) => r.error === null && r.speculative !== 'unused');
  const documents = loaded.filter((r) => r.foundBy === null || r.foundBy === undefined);
  const named = new Set(loaded.map((r) => r.foundBy));
  // The final document is the one the page's resources name; a page that names nothing has only one.
  const document = documents.find((d) => named.has(d.url)) ?? documents.find((d) => d.status === null || d.status < 300 || d.status >= 400);
  if (document === undefined) return undefined;
  const records: RunBoundRequest[] = [document];
  const index = new Map<string, number>([[document.url, 0]]);
  let pending = loaded.filter((r) => r.foundBy !== null && r.foundBy !== undefined);
  while (pending.length > 0) {
    const next = pending.filter((r) => !index.has(r.foundBy as string) && pending.some((p) => p.url === r.foundBy));
    for (const r of pending.filter((x) => !next.includes(x))) {
      index.set(r.url, records.length);
      records.push(r);
    }
    pending = next.length === pending.length ? [] : next;
  }
  const parented: ParentedRequest[] = records.map((r, i) => ({
    url: r.url, origin: originOf(r.url), size: r.bytes, discovery: 'first-byte',
    parent: i === 0 ? undefined : (index.get(r.foundBy as string) ?? 0),
  }));
  return { structure: parentedStructure(run.url, parented), records };
}

/** The run's fastest TCP handshake; undefined when it timed none (every connection reused, or none opened). */
export function runRoundTrip(run: Pick<RunBoundInput, 'handshakes'>): number | undefined {
  const tcp = run.handshakes.map((h) => h.tcpMs).filter((ms) => Number.isFinite(ms) && ms > 0);
  return tcp.length === 0 ? undefined : Math.min(...tcp);
}

/** The run's bound and gap; undefined when its round trip is not known (or it loaded no document). */
export function runBound(run: RunBoundInput, given: RunBoundLink = {}): RunBound | undefined {
  const rttMs = given.rttMs ?? runRoundTrip(run);
  const built = runStructure(run);
  if (rttMs === undefined || built === undefined) return undefined;
  const { structure, records } = built;
  const link: LinkModel = { rttMs, downBitsPerSec: given.downBitsPerSec ?? 0 };
  const tls = new Set(records.filter((r) => r.url.startsWith('https:')).map((r) => originOf(r.url)));
  const bound = lowerBound(structure, link, { tls });
  let last = 0;
  records.forEach((r, i) => {
    if (r.doneMs > (records[last] as RunBoundRequest).doneMs) last = i;
  });
  const r = records[last] as RunBoundRequest;
  const gap = gapPartsOf(observed(r, run), bound.requests[last] as RequestTiming, bound.totalMs, rttMs);
  return { totalMs: bound.totalMs, rttMs, downBitsPerSec: link.downBitsPerSec, limitedBy: bound.limitedBy, lastUrl: r.url, gap };
}

function observed(r: RunBoundRequest, run: RunBoundInput): ObservedLast {
  const last: ObservedLast = { discoveredMs: r.discoveredMs, sentMs: r.sentMs ?? r.discoveredMs, doneMs: r.doneMs };
  if (r.ttfbMs !== null) last.firstByteMs = r.discoveredMs + r.ttfbMs;
  const h = run.handshakes.find((x) => x.connectionId === r.connectionId);
  if (h !== undefined) {
    const startMs = h.startedAt - run.startedAt;
    last.handshake = { startMs, readyMs: startMs + h.totalMs };
  }
  return last;
}
