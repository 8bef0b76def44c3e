/**
 * Where a page's time went: its load as the browser measured it, beside the lower bound on the
 * path this load measured (bench/model/MODEL.md, the same model the benchmarks judge by).
 *
 * - `boundMs`: no client that finds the page's resources by parsing, with the browser's own
 *   connection limits, could have finished sooner on this path; `idealMs`: nor one that knew every
 *   request at t = 0.
 * - `criticalPath`: the chain of requests that set the page's end, from the document to the request
 *   that finished last, each found by the one before; every link's time split by what it spent.
 * - `gap`: the page's end minus the bound, by cause (src/bound/gap-parts.ts).
 *
 * The path is this load's own: the round trip and delivery rate it measured
 * (src/page/hints/path-sample.ts). A rate it could not measure (no response large enough) counts as
 * unlimited, which only lowers the bound. Pure; runs in the popup, never in the page.
 */
import { gapPartsOf, type GapParts } from '../../bound/gap-parts';
import { lowerBound, serialisationMs, type LinkModel, type LowerBound, type RequestTiming } from '../../bound/lower-bound';
import { pathSampleOf, roundTripOf } from '../hints/path-sample';
import type { PageRecord } from '../model/page-record';
import { loadBoundOptions, loadStructure } from './load-structure';
import { recordedLoad, type FoundBy, type LoadedRequest, type RecordedLoad } from './recorded-load';

/** One request of the critical path and what it spent, ms. */
export interface PathLink {
  url: string;
  type: string;
  foundBy: FoundBy;
  /** The request whose arrival let the browser find this one; undefined for the document. */
  foundByUrl: string | undefined;
  /** From the earliest the browser could have known of it (its parent's first byte, or end for a script-inserted one) to when it did. */
  discoveryWaitMs: number;
  /** How much later the browser knew of it than the bound's earliest. */
  discoveryLateMs: number;
  /** DNS, connect and TLS of the connection it opened; 0 on a connection already up. */
  handshakeMs: number;
  /** Known, and its connection not being set up, but not yet sent. */
  queuedMs: number;
  /** Request to first byte beyond one round trip of the path. */
  serverMs: number;
  /** First byte to last. */
  transferMs: number;
  /** Its body's serialisation at the path's rate (0 when the rate was not measured). */
  transferAtRateMs: number;
  /** Request sent to first byte: one round trip plus the server's time. */
  roundTripMs: number;
  discoveredMs: number;
  sentMs: number;
  doneMs: number;
}

export interface Diagnosis {
  status: 'ok';
  rttMs: number;
  /** The path's measured delivery rate; 0 when not measured (unlimited for the bound). */
  downBitsPerSec: number;
  /** Latest last byte of any request of the page. */
  endMs: number;
  boundMs: number;
  idealMs: number;
  limitedBy: LowerBound['limitedBy'];
  criticalPath: PathLink[];
  gap: GapParts;
  /** The bound as the model computed it, per request (for what-if questions on the same inputs). */
  bound: LowerBound;
  load: RecordedLoad;
}

export type DiagnosisCode = 'E_DIAGNOSIS_NO_TIMING' | 'E_DIAGNOSIS_NO_ROUND_TRIP';

export interface DiagnosisUnavailable {
  status: 'unavailable';
  code: DiagnosisCode;
  message: string;
}

export function diagnose(page: PageRecord): Diagnosis | DiagnosisUnavailable {
  const load = recordedLoad(page);
  if (load === undefined) {
    return { status: 'unavailable', code: 'E_DIAGNOSIS_NO_TIMING', message: 'the page has not reported its navigation timing yet (it is still loading, or the browser gave none)' };
  }
  const link = pathOf(page);
  if (link === undefined) {
    return { status: 'unavailable', code: 'E_DIAGNOSIS_NO_ROUND_TRIP', message: 'no response of this load crossed the network (served from cache), so it measured no round trip' };
  }
  return diagnoseLoad(load, link, page.url);
}

/** The diagnosis of a load on a given path (what the bench checks the popup's bound with). */
export function diagnoseLoad(load: RecordedLoad, link: LinkModel, name = ''): Diagnosis {
  const structure = loadStructure(load, name);
  const options = loadBoundOptions(load);
  const bound = lowerBound(structure, link, options);
  const ideal = lowerBound(structure, link, { ...options, listAtStart: true });
  let last = 0;
  load.requests.forEach((r, i) => {
    if (r.doneMs > (load.requests[last] as LoadedRequest).doneMs) last = i;
  });
  const lastRequest = load.requests[last] as LoadedRequest;
  return {
    status: 'ok',
    rttMs: link.rttMs,
    downBitsPerSec: link.downBitsPerSec,
    endMs: lastRequest.doneMs,
    boundMs: bound.totalMs,
    idealMs: ideal.totalMs,
    limitedBy: bound.limitedBy,
    criticalPath: chainTo(last, load).map((i) => pathLink(i, load, bound, link)),
    gap: gapPartsOf(lastRequest, bound.requests[last] as RequestTiming, bound.totalMs, link.rttMs),
    bound,
    load,
  };
}

/** This load's round trip and delivery rate; undefined when it measured no round trip. */
function pathOf(page: PageRecord): LinkModel | undefined {
  const sample = pathSampleOf(page);
  const network = page.timings.filter((t) => !t.restricted && t.transferSize > 0 && t.requestStart > 0);
  const rttMs = sample?.rttMs ?? roundTripOf(network, page.navigation);
  if (rttMs === undefined) return undefined;
  return { rttMs, downBitsPerSec: sample === undefined ? 0 : sample.deliveryBytesPerMs * 8000 };
}

function chainTo(index: number, load: RecordedLoad): number[] {
  const chain: number[] = [];
  for (let i: number | undefined = index; i !== undefined; i = (load.requests[i] as LoadedRequest).parent) chain.unshift(i);
  return chain;
}

function pathLink(i: number, load: RecordedLoad, bound: LowerBound, link: LinkModel): PathLink {
  const r = load.requests[i] as LoadedRequest;
  const parent = r.parent === undefined ? undefined : load.requests[r.parent];
  const b = bound.requests[i] as RequestTiming;
  const earliest = parent === undefined ? 0 : r.discovery === 'complete' ? parent.doneMs : parent.firstByteMs;
  const handshakeMs = r.handshake === undefined ? 0 : r.handshake.readyMs - r.handshake.startMs;
  const roundTripMs = r.firstByteMs - r.sentMs;
  return {
    url: r.url,
    type: r.type,
    foundBy: r.foundBy,
    foundByUrl: parent?.url,
    discoveryWaitMs: Math.max(0, r.discoveredMs - earliest),
    discoveryLateMs: r.discoveredMs - b.discoveredMs,
    handshakeMs,
    queuedMs: Math.max(0, r.sentMs - r.discoveredMs - handshakeMs),
    serverMs: Math.max(0, roundTripMs - link.rttMs),
    transferMs: r.doneMs - r.firstByteMs,
    transferAtRateMs: serialisationMs(r.size, link),
    roundTripMs,
    discoveredMs: r.discoveredMs,
    sentMs: r.sentMs,
    doneMs: r.doneMs,
  };
}
