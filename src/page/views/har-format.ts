/**
 * The HAR 1.2 shapes and the small formatting rules every HAR page uses (the observed load in
 * har.ts, each replayed strategy in har-replay.ts): one home, so neither imports the other.
 */
export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    /** HAR 1.2's free-text comment: how the observed page was captured and what that mode does not expose (har.ts). */
    comment?: string;
    pages: HarPage[];
    entries: HarEntry[];
  };
}

export interface HarPage {
  startedDateTime: string;
  id: string;
  title: string;
  pageTimings: { onContentLoad: number; onLoad: number };
  comment?: string;
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
  /** The connection's id (unique within the HAR's page; DevTools writes the socket id). */
  connection?: string;
  /** getlist extension: the webRequest resource type. */
  _resourceType: string;
  /** getlist extension: the phases were hidden by the browser (cross-origin without Timing-Allow-Origin). */
  _timingRestricted?: true;
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
export function mimeTypeOf(type: string): string {
  return MIME_BY_TYPE[type] ?? 'x-unknown';
}

export function isoDate(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

export function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
