import type { ObservedRequest, PageRecord, TimingEntry } from '../model/page-record';
import { navigationMilestones } from '../model/page-summary';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the subset getlist can fill from what
 * the browser exposes to an extension: no headers or cookies (webRequest could give headers, but
 * the popup does not keep them), sizes and phases from Resource Timing where exposed.
 */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    pages: HarPage[];
    entries: HarEntry[];
  };
}

export interface HarPage {
  startedDateTime: string;
  id: string;
  title: string;
  pageTimings: { onContentLoad: number; onLoad: number };
}

export interface HarNameValue {
  name: string;
  value: string;
}

export interface HarTimings {
  blocked: number;
  dns: number;
  connect: number;
  send: number;
  wait: number;
  receive: number;
  ssl: number;
}

export interface HarEntry {
  pageref: string;
  startedDateTime: string;
  /** Sum of the non-negative `timings` (HAR 1.2 requires exactly that). */
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    headersSize: -1;
    bodySize: -1;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string };
    redirectURL: string;
    headersSize: -1;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: HarTimings;
  serverIPAddress?: string;
  /** getlist extension: the webRequest resource type. */
  _resourceType: string;
  /** getlist extension: the phases were hidden by the browser (cross-origin without Timing-Allow-Origin). */
  _timingRestricted?: true;
}

/** The creator version written into HARs. */
export const HAR_CREATOR = { name: 'getlist', version: '0.1.0' };

/**
 * Builds a HAR from a page record: one entry per observed request, its phases taken from the
 * Resource Timing entry with the same URL (each entry used once, in order), else only `wait` = the
 * whole webRequest duration. A reused connection has `dns` and `connect` -1 ("does not apply").
 */
export function buildHar(page: PageRecord): Har {
  const pageref = page.pageId;
  const { domContentLoadedMs, loadMs } = navigationMilestones(page);
  const byUrl = new Map<string, TimingEntry[]>();
  for (const t of page.timings) {
    const list = byUrl.get(t.name);
    if (list) list.push(t);
    else byUrl.set(t.name, [t]);
  }
  const entries = page.requests.map((r) => {
    const timing = r.type === 'main_frame' ? undefined : byUrl.get(r.url)?.shift();
    return harEntry(r, timing, page, pageref);
  });
  return {
    log: {
      version: '1.2',
      creator: { ...HAR_CREATOR },
      pages: [
        {
          startedDateTime: isoDate(page.startedAt),
          id: pageref,
          title: page.url,
          pageTimings: { onContentLoad: domContentLoadedMs ?? -1, onLoad: loadMs ?? -1 },
        },
      ],
      entries,
    },
  };
}

function harEntry(r: ObservedRequest, t: TimingEntry | undefined, page: PageRecord, pageref: string): HarEntry {
  const duration = r.endedAt === undefined ? 0 : Math.max(0, r.endedAt - r.startedAt);
  const timings = t && !t.restricted ? phases(t) : { blocked: -1, dns: -1, connect: -1, send: 0, wait: duration, receive: 0, ssl: -1 };
  const protocol = r.type === 'main_frame' ? page.navigation?.nextHopProtocol : t?.nextHopProtocol;
  const httpVersion = harHttpVersion(protocol);
  const exposedSize = t && !t.restricted ? t.encodedBodySize : undefined;
  const entry: HarEntry = {
    pageref,
    startedDateTime: isoDate(r.startedAt),
    time: round(sumTimings(timings)),
    request: { method: r.method, url: r.url, httpVersion, cookies: [], headers: [], queryString: queryString(r.url), headersSize: -1, bodySize: -1 },
    response: {
      status: r.statusCode ?? 0,
      statusText: '',
      httpVersion,
      cookies: [],
      headers: [],
      content: { size: exposedSize ?? 0, mimeType: mimeTypeOf(r.type) },
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

/** HAR phases from one Resource Timing entry (non-restricted). */
export function phases(t: TimingEntry): HarTimings {
  const fresh = t.connectEnd > t.connectStart;
  const dnsDone = t.domainLookupEnd > t.domainLookupStart;
  const firstNetwork = t.domainLookupStart > 0 ? t.domainLookupStart : t.connectStart > 0 ? t.connectStart : t.requestStart;
  const ssl = fresh && t.secureConnectionStart > 0 ? t.connectEnd - t.secureConnectionStart : -1;
  const wait = t.responseStart > 0 && t.requestStart > 0 ? t.responseStart - t.requestStart : 0;
  const receive = t.responseStart > 0 ? t.responseEnd - t.responseStart : Math.max(0, t.responseEnd - t.startTime);
  return {
    blocked: round(firstNetwork > 0 ? Math.max(0, firstNetwork - t.startTime) : -1),
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

/** ALPN id → HAR version string; '' when unknown. */
export function harHttpVersion(alpn: string | undefined): string {
  switch (alpn) {
    case 'h2':
      return 'HTTP/2';
    case 'h3':
      return 'HTTP/3';
    case 'http/1.1':
      return 'HTTP/1.1';
    case 'http/1.0':
      return 'HTTP/1.0';
    default:
      return alpn ?? '';
  }
}

/** The query string as name/value pairs, percent-decoded (`+` is a space), order kept. */
export function queryString(url: string): HarNameValue[] {
  let search: string;
  try {
    search = new URL(url).search;
  } catch {
    return [];
  }
  if (search.length <= 1) return [];
  return search
    .slice(1)
    .split('&')
    .filter((p) => p !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const [name, value] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)];
      return { name: decode(name), value: decode(value) };
    });
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

const MIME_BY_TYPE: Readonly<Record<string, string>> = {
  main_frame: 'text/html',
  sub_frame: 'text/html',
  stylesheet: 'text/css',
  script: 'text/javascript',
  font: 'font/*',
  image: 'image/*',
};

/** webRequest types carry no MIME type; a class guess is better than nothing for HAR viewers. */
function mimeTypeOf(type: string): string {
  return MIME_BY_TYPE[type] ?? 'x-unknown';
}

function isoDate(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
