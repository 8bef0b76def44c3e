import { isFromCache } from './connection-count';
import type { PageRecord } from './page-record';

/**
 * The bytes a page load took from the network, document included. Resource and Navigation
 * Timing `transferSize` count each response's headers as 300 bytes (Resource Timing §4.3, so a
 * page cannot learn header sizes); bodies are exact. Cross-origin entries without
 * Timing-Allow-Origin hide their size (`notExposed`). Redirect hops are not in any entry: only
 * Firefox's webRequest `responseSize` could size them, and it reads 0 (`exposedSize`), so they are
 * counted as `redirectsNotExposed` unless a hop carries a size.
 */
export interface PageBytes {
  /** Everything counted below. */
  bytes: number;
  /** The document's own response, when Navigation Timing exposed it. */
  documentBytes?: number;
  /** Redirect hops' bytes, where the browser sized them (`RedirectHop.responseSize`). */
  redirectBytes: number;
  /** Sub-resources counted. */
  exposed: number;
  /** Sub-resources whose size the browser hides. */
  notExposed: number;
  /** Redirect hops (document and sub-resources) whose size no browser signal gave. */
  redirectsNotExposed: number;
  /** Where `bytes` came from, for the label next to the number. */
  source: 'resource-timing' | 'resource-timing+webrequest';
}

/**
 * A webRequest `responseSize` as a size, or undefined when it measured nothing. A response is
 * never 0 bytes on the wire (its status line alone is more), yet Firefox ESR 153 reports 0 for a
 * redirect the server wrote 232 B of, and for documents and images of the e2e site: 0 is "not
 * measured", never a size to add.
 */
export function exposedSize(responseSize: number | undefined): number | undefined {
  return responseSize !== undefined && responseSize > 0 ? responseSize : undefined;
}

export function pageBytes(page: Pick<PageRecord, 'timings' | 'navigation' | 'requests' | 'capture'>): PageBytes {
  const out: PageBytes = { bytes: 0, redirectBytes: 0, exposed: 0, notExposed: 0, redirectsNotExposed: 0, source: 'resource-timing' };
  const nav = page.navigation;
  const doc = page.requests.find((r) => r.type === 'main_frame' && r.frameId === 0);
  if (nav?.transferSize !== undefined && !isFromCache({ transferSize: nav.transferSize, encodedBodySize: nav.encodedBodySize ?? 0 })) {
    out.documentBytes = nav.transferSize;
  } else if (doc?.responseSize !== undefined) {
    out.documentBytes = doc.responseSize;
  }
  out.bytes += out.documentBytes ?? 0;
  for (const t of page.timings) {
    if (t.restricted) {
      out.notExposed++;
    } else {
      out.bytes += t.transferSize;
      out.exposed++;
    }
  }
  for (const r of page.requests) {
    for (const hop of r.redirects ?? []) {
      if (hop.responseSize === undefined) out.redirectsNotExposed++;
      else {
        out.redirectBytes += hop.responseSize;
        out.source = 'resource-timing+webrequest';
      }
    }
  }
  // Lean capture sees no hop, only Navigation Timing's count of the document's (same-origin) ones.
  if (page.capture === 'lean') out.redirectsNotExposed += page.navigation?.redirectCount ?? 0;
  out.bytes += out.redirectBytes;
  return out;
}

/** The top-level document's response as the browser reported it. */
export interface DocumentResponse {
  url: string;
  /** HTTP status; undefined until the response arrived. */
  status?: number;
  /** `Content-Type` (webRequest header, else Navigation Timing `contentType`); '' when not given. */
  contentType: string;
  /** The hops before it, with their statuses. */
  redirects: { url: string; status?: number }[];
  /** net::ERR_… / NS_ERROR_… when the document failed. */
  error?: string;
}

export function documentResponse(page: Pick<PageRecord, 'url' | 'requests' | 'navigation'>): DocumentResponse | undefined {
  const doc = page.requests.find((r) => r.type === 'main_frame' && r.frameId === 0);
  const nav = page.navigation;
  if (!doc && !nav) return undefined;
  const status = doc?.statusCode ?? (nav?.responseStatus ? nav.responseStatus : undefined);
  return {
    url: doc?.url ?? page.url,
    ...(status === undefined ? {} : { status }),
    contentType: doc?.contentType ?? nav?.contentType ?? '',
    redirects: (doc?.redirects ?? []).map((hop) => (hop.statusCode === undefined ? { url: hop.url } : { url: hop.url, status: hop.statusCode })),
    ...(doc?.error ? { error: doc.error } : {}),
  };
}

