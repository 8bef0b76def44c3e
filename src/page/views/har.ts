import type { CaptureMode, HeaderField, ObservedRequest, PageRecord, RedirectHop, TimingEntry } from '../model/page-record';
import { navigationMilestones } from '../model/page-summary';
import { firstUrl } from '../model/redirect-hops';
import { replayPages } from './har-replay';
import { inferConnections, observedRows } from './waterfall';
import { harHttpVersion, isoDate, mimeTypeOf, queryString, round, type Har, type HarEntry, type HarNameValue, type HarTimings } from './har-format';

export type { Har, HarEntry, HarNameValue, HarPage, HarTimings } from './har-format';
export { harHttpVersion, isoDate, mimeTypeOf, queryString, round } from './har-format';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/) as Chrome DevTools writes it, filled
 * from what the browser exposes to an extension: headers as webRequest reports them (never
 * cookies or credentials: src/page/model/request-headers.ts), each redirect its own entry with
 * `redirectURL`, phases and sizes from Resource Timing where exposed, `connection` ids inferred
 * from Resource Timing (the waterfall's connection view), and each replayed strategy as a page of
 * its own whose entries are the host's records.
 */

/** The creator version written into HARs. */
export const HAR_CREATOR = { name: 'getlist', version: '0.1.0' };

/**
 * Builds a HAR from a page record: one entry per observed request, its phases taken from the
 * Resource Timing entry with the same URL (each entry used once, in order), else only `wait` = the
 * whole webRequest duration. A reused connection has `dns` and `connect` -1 ("does not apply").
 */
/**
 * The HAR's `comment` (on the log and the observed page): the capture mode, and for lean capture
 * what it cannot know, so an empty `headers` list or a missing `serverIPAddress` reads as "not
 * exposed" rather than "none" in any HAR viewer. Records of versions before lean capture (no
 * `capture`) were all detailed.
 */
export const HAR_CAPTURE_COMMENT: Record<CaptureMode, string> = {
  lean:
    'getlist lean capture: requests from the page\'s own Resource Timing and Navigation Timing (no webRequest). ' +
    'Not exposed: request and response headers, server IP addresses, failed requests, sub-resource redirects, ' +
    'and the phases and sizes of cross-origin responses without Timing-Allow-Origin (_timingRestricted). ' +
    'Turn on Detailed capture in getlist\'s options for them.',
  detailed:
    'getlist detailed capture: requests, redirects and headers (without cookies or credentials) from webRequest; ' +
    'phases and sizes from Resource Timing where the browser exposes them (_timingRestricted where not).',
};

export interface HarOptions {
  /** The document's title (the tab's title); the URL when not given. */
  title?: string;
}

export function buildHar(page: PageRecord, options: HarOptions = {}): Har {
  const pageref = page.pageId;
  const connections = connectionIds(page);
  const { domContentLoadedMs, loadMs } = navigationMilestones(page);
  const byUrl = new Map<string, TimingEntry[]>();
  for (const t of page.timings) {
    const list = byUrl.get(t.name);
    if (list) list.push(t);
    else byUrl.set(t.name, [t]);
  }
  const entries = page.requests.flatMap((r, i) => {
    // Resource Timing names a redirected resource by the URL it was first requested at.
    const timing = r.type === 'main_frame' ? undefined : byUrl.get(firstUrl(r))?.shift();
    const hops = r.redirects ?? [];
    const entry = harEntry(r, timing, page, pageref, hops[hops.length - 1]?.endedAt);
    const connection = connections.get(`o${i}`);
    if (connection !== undefined) entry.connection = connection;
    return [...hops.map((hop) => redirectEntry(hop, r, pageref)), entry];
  });
  const replays = replayPages(page);
  const comment = HAR_CAPTURE_COMMENT[page.capture ?? 'detailed'];
  return {
    log: {
      version: '1.2',
      creator: { ...HAR_CREATOR },
      comment,
      pages: [
        {
          startedDateTime: isoDate(page.startedAt),
          id: pageref,
          title: options.title || page.url,
          pageTimings: { onContentLoad: domContentLoadedMs ?? -1, onLoad: loadMs ?? -1 },
          comment,
        },
        ...replays.pages,
      ],
      entries: [...entries, ...replays.entries],
    },
  };
}

/**
 * The final response's entry. After redirects it starts where the last hop ended, as DevTools
 * writes it (`redirectedAt`): the hops' entries and this one tile the request's time without
 * overlapping, and its phases count from the final fetch's start (Resource Timing `fetchStart`),
 * not from the first hop's.
 */
function harEntry(r: ObservedRequest, t: TimingEntry | undefined, page: PageRecord, pageref: string, redirectedAt?: number): HarEntry {
  const startedAt = redirectedAt === undefined ? r.startedAt : Math.max(r.startedAt, redirectedAt);
  const duration = r.endedAt === undefined ? 0 : Math.max(0, r.endedAt - startedAt);
  const timings = t && !t.restricted ? phases(t, redirectedAt !== undefined) : { blocked: -1, dns: -1, connect: -1, send: 0, wait: duration, receive: 0, ssl: -1 };
  const protocol = r.type === 'main_frame' ? page.navigation?.nextHopProtocol : t?.nextHopProtocol;
  const httpVersion = harHttpVersion(protocol);
  const exposedSize = t && !t.restricted ? t.encodedBodySize : undefined;
  const entry: HarEntry = {
    pageref,
    startedDateTime: isoDate(startedAt),
    time: round(sumTimings(timings)),
    request: { method: r.method, url: r.url, httpVersion, cookies: [], headers: copy(r.requestHeaders), queryString: queryString(r.url), headersSize: -1, bodySize: -1 },
    response: {
      status: r.statusCode ?? 0,
      statusText: statusText(r.statusLine),
      httpVersion,
      cookies: [],
      headers: copy(r.responseHeaders),
      content: { size: exposedSize ?? 0, mimeType: contentType(r.responseHeaders) ?? mimeTypeOf(r.type) },
      redirectURL: '',
      headersSize: -1,
      bodySize: exposedSize ?? -1,
    },
    cache: {},
    timings,
    _resourceType: r.type,
  };
  if (r.ip) entry.serverIPAddress = r.ip;
  if (t?.restricted) entry._timingRestricted = true;
  return entry;
}

/**
 * A redirect response as its own entry, as DevTools writes it: the hop's status and headers, its
 * `redirectURL`, and its whole duration as `wait` (the browser exposes no phases per hop).
 */
function redirectEntry(hop: RedirectHop, r: ObservedRequest, pageref: string): HarEntry {
  const wait = round(Math.max(0, hop.endedAt - hop.startedAt));
  const httpVersion = /^HTTP\/[\d.]+/.exec(hop.statusLine ?? '')?.[0] ?? '';
  return {
    pageref,
    startedDateTime: isoDate(hop.startedAt),
    time: wait,
    request: { method: r.method, url: hop.url, httpVersion, cookies: [], headers: copy(hop.requestHeaders), queryString: queryString(hop.url), headersSize: -1, bodySize: -1 },
    response: { status: hop.statusCode ?? 0, statusText: statusText(hop.statusLine), httpVersion, cookies: [], headers: copy(hop.responseHeaders), content: { size: 0, mimeType: 'x-unknown' }, redirectURL: hop.redirectURL, headersSize: -1, bodySize: -1 },
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, send: 0, wait, receive: 0, ssl: -1 },
    _resourceType: r.type,
  };
}

/** Connection ids for the HAR: the waterfall's inferred connections, numbered 1… in order of use. */
function connectionIds(page: PageRecord): Map<string, string> {
  const numbers = new Map<string, string>();
  const out = new Map<string, string>();
  for (const row of inferConnections(observedRows(page)).sort((a, b) => a.startMs - b.startMs)) {
    if (row.connection?.source !== 'resource-timing') continue;
    let id = numbers.get(row.connection.key);
    if (id === undefined) numbers.set(row.connection.key, (id = String(numbers.size + 1)));
    out.set(row.key, id);
  }
  return out;
}

/** `HTTP/1.1 404 Not Found` → `Not Found`. */
export function statusText(statusLine: string | undefined): string {
  return /^\S+\s+\d{3}\s?(.*)$/.exec(statusLine ?? '')?.[1]?.trim() ?? '';
}

function contentType(headers: readonly HeaderField[] | undefined): string | undefined {
  return headers?.find((h) => h.name.toLowerCase() === 'content-type')?.value || undefined;
}

function copy(headers: readonly HeaderField[] | undefined): HarNameValue[] {
  return (headers ?? []).map((h) => ({ name: h.name, value: h.value }));
}

/**
 * HAR phases from one Resource Timing entry (non-restricted). `redirected`: the entry covers a
 * redirect chain (its `startTime` is the first hop's start) and the phases describe the final
 * fetch only, so `blocked` counts from `fetchStart` (the final fetch's start), not `startTime`.
 */
export function phases(t: TimingEntry, redirected = false): HarTimings {
  const fresh = t.connectEnd > t.connectStart;
  const dnsDone = t.domainLookupEnd > t.domainLookupStart;
  const firstNetwork = t.domainLookupStart > 0 ? t.domainLookupStart : t.connectStart > 0 ? t.connectStart : t.requestStart;
  const start = redirected && t.fetchStart !== undefined && t.fetchStart > t.startTime ? t.fetchStart : t.startTime;
  const ssl = fresh && t.secureConnectionStart > 0 ? t.connectEnd - t.secureConnectionStart : -1;
  const wait = t.responseStart > 0 && t.requestStart > 0 ? t.responseStart - t.requestStart : 0;
  const receive = t.responseStart > 0 ? t.responseEnd - t.responseStart : Math.max(0, t.responseEnd - start);
  return {
    blocked: round(firstNetwork > 0 ? Math.max(0, firstNetwork - start) : -1),
    dns: dnsDone ? round(t.domainLookupEnd - t.domainLookupStart) : -1,
    // HAR's `connect` includes `ssl`.
    connect: fresh ? round(t.connectEnd - t.connectStart) : -1,
    send: 0,
    wait: round(Math.max(0, wait)),
    receive: round(Math.max(0, receive)),
    ssl: ssl < 0 ? -1 : round(ssl),
  };
}

/** `entry.time` per HAR 1.2: the sum of the phases that apply; `ssl` is already inside `connect`. */
function sumTimings(t: HarTimings): number {
  return [t.blocked, t.dns, t.connect, t.send, t.wait, t.receive].filter((v) => v > 0).reduce((a, b) => a + b, 0);
}

